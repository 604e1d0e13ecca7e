/**
 * Embedding throughput in Node: `node --import tsx scripts/build-model/bench-embed.ts <prompts.csv>`
 * (GenAI-Bench prompts.csv, column `prompt`). GenAI-Bench has 1,600 prompts; the list is cycled to
 * `--count` (default 2,000) texts. No cache is involved: every text goes through the model.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Papa from 'papaparse';
import { createTransformersEmbedder } from '../../src/model-host/transformers-embedder.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    count: { type: 'string', default: '2000' },
    batch: { type: 'string', default: '16,32,64,128' },
    repeats: { type: 'string', default: '3' },
  },
});
const file = positionals[0];
if (!file) throw new Error('usage: bench-embed.ts <prompts.csv> [--count N] [--batch 32,64] [--repeats 3]');
const rows = Papa.parse<{ prompt: string }>(readFileSync(file, 'utf8'), { header: true, skipEmptyLines: true }).data;
const prompts = rows.map((r) => r.prompt).filter((p) => p);
const count = Number(args.count);
const texts = Array.from({ length: count }, (_, i) => prompts[i % prompts.length]!);

const t0 = performance.now();
const warm = createTransformersEmbedder();
await warm.load();
console.log(`model ${warm.id}: loaded in ${(performance.now() - t0).toFixed(0)} ms; ${texts.length} texts`);
for (const batchSize of args.batch.split(',').map(Number)) {
  const embedder = createTransformersEmbedder({ batchSize });
  await embedder.embed(texts.slice(0, 64)); // warm-up
  const times: number[] = [];
  for (let r = 0; r < Number(args.repeats); r++) {
    const start = performance.now();
    await embedder.embed(texts);
    times.push(performance.now() - start);
  }
  const best = Math.min(...times);
  const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  console.log(`batch ${batchSize}: median ${(texts.length / (median / 1000)).toFixed(0)} sentences/s (best ${(texts.length / (best / 1000)).toFixed(0)})`);
}
