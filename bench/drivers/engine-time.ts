/**
 * npx tsx bench/drivers/engine-time.ts [--runs N] [--rounds R] — section 4 of `npm run bench:quality`
 * alone: CPU time of a no-LLM capability build against the evidence clusters on the demo data
 * (GenAI-Bench 1,600 × 6 with skills, AlpacaEval 100 × 6, vectors given), `engineTimes` of
 * capability-bench.ts, median of N alternating runs, repeated R times (the machine is shared: one
 * round says little). Prints each round's ratio, the median ratio and the load. Output unchanged by
 * design: this only times.
 */
import { loadData } from '../../src/cli/load-data';
import { groundTruth } from '../../src/core/eval';
import type { TrainingExample } from '../../src/core/predict/types';
import type { ScoreScale } from '../../src/core/types';
import { createTransformersEmbedder } from '../../src/model-host/transformers-embedder';
import { engineTimes } from './capability-bench';
import { loadLine } from './bench-env';

const DEMO = [{ data: 'public/demo/genai_image.json', skills: 'public/demo/genai_skills.json' }, { data: 'public/demo/alpaca_eval_100.csv' }];

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} takes a whole number ≥ 1, got "${String(process.argv[i + 1]).slice(0, 20)}"`);
  return v;
}

async function demoSet(data: string, skills?: string): Promise<{ examples: TrainingExample[]; scale: ScoreScale }> {
  const { dataset, experiences } = await loadData({ data, ...(skills ? { skills } : {}) });
  const rows = groundTruth(experiences, dataset.raterPolicy);
  const prompts = new Map<string, string>();
  for (const p of rows) if (!prompts.has(p.taskId)) prompts.set(p.taskId, p.prompt);
  const ids = [...prompts.keys()];
  const batch = await createTransformersEmbedder().embed(ids.map((id) => prompts.get(id)!));
  const vectors = new Map(ids.map((id, i) => [id, batch.data.slice(i * batch.dim, (i + 1) * batch.dim)]));
  const examples = rows.map((p) => ({
    taskId: p.taskId,
    prompt: p.prompt,
    toolId: p.toolId,
    score: p.score,
    ratings: p.ratings,
    categories: p.categories,
    vector: vectors.get(p.taskId)!,
  }));
  return { examples, scale: dataset.scale };
}

const runs = arg('--runs', 5);
const rounds = arg('--rounds', 3);
const sets = [];
for (const d of DEMO) sets.push(await demoSet(d.data, d.skills));
const ratios: number[] = [];
for (let r = 0; r < rounds; r++) {
  const t = engineTimes(sets, runs);
  ratios.push(t.capability / t.clusters);
  console.log(`round ${r + 1}: evidence clusters ${t.clusters.toFixed(0)} ms, capability build ${t.capability.toFixed(0)} ms — ${ratios.at(-1)!.toFixed(2)}×`);
}
const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
console.log(`median ratio ${median.toFixed(2)}× (goal ≤ 2×: ${median <= 2 ? 'met' : 'missed'}); CPU time, median of ${runs} runs per round; ${loadLine()}`);
