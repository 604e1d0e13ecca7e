// Runs inside Chromium (driven by bench/drivers/embed-bench.mjs), step by step so the driver can
// alternate timed passes with Node's on the same texts (both sides then sample the same machine
// state; this 2-core VM drifts by up to 2× between minutes):
// 1. the app's embed worker (workers/embed.worker.ts, transformers.js + onnxruntime-web):
//    `embedSetup` loads the model, `embedPass` times one model-only pass (cache off),
//    `embedMissPass` empties the cache (untimed) and times one pass through it (all misses; the
//    driver alternates it with `embedPass`), `embedHitPass` times one more (all hits);
// 2. top-k-per-level retrieval in a worker: our VectorIndex vs Orama on the same vectors.
import { ToolMemDB } from '../src/db';
import { createClient, type Client } from '../src/rpc';
import type { EmbedApi, EmbedModelInfo } from '../src/model-host/embed-api';
import type { RetrievalBenchRequest, RetrievalBenchResult } from './retrieval.worker';

export interface EmbedSetup {
  info: EmbedModelInfo;
  loadMs: number;
  crossOriginIsolated: boolean;
}

export interface EmbedPass {
  ms: number;
  /** The first rows, to compare with Node. */
  sample: number[][];
}

export interface EmbedCachePass {
  ms: number;
  modelCalls: number;
  misses: number;
}

let worker: Worker | null = null;
let client: Client<EmbedApi> | null = null;
let texts: string[] = [];
let batchSize = 32;

async function embedSetup(allTexts: string[], batch: number): Promise<EmbedSetup> {
  texts = allTexts;
  batchSize = batch;
  worker = new Worker(new URL('../workers/embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' });
  client = createClient<EmbedApi>(worker);
  const t0 = performance.now();
  const info = await client.call('load', {});
  return { info, loadMs: performance.now() - t0, crossOriginIsolated };
}

async function embedPass(): Promise<EmbedPass> {
  if (!client) throw new Error('embedSetup first');
  const start = performance.now();
  const res = await client.call('embed', { texts, cache: false, batchSize });
  const ms = performance.now() - start;
  const sample = Array.from({ length: 8 }, (_, i) => Array.from(res.data.subarray(i * res.dim, (i + 1) * res.dim)));
  return { ms, sample };
}

/** The same database the worker opens (same origin), to empty the cache between miss passes. */
let db: ToolMemDB | null = null;

/** One pass through the IndexedDB cache after emptying it: every text a miss (hash, lookup, model, writes). */
async function embedMissPass(): Promise<EmbedCachePass> {
  if (!client) throw new Error('embedSetup first');
  const d = (db ??= new ToolMemDB());
  // The cache's two v5 tables (src/db/embedding-blocks.ts); the worker's store notices the clear.
  await d.transaction('rw', [d.embeddingBlocks, d.embeddingKeys], () => Promise.all([d.embeddingBlocks.clear(), d.embeddingKeys.clear()]));
  const start = performance.now();
  const res = await client.call('embed', { texts, batchSize });
  return { ms: performance.now() - start, modelCalls: res.modelCalls, misses: res.misses };
}

/** One pass through the cache right after a miss pass: every text a hit. */
async function embedHitPass(): Promise<EmbedCachePass> {
  if (!client) throw new Error('embedSetup first');
  const start = performance.now();
  const res = await client.call('embed', { texts, batchSize });
  return { ms: performance.now() - start, modelCalls: res.modelCalls, misses: res.misses };
}

function embedTeardown(): void {
  db?.close();
  db = null;
  client?.dispose();
  worker?.terminate();
  client = null;
  worker = null;
}

async function retrievalBench(req: RetrievalBenchRequest): Promise<RetrievalBenchResult> {
  const retrieval = new Worker(new URL('./retrieval.worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<RetrievalBenchResult>((resolve, reject) => {
      retrieval.onmessage = (e: MessageEvent<RetrievalBenchResult | { error: string }>) =>
        'error' in e.data ? reject(new Error(e.data.error)) : resolve(e.data);
      retrieval.onerror = (e) => reject(new Error(e.message));
      retrieval.postMessage(req);
    });
  } finally {
    retrieval.terminate();
  }
}

Object.assign(window, { embedSetup, embedPass, embedMissPass, embedHitPass, embedTeardown, retrievalBench });
