/**
 * The embedding worker's protocol, declared once: `workers/embed.worker.ts` exposes
 * `createEmbedHandlers(...)`, the UI calls it through `createClient<EmbedApi>(worker)`
 * (src/ui/workers.ts), the memory and predictors workers through a port to it (src/model-host/embed-remote.ts),
 * tests through `createInThreadClient(handlers)`.
 *
 * Pure (types, constants and one error class): importable from the UI, the worker and Node.
 */
import type { ModelLoadProgress } from '../core/embed';
import type { PortSpec } from '../rpc';
import type { EmbedBackend, EmbedModelSource } from './embed-host';

// The model hosts' contract (model sources, the load error, model ids) lives in the model-host
// layer, which the hosts and this API both import; re-exported here for the UI and the services.
export {
  BUNDLED_EMBED_MODEL,
  isModelLoadError,
  KNOWN_HUB_DIMS,
  ModelLoadError,
  normaliseModelId,
  type EmbedBackend,
  type EmbedModelSource,
  type ModelLoadFailure,
} from './embed-host';

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
export type EmbedCallProgress = { phase: 'load'; load: ModelLoadProgress } | { phase: 'embed'; done: number; total: number };

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
