/**
 * Node host for text embeddings: an `Embedder` backed by transformers.js feature extraction
 * (mean pooling; we L2-normalise ourselves so an all-unknown text gives a zero vector, not NaN).
 *
 * Offline by default: models load from `modelsDir` (default <repo>/public/models/, the same folder
 * the PWA serves) with remote loading off. Only when the model id is NOT a local folder and the
 * caller passes `allowNetwork: true` (e.g. `Xenova/all-MiniLM-L6-v2` for online users) is
 * `env.allowRemoteModels` switched on. Note that transformers.js' `env` is process-global.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { own } from '../core/data-keys';
import {
  embedderId,
  throwIfCancelled,
  toModelLoadProgress,
  type EmbedOptions,
  type Embedder,
  type EmbeddingBatch,
  type ModelLoadProgress,
} from '../core/embed/index';
import { NotFoundError } from '../core/errors';
import { pipelineEmbedder } from './pipeline-embedder';

export const DEFAULT_LOCAL_MODEL = 'glove-100d';
export const DEFAULT_MODELS_DIR = fileURLToPath(new URL('../../public/models/', import.meta.url));

/** Output sizes of hub models we know; others need `dim`. */
const KNOWN_HUB_DIMS: Readonly<Record<string, number>> = {
  'Xenova/all-MiniLM-L6-v2': 384,
  'Xenova/bge-small-en-v1.5': 384,
  'Xenova/all-mpnet-base-v2': 768,
};

export type TransformersDtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4';

export interface TransformersEmbedderOptions {
  /** Local folder name under `modelsDir`, or a hub id. Default `glove-100d`. */
  model?: string;
  modelsDir?: string;
  /** Allow downloading a hub model that is not a local folder. Default false. */
  allowNetwork?: boolean;
  /** Output size; read from a local config.json, or the table of known hub models. */
  dim?: number;
  dtype?: TransformersDtype;
  /** Texts per pipeline call (sequences are padded to the longest in a call). Default 32, the
   * fastest of 16–256 measured on GenAI-Bench prompts. */
  batchSize?: number;
  onLoadProgress?: (progress: ModelLoadProgress) => void;
}

export interface TransformersEmbedder extends Embedder {
  /** True when the model comes from `modelsDir`. */
  readonly local: boolean;
  /** Loads the model now (otherwise the first `embed` does). Shared by embedders of the same model. */
  load(): Promise<void>;
}

interface LocalConfig {
  hidden_size?: number;
  toolmem_static_embedding?: { revision?: string };
}

interface Loaded {
  promise: Promise<FeatureExtractionPipeline>;
  listeners: Set<(p: ModelLoadProgress) => void>;
}

/** One pipeline per (folder, model, dtype, remote) for the whole process: loading is the slow part. */
const loaded = new Map<string, Loaded>();

function loadPipeline(key: string, model: string, modelsDir: string, remote: boolean, dtype: TransformersDtype | undefined): Loaded {
  const existing = loaded.get(key);
  if (existing) return existing;
  const listeners = new Set<(p: ModelLoadProgress) => void>();
  env.allowLocalModels = true;
  env.localModelPath = modelsDir.endsWith(sep) ? modelsDir : modelsDir + sep;
  env.allowRemoteModels = remote;
  const promise = pipeline('feature-extraction', model, {
    local_files_only: !remote,
    ...(dtype ? { dtype } : {}),
    progress_callback: (info: unknown) => {
      const p = toModelLoadProgress(info);
      if (p) for (const l of listeners) l(p);
    },
  });
  const entry: Loaded = { promise, listeners };
  loaded.set(key, entry);
  // A failed load must not stay cached, or the process could never retry.
  promise.catch(() => loaded.get(key) === entry && loaded.delete(key));
  return entry;
}

export function createTransformersEmbedder(options: TransformersEmbedderOptions = {}): TransformersEmbedder {
  const model = options.model ?? DEFAULT_LOCAL_MODEL;
  const modelsDir = resolve(options.modelsDir ?? DEFAULT_MODELS_DIR);
  const configPath = join(modelsDir, model, 'config.json');
  const local = existsSync(configPath);
  if (!local && !options.allowNetwork) {
    throw new NotFoundError(`Model "${model}" is not in ${modelsDir} and network loading is off`);
  }
  const config: LocalConfig = local ? (JSON.parse(readFileSync(configPath, 'utf8')) as LocalConfig) : {};
  const dim = options.dim ?? config.hidden_size ?? own(KNOWN_HUB_DIMS, model);
  if (!dim) throw new Error(`Unknown output size for "${model}": pass { dim }`);
  const remote = !local && options.allowNetwork === true;
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 32));
  const key = [modelsDir, model, options.dtype ?? 'auto', remote].join('|');
  const id = embedderId(model, config.toolmem_static_embedding?.revision);

  let mine: Loaded | null = null;
  let direct: { extractor: FeatureExtractionPipeline; embedder: Embedder } | null = null;
  const get = (): Promise<FeatureExtractionPipeline> => {
    if (!mine || loaded.get(key) !== mine) {
      mine = loadPipeline(key, model, modelsDir, remote, options.dtype);
      if (options.onLoadProgress) mine.listeners.add(options.onLoadProgress);
    }
    return mine.promise;
  };

  return {
    id,
    dim,
    local,
    async load() {
      await get();
    },
    async embed(texts: readonly string[], opts: EmbedOptions = {}): Promise<EmbeddingBatch> {
      throwIfCancelled(opts.signal);
      const extractor = await get();
      // The browser's embedding code (direct tokenizer → session path, in-graph pooling when the
      // model has it), so the CLI and the app compute vectors the same way.
      if (direct?.extractor !== extractor) direct = { extractor, embedder: pipelineEmbedder(extractor, id, dim, batchSize, true) };
      return direct.embedder.embed(texts, opts);
    },
    async dispose() {
      const entry = loaded.get(key);
      if (!entry) return;
      loaded.delete(key);
      await (await entry.promise).dispose();
    },
  };
}
