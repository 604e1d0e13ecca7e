/**
 * The embedding worker's protocol, declared once: `workers/embed.worker.ts` exposes
 * `createEmbedHandlers(...)`, the UI calls it through `createClient<EmbedApi>(worker)`
 * (src/ui/workers.ts), the memory and predictors workers through a port to it (src/services/embed-remote.ts),
 * tests through `createInThreadClient(handlers)`.
 *
 * Pure (types, constants and one error class): importable from the UI, the worker and Node.
 */
import type { ModelLoadProgress } from '../core/embed';
import { ToolMemError } from '../core/errors';
import type { PortSpec } from '../rpc';

/** The static model shipped in the app (`public/models/glove-100d/`); works offline. */
export const BUNDLED_EMBED_MODEL = 'glove-100d';

/** Output sizes of hub models known before downloading them (others are read from their config). */
export const KNOWN_HUB_DIMS: Readonly<Record<string, number>> = {
  'Xenova/all-MiniLM-L6-v2': 384,
  'Xenova/bge-small-en-v1.5': 384,
  'Xenova/all-mpnet-base-v2': 768,
};

/**
 * Where the model files come from: shipped with the app, downloaded once from the Hugging Face hub
 * (then cached by transformers.js), or another folder served under the app's `models/` (Node: a
 * folder in the models directory).
 */
export type EmbedModelSource = 'bundled' | 'hub' | 'local-folder';

/** Where inference runs. `cpu` is onnxruntime-node (CLI, tests); the browser uses `webgpu` or `wasm`. */
export type EmbedBackend = 'webgpu' | 'wasm' | 'cpu';

export interface EmbedModelInfo {
  /** The model as chosen: `glove-100d` or a hub id such as `Xenova/all-MiniLM-L6-v2`. */
  model: string;
  /**
   * The embedder id used as cache key (and `Memory.embeddingModel`): model plus build revision for
   * our static models (`glove-100d@2790b023`), the model id otherwise. Known before loading for
   * local models.
   */
  id: string;
  source: EmbedModelSource;
  /** Output size; `null` until loaded for a hub model we do not know. */
  dim: number | null;
  /** Bytes of the model files; `null` until loaded (or when the server sent no sizes). */
  sizeBytes: number | null;
  /** Where it runs (once loaded) or would run (before loading). */
  backend: EmbedBackend;
  /** WASM threads (1 without cross-origin isolation); 0 = onnxruntime-node's own choice. */
  threads: number;
  loaded: boolean;
}

/** Progress of an `embed` call: model loading first (when not loaded yet), then texts. */
export type EmbedCallProgress =
  | { phase: 'load'; load: ModelLoadProgress }
  | { phase: 'embed'; done: number; total: number };

export interface EmbedRequest {
  texts: string[];
  /** Texts per model call (default 32). */
  batchSize?: number;
  /**
   * Default true: read and write the IndexedDB cache (key: embedder id + SHA-256 of the text).
   * `false` always runs the model and stores nothing (benchmarks).
   */
  cache?: boolean;
}

export interface EmbedResponse {
  /** Embedder id (cache key) of the model that produced the vectors. */
  id: string;
  dim: number;
  count: number;
  /** `count × dim` floats, row-major; each row has unit norm, or is all zeros (no known word). Transferred, not copied. */
  data: Float32Array;
  /** Model calls made (0 when every text came from the cache). */
  modelCalls: number;
  /** Unique texts served from the cache / embedded now. */
  hits: number;
  misses: number;
  /** Time spent in the worker, including hashing and cache reads/writes (not model loading). */
  ms: number;
}

export interface EmbedApi {
  /** What is active now, without loading anything. */
  info: { req: Record<string, never>; res: EmbedModelInfo; progress: never };
  /** Loads the active model (once; later calls share it) and reports its files' bytes. */
  load: { req: Record<string, never>; res: EmbedModelInfo; progress: ModelLoadProgress };
  /** Embeds texts with the active model, through the cache; cancellable between batches. */
  embed: { req: EmbedRequest; res: EmbedResponse; progress: EmbedCallProgress };
  /**
   * Switches model: loads it first (a hub model is downloaded once), then persists the choice under
   * `settings.embeddingModel`. Nothing already cached is re-embedded: later embeds simply use the
   * new model's id as cache key. On failure the previous model stays active.
   */
  setModel: { req: { model: string }; res: EmbedModelInfo; progress: ModelLoadProgress };
}

/**
 * Served by the workers that embed through the embed worker (memory, eval): the page sends each a
 * port to it when they start, and a fresh one when the embed worker is restarted after a crash.
 */
export interface EmbedPortApi {
  attachEmbed: PortSpec;
}

export type ModelLoadFailure = 'offline' | 'not-found' | 'invalid' | 'failed';

/**
 * A model could not be loaded. `reason` lets the UI say what to do (offline: connect once; not
 * found: check the id). Crosses the worker boundary as a `ToolMemError` named `ModelLoadError`
 * whose `reason` and `model` fields are kept.
 */
export class ModelLoadError extends ToolMemError {
  override name = 'ModelLoadError';
  constructor(
    message: string,
    readonly reason: ModelLoadFailure,
    readonly model: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Hub ids (`owner/name`) and folder names: letters, digits, `._-`, at most one `/`. */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)?$/;

/** Trims and checks a model id; throws `ModelLoadError('invalid')` for anything else (paths, URLs). */
export function normaliseModelId(model: unknown): string {
  const id = typeof model === 'string' ? model.trim() : '';
  if (id === '' || id.length > 200 || !MODEL_ID.test(id) || id.includes('..')) {
    throw new ModelLoadError(
      `“${String(model).slice(0, 80)}” is not a model id: use the bundled ${BUNDLED_EMBED_MODEL} or a Hugging Face id like Xenova/all-MiniLM-L6-v2`,
      'invalid',
      String(model).slice(0, 200),
    );
  }
  return id;
}

/** True for an error that is (or was rebuilt from) a {@link ModelLoadError}. */
export function isModelLoadError(err: unknown): err is Error & { reason: ModelLoadFailure; model: string } {
  return err instanceof Error && err.name === 'ModelLoadError';
}
