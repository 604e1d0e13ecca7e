#!/usr/bin/env node
// npm run bench:embed — two measurements, printed as figures and ratios (never failing on speed):
// 1. Embedding throughput of the bundled model (glove-100d): the app's embed worker in Chromium
//    (transformers.js + onnxruntime-web WASM) vs the same ONNX file run directly with
//    onnxruntime-node in this process (same tokenizer, same texts, same batch size, mean pooling).
//    Warm-up and timed passes alternate between the two sides; the ratio is the median of the
//    per-pair ratios.
//    A third pass alternates with those: the app's worker through its IndexedDB cache with every
//    text a miss (the cache emptied, untimed, before each); its ratio to the model-only pass is the
//    median of the per-pair ratios too. One all-hits pass follows the timed loop.
//    Texts: the GenAI-Bench prompts cycled to BENCH_TEXTS (default 4,000), made unique per cycle so
//    the cache cannot dedupe them; generated sentences when the data folder is missing.
// 2. Top-12-per-level retrieval over BENCH_ENTRIES (default 100,000) random 100-d unit vectors in
//    four levels, in a Chromium worker: our VectorIndex vs Orama (@orama/orama, pure JS) on the
//    same vectors, both checked against a brute-force scan.
// Options (environment): BENCH_TEXTS, BENCH_REPEATS, BENCH_WARMUP, BENCH_ENTRIES, BENCH_QUERIES, GENAI_PROMPTS,
// BENCH_SKIP_RETRIEVAL=1, BENCH_PORT (default: a free port).
// `--smoke`: 200 texts, one warm-up and one timed pass, 2,000 entries (npm run bench:smoke); `--dist DIR` (common.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Papa from 'papaparse';
import { browserCpuSeconds, buildBench, launch, loadLine, rng, serve, sharedData, SMOKE, table } from './common.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COUNT = Number(process.env.BENCH_TEXTS ?? (SMOKE ? 200 : 4000));
const REPEATS = Number(process.env.BENCH_REPEATS ?? (SMOKE ? 1 : 9));
// Warm-up passes on each side before timing (the same number on both). A Chromium worker needs about
// 6–8 passes over 4,000 texts (~1,000 batches) to reach its steady speed, Node about 2; measured
// 2026-11-30: worker 715 366 472 242 406 239 278 160 ms, then 211–226; Node 281 → ~205. Throughput
// is the steady speed (a long embedding run reaches it); the warm-up passes, cold first, are printed.
const WARMUP = Math.max(1, Number(process.env.BENCH_WARMUP ?? (SMOKE ? 1 : 8)));
const BATCH = 32;
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? (SMOKE ? 2_000 : 100_000));
const QUERIES = Number(process.env.BENCH_QUERIES ?? (SMOKE ? 5 : 50));
const K = 12;
const PORT = Number(process.env.BENCH_PORT ?? 0);
const PROMPTS = process.env.GENAI_PROMPTS ?? sharedData('genai_bench/prompts.csv');
const MODEL_DIR = join(ROOT, 'public/models/glove-100d');

function loadTexts() {
  let base;
  let source;
  if (existsSync(PROMPTS)) {
    const rows = Papa.parse(readFileSync(PROMPTS, 'utf8'), { header: true, skipEmptyLines: true }).data;
    base = rows.map((r) => r.prompt).filter(Boolean);
    source = `${base.length.toLocaleString()} GenAI-Bench prompts (${PROMPTS})`;
  } else {
    const words =
      'a the red blue small old young cat dog horse child woman robot car train bridge river city street kitchen table lamp book tree cloud moon ocean boat tower garden painting standing sitting running holding reading near under beside'.split(
        ' ',
      );
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

/**
 * The ONNX model run directly: tokenizer (transformers.js, same files) → onnxruntime-node, fetching
 * the graph's pooled `token_sum` output as the app's embedders do (last_hidden_state for a model
 * without it) → mean over the attention mask → L2. Written out here, not imported, so the baseline
 * is plain onnxruntime with nothing of ours in between.
 */
async function nodeEmbedder() {
  const { AutoTokenizer, env } = await import('@huggingface/transformers');
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = join(ROOT, 'public/models/');
  const tokenizer = await AutoTokenizer.from_pretrained('glove-100d', { local_files_only: true });
  const ort = await importOrtNode();
  const session = await ort.InferenceSession.create(join(MODEL_DIR, 'onnx/model_quantized.onnx'));
  const pooled = session.outputNames.includes('token_sum');
  const dim = JSON.parse(readFileSync(join(MODEL_DIR, 'config.json'), 'utf8')).hidden_size;
  async function embed(texts) {
    const out = new Float32Array(texts.length * dim);
    for (let start = 0; start < texts.length; start += BATCH) {
      const chunk = texts.slice(start, start + BATCH);
      const enc = tokenizer(chunk, { padding: true, truncation: true });
      const [rows, seq] = enc.input_ids.dims;
      const ids = new ort.Tensor('int64', enc.input_ids.data, [rows, seq]);
      const result = pooled ? await session.run({ input_ids: ids }, ['token_sum']) : await session.run({ input_ids: ids });
      const mask = enc.attention_mask.data;
      const hd = pooled ? result.token_sum.data : result.last_hidden_state.data;
      for (let r = 0; r < rows; r++) {
        const o = (start + r) * dim;
        let count = 0;
        for (let t = 0; t < seq; t++) {
          if (mask[r * seq + t] === 0n || mask[r * seq + t] === 0) continue;
          count++;
          if (pooled) continue;
          const base = (r * seq + t) * dim;
          for (let d = 0; d < dim; d++) out[o + d] += hd[base + d];
        }
        if (pooled) for (let d = 0; d < dim; d++) out[o + d] = hd[r * dim + d];
        if (count > 1) for (let d = 0; d < dim; d++) out[o + d] /= count;
        let sq = 0;
        for (let d = 0; d < dim; d++) sq += out[o + d] * out[o + d];
        const inv = count > 0 && sq > 0 ? 1 / Math.sqrt(sq) : 0;
        for (let d = 0; d < dim; d++) out[o + d] *= inv;
      }
    }
    return { dim, data: out, pooled };
  }
  return { embed, pooled, ortVersion: ort.env?.versions?.node ?? ort.env?.versions?.common ?? '?' };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (n, ms) => n / (ms / 1000);

const { texts, source } = loadTexts();
console.log(
  `texts: ${texts.length.toLocaleString()} from ${source}; batch ${BATCH}; ${WARMUP} warm-up pass(es) on each side, then ${REPEATS} timed passes (median)`,
);
console.log('passes alternate: Node, worker, Node, worker… (one side idle while the other runs), so both sample the same machine state');

const node = await nodeEmbedder();
// Its own build folder, so another bench building `dist-bench` meanwhile cannot swap files under it.
const server = await serve(buildBench('dist-bench-embed'), PORT);
// The switch tags this browser's processes, so each pass's CPU time can be read from /proc (common.mjs).
const TAG = `--toolmem-embed-bench=${process.pid}`;
const browser = await launch([TAG]);
try {
  await runInBrowser();
} finally {
  await browser.close();
  server.kill();
}

async function nodePass() {
  const t0 = performance.now();
  const out = await node.embed(texts);
  return { ms: performance.now() - t0, out };
}

async function runInBrowser() {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${server.origin}/bench/embed.html`);
  await page.waitForFunction(() => 'embedSetup' in window);
  const setup = await page.evaluate(([t, bs]) => window.embedSetup(t, bs), [texts, BATCH]);
  /** A pass with the CPU seconds every Chromium process used meanwhile (the worker, and the browser process's IndexedDB backend). */
  const withCpu = async (pass) => {
    const c0 = browserCpuSeconds(TAG);
    const r = await pass();
    const c1 = browserCpuSeconds(TAG);
    return { ...r, cpuS: c0 === null || c1 === null ? null : c1 - c0 };
  };
  const workerPass = () => withCpu(() => page.evaluate(() => window.embedPass()));
  const missPass = () => withCpu(() => page.evaluate(() => window.embedMissPass()));

  const warm = { node: [], worker: [], miss: [] };
  for (let w = 0; w < WARMUP; w++) {
    warm.node.push((await nodePass()).ms);
    warm.worker.push((await workerPass()).ms);
    warm.miss.push((await missPass()).ms);
  }
  const timed = { node: [], worker: [], ratios: [], miss: [], missRatios: [], cpu: [], missCpu: [] };
  let nodeOut;
  let sample;
  for (let r = 0; r < REPEATS; r++) {
    const n = await nodePass();
    const w = await workerPass();
    nodeOut = n.out;
    sample = w.sample;
    timed.node.push(n.ms);
    timed.worker.push(w.ms);
    timed.ratios.push(n.ms / w.ms); // worker throughput / Node throughput for this pair
    const m = await missPass();
    if (m.misses !== texts.length) throw new Error(`miss pass: ${m.misses} misses, expected ${texts.length}`);
    timed.miss.push(m.ms);
    if (w.cpuS !== null && m.cpuS !== null) {
      timed.cpu.push(w.cpuS);
      timed.missCpu.push(m.cpuS);
    }
    timed.missRatios.push(w.ms / m.ms); // cached (all misses) throughput / model-only throughput
  }
  const hit = await page.evaluate(() => window.embedHitPass());
  await page.evaluate(() => window.embedTeardown());

  const nodeRate = rate(texts.length, median(timed.node));
  const workerRate = rate(texts.length, median(timed.worker));
  const missRate = rate(texts.length, median(timed.miss));
  const hitRate = rate(texts.length, hit.ms);
  let maxDiff = 0;
  sample.forEach((row, i) => row.forEach((x, d) => (maxDiff = Math.max(maxDiff, Math.abs(x - nodeOut.data[i * nodeOut.dim + d])))));
  const fmt = (xs) => xs.map((x) => x.toFixed(0)).join(' ');
  console.log('\nEmbedding throughput (glove-100d)');
  console.log(
    table([
      ['pipeline', 'sentences/s', 'seconds'],
      [
        `Node: onnxruntime-node ${node.ortVersion} direct (tokenizer + session.run${node.pooled ? ' → token_sum' : ''} + mean + L2)`,
        Math.round(nodeRate),
        (median(timed.node) / 1000).toFixed(2),
      ],
      [
        `Chromium worker: the app's embed worker, onnxruntime-web ${setup.info.backend.toUpperCase()}, ${setup.info.threads} thread(s), cache off`,
        Math.round(workerRate),
        (median(timed.worker) / 1000).toFixed(2),
      ],
      [
        'Chromium worker, through the IndexedDB cache, all misses (SHA-256 + lookup + model + writes)',
        Math.round(missRate),
        (median(timed.miss) / 1000).toFixed(2),
      ],
      [`Chromium worker, through the IndexedDB cache, all hits (${hit.modelCalls} model calls)`, Math.round(hitRate), (hit.ms / 1000).toFixed(2)],
    ]),
  );
  console.log(
    `model load in the worker: ${setup.info.model} ${setup.info.id}, ${(setup.loadMs / 1000).toFixed(2)} s (crossOriginIsolated: ${setup.crossOriginIsolated})`,
  );
  console.log(
    `ratio worker/Node throughput, model only: ${median(timed.ratios).toFixed(2)} (median of the ${REPEATS} alternating pairs; goal ≥ 0.90); per pair: ${timed.ratios.map((x) => x.toFixed(2)).join(' ')}`,
  );
  console.log(`ratio of the medians: ${(workerRate / nodeRate).toFixed(2)}; through the cache (misses) vs Node: ${(missRate / nodeRate).toFixed(2)}`);
  console.log(
    `ratio through the cache (all misses) / model only: ${median(timed.missRatios).toFixed(2)} (median of the ${REPEATS} alternating pairs; goal ≥ 0.70); per pair: ${timed.missRatios.map((x) => x.toFixed(2)).join(' ')}`,
  );
  console.log(
    `warm-up passes, ms (the first is cold): worker ${fmt(warm.worker)}; cache misses ${fmt(warm.miss)}; Node ${fmt(warm.node)}; cold ratio ${(warm.node[0] / warm.worker[0]).toFixed(2)}`,
  );
  console.log(`timed passes, ms: worker ${fmt(timed.worker)}; cache misses ${fmt(timed.miss)}; Node ${fmt(timed.node)}`);
  if (timed.cpu.length) {
    // CPU time moves less with other jobs on the machine than wall time; the browser process's IndexedDB work is in it.
    const cpuRatios = timed.cpu.map((c, i) => c / timed.missCpu[i]);
    console.log(
      `CPU seconds per pass, all Chromium processes (median): model only ${median(timed.cpu).toFixed(2)}, through the cache (all misses) ${median(timed.missCpu).toFixed(2)}; ` +
        `CPU ratio model only / cache: ${median(cpuRatios).toFixed(2)} (median of the pairs)`,
    );
  }
  console.log(`same vectors: max |browser − Node| over the first 8 texts = ${maxDiff.toExponential(2)}`);
  console.log(loadLine());

  if (process.env.BENCH_SKIP_RETRIEVAL === '1') return;
  const r = await page.evaluate((req) => window.retrievalBench(req), { n: ENTRIES, dim: 100, queries: QUERIES, k: K, seed: 11 });
  const oramaVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules/@orama/orama/package.json'), 'utf8')).version;
  console.log(`\nRetrieval: top-${K} per level, ${r.n.toLocaleString()} random ${r.dim}-d entries in 4 levels, one tool, ${r.queries} queries, in a worker`);
  console.log(
    table([
      ['index', 'build s', 'ms/query', 'exactness vs brute force'],
      [
        'ToolMem VectorIndex + topKPerLevel',
        (r.ours.buildMs / 1000).toFixed(2),
        r.ours.msPerQuery.toFixed(2),
        r.ours.exact ? 'identical' : `${r.ours.mismatches} level lists differ`,
      ],
      [
        `Orama ${oramaVersion} vector search (where level = …, similarity ≥ -1)`,
        (r.orama.buildMs / 1000).toFixed(2),
        r.orama.msPerQuery.toFixed(2),
        `recall ${(r.orama.recall * 100).toFixed(1)}%`,
      ],
      ['brute force (plain scan + full sort, the reference)', '—', r.bruteForceMsPerQuery.toFixed(2), '—'],
    ]),
  );
  console.log(
    `ours: ${r.ours.msPerQuery.toFixed(2)} ms/query (goal ≤ 20 ms); speed vs Orama: ${(r.orama.msPerQuery / r.ours.msPerQuery).toFixed(1)}× (goal ≥ 3×)`,
  );
}
