/**
 * One true score per (task, tool) from experiences that may hold several raters' scores, chosen by
 * the dataset's rater policy: one named rater, the mean, or the median of all raters.
 */
import { mean, median } from '../predict/stats';
import type { TrainingExample } from '../predict/types';
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
 * A scored pair as a predictor's training example, with its prompt's vector where `vectors` has one
 * (the rubric stays out: no method trains on it). The one mapping the evaluation, the app's Predict
 * use case and the benches share.
 */
export function trainingExample(p: ScoredPair, vectors?: ReadonlyMap<string, Float32Array>): TrainingExample {
  const e: TrainingExample = { taskId: p.taskId, prompt: p.prompt, toolId: p.toolId, score: p.score, ratings: p.ratings, categories: p.categories };
  const v = vectors?.get(p.taskId);
  if (v) e.vector = v;
  return e;
}

/**
 * Groups experiences by (task, tool) and applies the policy. A pair whose policy rater did not
 * score it has no ground truth and is left out. Output order: task id, then tool id.
 */
export function groundTruth(experiences: Iterable<Experience>, policy: RaterPolicy): ScoredPair[] {
  const builder = new GroundTruthBuilder();
  for (const e of experiences) builder.add(e);
  return builder.finish(policy);
}

/** The fields of an experience the ground truth reads. */
export type GroundTruthFields = Pick<Experience, 'taskId' | 'prompt' | 'toolId' | 'score' | 'rater' | 'categories' | 'rubric'>;

/**
 * One (task, tool) while its rows come in: the first row's fields, and each rater's last score —
 * the first rater inline (most data has one rater per pair: no arrays for them), the others in `more`.
 */
interface Group {
  toolId: string;
  prompt: string;
  categories: string[];
  rubric: string | undefined;
  rater: string;
  score: number;
  more: { raters: string[]; scores: number[] } | null;
}

/**
 * `groundTruth` one experience at a time, for data read in pages (a million rows need not be held
 * at once: the evaluation of a large dataset keeps only this). Keeps per (task, tool) the first
 * row's fields and each rater's score, and one copy of each distinct id, prompt and category list:
 * rows read from IndexedDB each carry their own copy of the same strings, which would otherwise
 * all stay alive in the pairs. Pairs with one rating share one frozen `ratings` array per value.
 * `finish` gives exactly what `groundTruth` gives for the same rows in the same order.
 */
export class GroundTruthBuilder {
  /** Task id → its pairs so far (a task has a few tools: found by a scan, no key string per row). */
  private readonly tasks = new Map<string, Group[]>();
  private readonly strings = new Map<string, string>();
  private readonly lists = new Map<string, string[]>();
  private readonly single = new Map<number, number[]>();

  add(e: GroundTruthFields): void {
    if (!Number.isFinite(e.score)) return;
    let groups = this.tasks.get(e.taskId);
    if (!groups) this.tasks.set(this.intern(e.taskId), (groups = []));
    const g = groups.find((x) => x.toolId === e.toolId);
    if (!g) {
      const rubric = e.rubric ? this.intern(e.rubric) : undefined;
      groups.push({
        toolId: this.intern(e.toolId),
        prompt: this.intern(e.prompt),
        categories: this.list(e.categories),
        rubric,
        rater: this.intern(e.rater),
        score: e.score,
        more: null,
      });
      return;
    }
    // The same rater again: the later row wins.
    if (g.rater === e.rater) g.score = e.score;
    else {
      g.more ??= { raters: [], scores: [] };
      const at = g.more.raters.indexOf(e.rater);
      if (at >= 0) g.more.scores[at] = e.score;
      else {
        g.more.raters.push(this.intern(e.rater));
        g.more.scores.push(e.score);
      }
    }
  }

  /** The pairs under `policy`, ordered by task id, then tool id. The builder is empty afterwards. */
  finish(policy: RaterPolicy): ScoredPair[] {
    const out: ScoredPair[] = [];
    for (const [taskId, groups] of this.tasks) {
      for (const g of groups) {
        const ratings = this.ratingsOf(g);
        let score: number | undefined;
        if (policy.kind === 'rater') score = g.rater === policy.rater ? g.score : g.more?.scores[g.more.raters.indexOf(policy.rater)];
        else score = policy.kind === 'mean' ? mean(ratings) : median(ratings);
        if (score === undefined || !Number.isFinite(score)) continue;
        out.push({ taskId, prompt: g.prompt, toolId: g.toolId, score, ratings, categories: g.categories, ...(g.rubric ? { rubric: g.rubric } : {}) });
      }
      // Dropped as they are read, so the groups and the pairs are not all alive at once.
      this.tasks.delete(taskId);
    }
    return out.sort((a, b) => cmp(a.taskId, b.taskId) || cmp(a.toolId, b.toolId));
  }

  /** A group's scores, ordered by rater name. */
  private ratingsOf(g: Group): number[] {
    if (!g.more) {
      let shared = this.single.get(g.score);
      if (!shared) this.single.set(g.score, (shared = Object.freeze([g.score]) as number[]));
      return shared;
    }
    const raters = [g.rater, ...g.more.raters];
    const scores = [g.score, ...g.more.scores];
    return raters
      .map((_, i) => i)
      .sort((a, b) => cmp(raters[a]!, raters[b]!))
      .map((i) => scores[i]!);
  }

  private intern(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  /** One array per distinct list (pairs share it: nothing downstream changes a pair's categories). */
  private list(items: string[]): string[] {
    const key = items.join('\u0000');
    const known = this.lists.get(key);
    if (known) return known;
    const copy = items.map((x) => this.intern(x));
    this.lists.set(key, copy);
    return copy;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
