/**
 * One true score per (task, tool) from experiences that may hold several raters' scores, chosen by
 * the dataset's rater policy: one named rater, the mean, or the median of all raters.
 */
import { mean, median } from '../predict/stats';
import type { Experience, RaterPolicy } from '../types';

export interface ScoredPair {
  taskId: string;
  prompt: string;
  toolId: string;
  /** The ground truth under the rater policy. */
  score: number;
  /** Every rater's score for this (task, tool), ordered by rater name (training may use them all). */
  ratings: number[];
  categories: string[];
  /** The task's rubric, when the data has one (LLM prompts show it; no method trains on it). */
  rubric?: string;
}

export { mean, median };

/**
 * Groups experiences by (task, tool) and applies the policy. A pair whose policy rater did not
 * score it has no ground truth and is left out. Output order: task id, then tool id.
 */
export function groundTruth(experiences: Iterable<Experience>, policy: RaterPolicy): ScoredPair[] {
  const groups = new Map<string, { first: Experience; byRater: Map<string, number> }>();
  for (const e of experiences) {
    if (!Number.isFinite(e.score)) continue;
    const key = `${e.taskId}\u0000${e.toolId}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { first: e, byRater: new Map() }));
    g.byRater.set(e.rater, e.score);
  }
  const out: ScoredPair[] = [];
  for (const { first, byRater } of groups.values()) {
    const raters = [...byRater.keys()].sort();
    const ratings = raters.map((r) => byRater.get(r)!);
    let score: number | undefined;
    if (policy.kind === 'rater') score = byRater.get(policy.rater);
    else score = policy.kind === 'mean' ? mean(ratings) : median(ratings);
    if (score === undefined || !Number.isFinite(score)) continue;
    out.push({ taskId: first.taskId, prompt: first.prompt, toolId: first.toolId, score, ratings, categories: first.categories, ...(first.rubric ? { rubric: first.rubric } : {}) });
  }
  return out.sort((a, b) => cmp(a.taskId, b.taskId) || cmp(a.toolId, b.toolId));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
