/**
 * npx tsx bench/drivers/engine-time.ts [--runs N] [--rounds R] — section 4 of `npm run bench:quality`
 * alone: CPU time of a no-LLM capability build against the evidence clusters on the demo data
 * (GenAI-Bench 1,600 × 6 with skills, AlpacaEval 100 × 6, vectors given), `engineTimes` of
 * capability-bench.ts, median of N alternating runs, repeated R times (the machine is shared: one
 * round says little). Prints each round's ratio, the median ratio and the load. Output unchanged by
 * design: this only times.
 */
import type { TrainingExample } from '../../src/core/predict/types';
import type { ScoreScale } from '../../src/core/types';
import { engineTimes } from './capability-bench';
import { loadSet, trainingExamples } from './claims-bench';
import { loadLine } from './bench-env';

const DEMO = [{ data: 'public/demo/genai_image.json', skills: 'public/demo/genai_skills.json' }, { data: 'public/demo/alpaca_eval_100.csv' }];

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} takes a whole number ≥ 1, got "${String(process.argv[i + 1]).slice(0, 20)}"`);
  return v;
}

async function demoSet(data: string, skills?: string): Promise<{ examples: TrainingExample[]; scale: ScoreScale }> {
  const set = await loadSet(data, skills ? { skills } : {});
  return { examples: trainingExamples(set.data, set.vectors), scale: set.scale };
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
