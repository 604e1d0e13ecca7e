#!/usr/bin/env node
// npm run bench:embed — two measurements, printed as figures and ratios (never failing on speed):
// 1. Embedding throughput of the bundled model (glove-100d): the app's embed worker in Chromium
//    (transformers.js + onnxruntime-web WASM) vs the same ONNX file run directly with
//    onnxruntime-node in this process (same tokenizer, same texts, same batch size, mean pooling).
//    Texts: the GenAI-Bench prompts cycled to BENCH_TEXTS (default 4,000), made unique per cycle so
//    the cache cannot dedupe them; generated sentences when the data folder is missing.
// 2. Top-12-per-level retrieval over BENCH_ENTRIES (default 100,000) random 100-d unit vectors in
//    four levels, in a Chromium worker: our VectorIndex vs Orama (@orama/orama, pure JS) on the
//    same vectors, both checked against a brute-force scan.
// Options (environment): BENCH_TEXTS, BENCH_REPEATS, BENCH_ENTRIES, BENCH_QUERIES, GENAI_PROMPTS,
// BENCH_SKIP_RETRIEVAL=1.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Papa from 'papaparse';
import { buildBench, launch, rng, serve, table } from './common.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COUNT = Number(process.env.BENCH_TEXTS ?? 4000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const BATCH = 32;
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 50);
const K = 12;
const PORT = 4519;
const PROMPTS = process.env.GENAI_PROMPTS ?? join(ROOT, '../shared/data/genai_bench/prompts.csv');
const MODEL_DIR = join(ROOT, 'public/models/glove-100d');

function loadTexts() {
  let base;
  let source;
  if (existsSync(PROMPTS)) {
    const rows = Papa.parse(readFileSync(PROMPTS, 'utf8'), { header: true, skipEmptyLines: true }).data;
    base = rows.map((r) => r.prompt).filter(Boolean);
    source = `${base.length.toLocaleString()} GenAI-Bench prompts (${PROMPTS})`;
  } else {
    const words = 'a the red blue small old young cat dog horse child woman robot car train bridge river city street kitchen table lamp book tree cloud moon ocean boat tower garden painting standing sitting running holding reading near under beside'.split(' ');
    const rand = rng(7);
    base = Array.from({ length: 1600 }, () => Array.from({ length: 8 + Math.floor(rand() * 14) }, () => words[Math.floor(rand() * words.length)]).join(' '));
    source = '1,600 generated sentences (GenAI-Bench prompts not found)';
  }
  // Unique per cycle, so neither side's cache or dedupe can skip work.
  const texts = Array.from({ length: COUNT }, (_, i) => {
    const cycle = Math.floor(i / base.length);
    return cycle === 0 ? base[i % base.length] : `${base[i % base.length]} (take ${cycle + 1})`;
  });
  return { texts, source };
}

/** onnxruntime-node exactly as transformers.js resolves it (it is transformers' dependency). */
async function importOrtNode() {
  const req = createRequire(join(ROOT, 'package.json'));
  const transformersMain = req.resolve('@huggingface/transformers');
  const fromTransformers = createRequire(transformersMain);
  const ort = await import(pathToFileURL(fromTransformers.resolve('onnxruntime-node')).href);
  return ort.default ?? ort;
}

/** The ONNX model run directly: tokenizer (transformers.js, same files) → onnxruntime-node → mean pool → L2. */
async function nodeEmbedder() {
  const { AutoTokenizer, env } = await import('@huggingface/transformers');
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = join(ROOT, 'public/models/');
  const tokenizer = await AutoTokenizer.from_pretrained('glove-100d', { local_files_only: true });
  const ort = await importOrtNode();
  const session = await ort.InferenceSession.create(join(MODEL_DIR, 'onnx/model_quantized.onnx'));
  const dim = JSON.parse(readFileSync(join(MODEL_DIR, 'config.json'), 'utf8')).hidden_size;
  async function embed(texts) {
    const out = new Float32Array(texts.length * dim);
    for (let start = 0; start < texts.length; start += BATCH) {
      const chunk = texts.slice(start, start + BATCH);
      const enc = tokenizer(chunk, { padding: true, truncation: true });
      const [rows, seq] = enc.input_ids.dims;
      const ids = new ort.Tensor('int64', enc.input_ids.data, [rows, seq]);
      const { last_hidden_state: h } = await session.run({ input_ids: ids });
      const mask = enc.attention_mask.data;
      const hd = h.data;
      for (let r = 0; r < rows; r++) {
        const o = (start + r) * dim;
        let count = 0;
        for (let t = 0; t < seq; t++) {
          if (mask[r * seq + t] === 0n || mask[r * seq + t] === 0) continue;
          count++;
          const base = (r * seq + t) * dim;
          for (let d = 0; d < dim; d++) out[o + d] += hd[base + d];
        }
        let sq = 0;
        for (let d = 0; d < dim; d++) sq += out[o + d] * out[o + d];
        const inv = count > 0 && sq > 0 ? 1 / Math.sqrt(sq) : 0;
        for (let d = 0; d < dim; d++) out[o + d] *= inv;
      }
    }
    return { dim, data: out };
  }
  return { embed, ortVersion: ort.env?.versions?.node ?? ort.env?.versions?.common ?? '?' };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (n, ms) => n / (ms / 1000);

const { texts, source } = loadTexts();
console.log(`texts: ${texts.length.toLocaleString()} from ${source}; batch ${BATCH}; one warm-up pass, then ${REPEATS} timed passes (median)`);

// Node first, while the browser is not running (the machine may have few cores).
const node = await nodeEmbedder();
await node.embed(texts); // warm-up: one full pass, as in the browser
const nodeTimes = [];
let nodeOut;
for (let r = 0; r < REPEATS; r++) {
  const t0 = performance.now();
  nodeOut = await node.embed(texts);
  nodeTimes.push(performance.now() - t0);
}

buildBench();
const server = await serve('dist-bench', PORT);
const browser = await launch();
try {
  await runInBrowser();
} finally {
  await browser.close();
  server.kill();
}

async function runInBrowser() {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`http://127.0.0.1:${PORT}/bench/embed.html`);
  await page.waitForFunction(() => 'embedBench' in window);
  const b = await page.evaluate(([t, r, bs]) => window.embedBench(t, r, bs), [texts, REPEATS, BATCH]);

  const nodeRate = rate(texts.length, median(nodeTimes));
  const workerRate = rate(texts.length, median(b.uncachedMs));
  const missRate = rate(texts.length, b.cachedMissMs);
  const hitRate = rate(texts.length, b.cachedHitMs);
  let maxDiff = 0;
  b.sample.forEach((row, i) => row.forEach((x, d) => (maxDiff = Math.max(maxDiff, Math.abs(x - nodeOut.data[i * nodeOut.dim + d])))));
  console.log('\nEmbedding throughput (glove-100d)');
  console.log(
    table([
      ['pipeline', 'sentences/s', 'seconds'],
      [`Node: onnxruntime-node ${node.ortVersion} direct (tokenizer + session.run + mean pool)`, Math.round(nodeRate), (median(nodeTimes) / 1000).toFixed(2)],
      [`Chromium worker: transformers.js + onnxruntime-web ${b.info.backend.toUpperCase()}, ${b.info.threads} thread(s), cache off`, Math.round(workerRate), (median(b.uncachedMs) / 1000).toFixed(2)],
      ['Chromium worker, through the IndexedDB cache, all misses (SHA-256 + model + writes)', Math.round(missRate), (b.cachedMissMs / 1000).toFixed(2)],
      [`Chromium worker, through the IndexedDB cache, all hits (${b.cachedHitModelCalls} model calls)`, Math.round(hitRate), (b.cachedHitMs / 1000).toFixed(2)],
    ]),
  );
  console.log(`model load in the worker: ${b.info.model} ${b.info.id}, ${(b.loadMs / 1000).toFixed(2)} s (crossOriginIsolated: ${b.crossOriginIsolated})`);
  console.log(`ratio worker/Node throughput, model only: ${(workerRate / nodeRate).toFixed(2)} (goal ≥ 0.90); through the cache (misses): ${(missRate / nodeRate).toFixed(2)}`);
  console.log(`per repeat, ms: worker ${b.uncachedMs.map((x) => x.toFixed(0)).join(' ')}; Node ${nodeTimes.map((x) => x.toFixed(0)).join(' ')}`);
  console.log(`best of ${REPEATS}: worker ${Math.round(rate(texts.length, Math.min(...b.uncachedMs)))}/s, Node ${Math.round(rate(texts.length, Math.min(...nodeTimes)))}/s, ratio ${(Math.min(...nodeTimes) / Math.min(...b.uncachedMs)).toFixed(2)}`);
  console.log(`same vectors: max |browser − Node| over the first 8 texts = ${maxDiff.toExponential(2)}`);

  if (process.env.BENCH_SKIP_RETRIEVAL === '1') return;
  const r = await page.evaluate((req) => window.retrievalBench(req), { n: ENTRIES, dim: 100, queries: QUERIES, k: K, seed: 11 });
  const oramaVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules/@orama/orama/package.json'), 'utf8')).version;
  console.log(`\nRetrieval: top-${K} per level, ${r.n.toLocaleString()} random ${r.dim}-d entries in 4 levels, one tool, ${r.queries} queries, in a worker`);
  console.log(
    table([
      ['index', 'build s', 'ms/query', 'exactness vs brute force'],
      ['ToolMem VectorIndex + topKPerLevel', (r.ours.buildMs / 1000).toFixed(2), r.ours.msPerQuery.toFixed(2), r.ours.exact ? 'identical' : `${r.ours.mismatches} level lists differ`],
      [`Orama ${oramaVersion} vector search (where level = …, similarity ≥ -1)`, (r.orama.buildMs / 1000).toFixed(2), r.orama.msPerQuery.toFixed(2), `recall ${(r.orama.recall * 100).toFixed(1)}%`],
      ['brute force (plain scan + full sort, the reference)', '—', r.bruteForceMsPerQuery.toFixed(2), '—'],
    ]),
  );
  console.log(`ours: ${r.ours.msPerQuery.toFixed(2)} ms/query (goal ≤ 20 ms); speed vs Orama: ${(r.orama.msPerQuery / r.ours.msPerQuery).toFixed(1)}× (goal ≥ 3×)`);
}
