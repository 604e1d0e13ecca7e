/**
 * Browser host for text embeddings (runs in `workers/embed.worker.ts`): transformers.js feature
 * extraction on onnxruntime-web, with every file served by the app itself.
 *
 * - Model files: `<app>/models/<id>/` (precached by the service worker), remote loading off. A hub
 *   model (an id that is not a folder there) is downloaded from the Hugging Face hub once and kept in
 *   transformers.js' browser cache.
 * - onnxruntime's WASM runtime (`ort-wasm-simd-threaded.asyncify.{mjs,wasm}`) is emitted into the
 *   build by the `?url` imports below and precached; without them transformers.js would fetch it
 *   from a CDN.
 * - Backend: WebGPU when `navigator.gpu.requestAdapter()` gives a hardware adapter, WASM otherwise
 *   (a software fallback adapter such as SwiftShader is ~100× slower than WASM, so it counts as
 *   none). If the WebGPU session cannot be created the model is loaded again on WASM.
 * - WASM threads: 1 unless the page is cross-origin isolated (COOP/COEP, as `scripts/serve.mjs`
 *   sends), then up to 4 — except for our static lookup-table models, which have nothing to run in
 *   parallel: there, idle onnxruntime threads spin and take CPU from the tokenizer (measured: 2
 *   threads halve glove-100d's throughput on 2 cores). onnxruntime fixes the count when its WASM
 *   starts (the first model loaded in the worker), so a model chosen later gets its own count only
 *   after the worker restarts (next page load); `threads` in the model info is the real count.
 * - transformers.js' `env` is global to the worker, so loads are serialised.
 */
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import { own } from '../core/data-keys';
import { prop } from '../core/props';
import { embedderId, toModelLoadProgress, type ModelLoadProgress } from '../core/embed/index';
import { BUNDLED_EMBED_MODEL, KNOWN_HUB_DIMS, ModelLoadError, type EmbedBackend, type EmbedModelSource } from './embed-host';
import { toModelLoadError } from './embed-errors';
import type { EmbedHost, LoadedModel, ModelDescription } from './embed-host';
import { pipelineEmbedder } from './pipeline-embedder';

export interface BrowserEmbedHostOptions {
  /** Folder URL holding `<model>/config.json` etc. Default: `models/` under the app's base URL. */
  modelsUrl?: string;
  /** Override the WASM thread count (default: min(4, cores) when cross-origin isolated and the model is not a static lookup table, else 1). */
  numThreads?: number;
  /** Never use WebGPU (default: use it when a hardware adapter exists). */
  disableWebGpu?: boolean;
  /** Texts per pipeline call (default 32). */
  batchSize?: number;
}

interface LocalConfig {
  hidden_size?: number;
  toolmem_static_embedding?: { revision?: string };
}

/**
 * The app's root URL as seen from this worker. An absolute base (`/`, `/studio/`) is resolved
 * against the origin; a relative base (`./`) against the worker script, which Vite emits into
 * `assets/` (and serves from `/workers/` in dev), one level below the root in both cases.
 */
export function appRootUrl(): URL {
  const base = import.meta.env.BASE_URL || '/';
  return base.startsWith('/') ? new URL(base, self.location.origin) : new URL('../', self.location.href);
}

async function hardwareWebGpu(): Promise<boolean> {
  // `navigator.gpu` is newer than our lib.dom: read through `prop` and checked.
  const gpu = prop(navigator, 'gpu');
  const requestAdapter = prop(gpu, 'requestAdapter');
  if (typeof requestAdapter !== 'function') return false;
  try {
    const adapter: unknown = await requestAdapter.call(gpu);
    // A software ("fallback") adapter says so in `info` (newer browsers) or on itself (older ones).
    return !!adapter && !(prop(prop(adapter, 'info'), 'isFallbackAdapter') ?? prop(adapter, 'isFallbackAdapter') ?? false);
  } catch {
    return false;
  }
}

/** WASM threads for a model: 1 without cross-origin isolation or for a static lookup-table model. */
function threadsFor(config: LocalConfig | null): number {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  if (!isolated || config?.toolmem_static_embedding) return 1;
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
}

/** transformers.js's settings for a model from `source`; `threads`: the WASM thread count, null once the runtime has started. */
function configureEnv(modelsUrl: string, source: EmbedModelSource, threads: number | null): void {
  const local = source !== 'hub';
  env.allowLocalModels = local;
  // A path, not a URL: transformers.js skips its local-file checks (e.g. "does this model have a
  // tokenizer?") for anything that looks like an http(s) URL.
  env.localModelPath = new URL(modelsUrl).pathname;
  // Our server (and the service worker's navigation fallback) answers a missing file with
  // index.html and status 200, which transformers.js would take for the file: a hub model must
  // therefore never be looked up locally, and a local one never remotely.
  env.allowRemoteModels = !local;
  // Local models are precached by the service worker; a second copy in Cache Storage would only
  // cost space. Hub downloads are kept there (that is the "downloaded once").
  env.useBrowserCache = !local;
  // The runtime is precached too: no duplicate 27 MB in Cache Storage.
  env.useWasmCache = false;
  const wasm = env.backends.onnx.wasm;
  if (wasm) {
    wasm.wasmPaths = { mjs: new URL(ortMjsUrl, self.location.href).href, wasm: new URL(ortWasmUrl, self.location.href).href };
    if (threads !== null) wasm.numThreads = threads;
    wasm.proxy = false;
  }
}

/** The feature-extraction pipeline on the preferred backend, falling back from WebGPU to WASM. */
async function createExtractor(
  model: string,
  d: { source: EmbedModelSource; backend: EmbedBackend },
  progress_callback: (info: unknown) => void,
): Promise<{ extractor: FeatureExtractionPipeline; backend: EmbedBackend }> {
  const create = (device: 'webgpu' | 'wasm') => pipeline('feature-extraction', model, { local_files_only: d.source !== 'hub', device, progress_callback });
  let backend = d.backend;
  try {
    try {
      return { extractor: await create(backend as 'webgpu' | 'wasm'), backend };
    } catch (err) {
      if (backend !== 'webgpu') throw err;
      console.warn(`[embed] WebGPU session for ${model} failed, using WASM`, err);
      backend = 'wasm';
      return { extractor: await create('wasm'), backend };
    }
  } catch (err) {
    throw toModelLoadError(err, model, d.source, navigator.onLine);
  }
}

/** The model's output size: known, from its config, or from embedding one probe text. */
async function outputDim(extractor: FeatureExtractionPipeline, known: number | null, model: string): Promise<number> {
  const configDim = prop(prop(extractor.model, 'config'), 'hidden_size');
  let dim = known ?? (typeof configDim === 'number' ? configDim : null);
  if (dim === null) {
    const probe = await extractor(['dimension probe'], { pooling: 'mean', normalize: false });
    dim = probe.dims.at(-1) ?? null;
  }
  if (!dim) throw new ModelLoadError(`Model “${model}” does not report its output size`, 'failed', model);
  return dim;
}

/** config.json of a folder under models/, or null when there is none (the server answers index.html); kept per model. */
function configReader(modelsUrl: string): (model: string) => Promise<LocalConfig | null> {
  const configs = new Map<string, Promise<LocalConfig | null>>();
  return (model) => {
    let found = configs.get(model);
    if (!found) {
      found = fetch(new URL(`${model}/config.json`, modelsUrl))
        .then(async (r) => (r.ok && /json/i.test(r.headers.get('content-type') ?? '') ? ((await r.json()) as LocalConfig) : null))
        .catch(() => null);
      configs.set(model, found);
      // A failure (offline before the service worker cached it) must not stick.
      void found.then((c) => c === null && configs.delete(model));
    }
    return found;
  };
}

export function createBrowserEmbedHost(options: BrowserEmbedHostOptions = {}): EmbedHost {
  const modelsUrl = new URL(options.modelsUrl ?? 'models/', appRootUrl()).href;
  /** Set when onnxruntime's WASM starts (first load); fixed from then on. */
  let wasmThreads: number | null = null;
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 32));
  let gpu: Promise<boolean> | null = null;
  const preferredBackend = async (): Promise<EmbedBackend> => {
    if (options.disableWebGpu) return 'wasm';
    gpu ??= hardwareWebGpu();
    return (await gpu) ? 'webgpu' : 'wasm';
  };

  const localConfig = configReader(modelsUrl);

  async function describe(model: string): Promise<ModelDescription & { config: LocalConfig | null }> {
    const config = await localConfig(model);
    const source: EmbedModelSource = config ? (model === BUNDLED_EMBED_MODEL ? 'bundled' : 'local-folder') : 'hub';
    return {
      source,
      config,
      id: embedderId(model, config?.toolmem_static_embedding?.revision),
      dim: config?.hidden_size ?? own(KNOWN_HUB_DIMS, model) ?? null,
      sizeBytes: null,
      backend: await preferredBackend(),
      threads: wasmThreads ?? options.numThreads ?? threadsFor(config),
    };
  }

  let chain: Promise<unknown> = Promise.resolve();

  async function loadNow(model: string, onProgress: (p: ModelLoadProgress) => void): Promise<LoadedModel> {
    const d = await describe(model);
    if (d.source === 'hub' && navigator.onLine === false) {
      // Fail at once with the real reason instead of after a doomed request.
      throw toModelLoadError(new TypeError('Failed to fetch'), model, d.source, false);
    }
    configureEnv(modelsUrl, d.source, wasmThreads === null ? d.threads : null);
    const sizes = new Map<string, number>();
    const progress_callback = (info: unknown) => {
      const p = toModelLoadProgress(info);
      if (!p) return;
      if (p.status === 'progress' && p.file && typeof p.total === 'number' && p.total > 0) sizes.set(p.file, p.total);
      onProgress(p);
    };
    const { extractor, backend } = await createExtractor(model, d, progress_callback);
    const dim = await outputDim(extractor, d.dim, model);
    wasmThreads ??= d.threads; // the WASM runtime started with this count (WebGPU runs on it too)
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);
    return {
      embedder: pipelineEmbedder(extractor, embedderId(model, d.config?.toolmem_static_embedding?.revision), dim, batchSize, backend === 'wasm'),
      source: d.source,
      backend,
      threads: backend === 'wasm' ? (wasmThreads ?? d.threads) : 1,
      sizeBytes: total > 0 ? total : null,
    };
  }

  return {
    async describe(model) {
      const { config: _config, ...d } = await describe(model);
      return d;
    },
    load(model, onProgress) {
      const run = chain.then(() => loadNow(model, onProgress));
      chain = run.catch(() => undefined);
      return run;
    },
  };
}
