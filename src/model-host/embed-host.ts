/**
 * The contract between the embedding model hosts (transformers.js in the browser, onnxruntime-node
 * in Node) and the embedding service above them: where a model comes from, what a host reports,
 * and the one error a failed load becomes. Pure (types, constants, one error class), so the UI,
 * the workers and the CLI may all import it.
 */
import type { Embedder, ModelLoadProgress } from '../core/embed';
import { ToolMemError } from '../core/errors';

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
/** What a host knows about a model without loading it. */
export interface ModelDescription {
  source: EmbedModelSource;
  id: string;
  dim: number | null;
  sizeBytes: number | null;
  backend: EmbedBackend;
  threads: number;
}

/** A loaded model: an embedder plus what loading found out. */
export interface LoadedModel {
  embedder: Embedder;
  source: EmbedModelSource;
  backend: EmbedBackend;
  threads: number;
  sizeBytes: number | null;
}

/** Hosts a model library. Errors should be `ModelLoadError`s (reason offline / not-found / failed). */
export interface EmbedHost {
  describe(model: string): Promise<ModelDescription>;
  load(model: string, onProgress: (progress: ModelLoadProgress) => void): Promise<LoadedModel>;
}
