/**
 * Pairwise preferences as ground truth for the pair metrics: per task, the majority of the raters'
 * choices between tool A and tool B becomes a true ordering (1 vs 0, or 0.5 each for a tie), so
 * `pairMetrics` can score a predictor against hand judgements exactly as against numeric scores.
 */
import type { Preference } from '../types';

export interface PreferenceTruth {
  taskId: string;
  /** 1 when A won the majority, 0 when B did, 0.5 each on a tie or an even split. */
  trueA: number;
  trueB: number;
  votes: number;
}

export function preferenceTruth(prefs: readonly Preference[], toolA: string, toolB: string): PreferenceTruth[] {
  const flip = toolA > toolB; // preferences store the pair in id order
  const [lo, hi] = flip ? [toolB, toolA] : [toolA, toolB];
  const byTask = new Map<string, number[]>();
  for (const p of prefs) {
    if (p.toolA !== lo || p.toolB !== hi) continue;
    const v = p.winner === 'A' ? 1 : p.winner === 'B' ? -1 : 0;
    (byTask.get(p.taskId) ?? byTask.set(p.taskId, []).get(p.taskId)!).push(flip ? -v : v);
  }
  return [...byTask].map(([taskId, votes]) => {
    const sum = votes.reduce((s, v) => s + v, 0);
    const trueA = sum > 0 ? 1 : sum < 0 ? 0 : 0.5;
    return { taskId, trueA, trueB: 1 - trueA, votes: votes.length };
  });
}
