// Runs inside Chromium (driven by scripts/bench/embed-bench.mjs):
// 1. the app's embed worker (workers/embed.worker.ts, transformers.js + onnxruntime-web) on the
//    given texts: model only (cache off), then through the IndexedDB cache (all misses, then all hits);
// 2. top-k-per-level retrieval in a worker: our VectorIndex vs Orama on the same vectors.
import { createClient } from '../src/rpc';
import type { EmbedApi, EmbedModelInfo } from '../src/services/embed-api';
import type { RetrievalBenchRequest, RetrievalBenchResult } from './retrieval.worker';

export interface EmbedBenchResult {
  info: EmbedModelInfo;
  loadMs: number;
  crossOriginIsolated: boolean;
  /** Model only (cache: false), one entry per repeat, ms for all texts. */
  uncachedMs: number[];
  /** Through the cache: first pass (all misses: hash + model + IndexedDB writes), second pass (all hits). */
  cachedMissMs: number;
  cachedHitMs: number;
  cachedHitModelCalls: number;
  /** The first rows of the model-only run, to compare with Node. */
  sample: number[][];
}

async function embedBench(texts: string[], repeats: number, batchSize: number): Promise<EmbedBenchResult> {
  const worker = new Worker(new URL('../workers/embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' });
  const client = createClient<EmbedApi>(worker);
  try {
    const t0 = performance.now();
    const info = await client.call('load', {});
    const loadMs = performance.now() - t0;
    // Warm-up: one full pass, so WASM and JS run optimised code (Node gets the same treatment).
    await client.call('embed', { texts, cache: false, batchSize });
    const uncachedMs: number[] = [];
    let sample: number[][] = [];
    for (let r = 0; r < repeats; r++) {
      const start = performance.now();
      const res = await client.call('embed', { texts, cache: false, batchSize });
      uncachedMs.push(performance.now() - start);
      sample = Array.from({ length: 8 }, (_, i) => Array.from(res.data.subarray(i * res.dim, (i + 1) * res.dim)));
    }
    let start = performance.now();
    await client.call('embed', { texts, batchSize });
    const cachedMissMs = performance.now() - start;
    start = performance.now();
    const hit = await client.call('embed', { texts, batchSize });
    const cachedHitMs = performance.now() - start;
    return { info, loadMs, crossOriginIsolated, uncachedMs, cachedMissMs, cachedHitMs, cachedHitModelCalls: hit.modelCalls, sample };
  } finally {
    client.dispose();
    worker.terminate();
  }
}

async function retrievalBench(req: RetrievalBenchRequest): Promise<RetrievalBenchResult> {
  const worker = new Worker(new URL('./retrieval.worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<RetrievalBenchResult>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<RetrievalBenchResult | { error: string }>) =>
        'error' in e.data ? reject(new Error(e.data.error)) : resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage(req);
    });
  } finally {
    worker.terminate();
  }
}

Object.assign(window, { embedBench, retrievalBench });
