/**
 * Honest ranges for single predictions: out-of-fold residuals of the same method on the training
 * tasks, and the range a new prediction gets from them.
 *
 *  - Residual bank: up to `maxTasks` training tasks (a seeded sample) are split into K folds; each
 *    fold is predicted by a fresh predictor fitted on the OTHER tasks (at most `maxTrain` of them,
 *    a seeded sample, so a slow method stays affordable), and `true − predicted` is kept per
 *    (task, tool). A residual therefore never comes from a model that saw its task. Fold models
 *    that saw fewer tasks than the final model err a little more: ranges lean wide, not narrow.
 *  - Range of a prediction: prediction + the (1 − level)/2 and (1 + level)/2 quantiles of the
 *    tool's residuals on the `k` calibration tasks most similar to the new task (TF-IDF cosine ≥
 *    `minSimilarity`), or of all its residuals when fewer than `minSimilar` are that similar;
 *    clamped to the scale. It says which and how many.
 */
import { percentile } from '../eval/bootstrap';
import { createRng, shuffled } from '../eval/rng';
import type { ScoreScale } from '../types';
import { TaskSimilarity } from './similarity';
import { clampToScale, type AnyPredictor, type PredictTask, type TrainingExample, type TrainingSet } from './types';

export interface ResidualBankOptions {
  /** Folds (default 5; fewer when there are fewer tasks). */
  folds?: number;
  /** Training tasks a fold model is fitted on at most (default 400). */
  maxTrain?: number;
  /** Calibration tasks at most (default 1,000). */
  maxTasks?: number;
  seed?: number;
  signal?: AbortSignal;
}

export interface ResidualBank {
  /** Calibration tasks (each predicted by a model that did not see it). */
  tasks: PredictTask[];
  tools: string[];
  /** Task × tool, true − predicted; NaN where the tool has no true score on the task. */
  residuals: Float64Array;
  folds: number;
  /** Training tasks each fold model saw at most. */
  maxTrain: number;
  /** Training tasks in all (`tasks` is a seeded sample of at most `maxTasks` of them). */
  allTasks: number;
  similarity: TaskSimilarity;
}

export interface ScoreRange {
  lo: number;
  hi: number;
  /** Share of outcomes the range is meant to hold (e.g. 0.8). */
  level: number;
  /** Residuals of the most similar training tasks, or of all of them (too few similar ones). */
  source: 'similar' | 'overall';
  /** Residuals the range was read from. */
  n: number;
}

export interface RangeOptions {
  level?: number;
  k?: number;
  minSimilar?: number;
  minSimilarity?: number;
}

export const RANGE_DEFAULTS = { level: 0.8, k: 50, minSimilar: 20, minSimilarity: 0.05 } as const;

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** Out-of-fold residuals of `create()`'s method on the training set; null with fewer than 2 tasks. */
export async function residualBank(create: () => AnyPredictor, train: TrainingSet, opts: ResidualBankOptions = {}): Promise<ResidualBank | null> {
  const byTask = new Map<string, TrainingExample[]>();
  for (const e of train.examples) {
    let list = byTask.get(e.taskId);
    if (!list) byTask.set(e.taskId, (list = []));
    list.push(e);
  }
  const rng = createRng(opts.seed ?? 1);
  const all = shuffled([...byTask.keys()].sort(), rng);
  if (all.length < 2) return null;
  const calib = all.slice(0, opts.maxTasks ?? 1000);
  const K = Math.max(2, Math.min(opts.folds ?? 5, calib.length));
  const maxTrain = opts.maxTrain ?? 400;
  const tools = [...new Set(train.examples.map((e) => e.toolId))].sort();
  const col = new Map(tools.map((t, j) => [t, j]));
  const T = tools.length;
  const residuals = new Float64Array(calib.length * T).fill(NaN);
  const row = new Map(calib.map((id, i) => [id, i]));
  const taskOf = (id: string): PredictTask => {
    const e = byTask.get(id)![0]!;
    return { taskId: id, prompt: e.prompt, ...(e.vector ? { vector: e.vector } : {}), ...(e.categories ? { categories: e.categories } : {}) };
  };
  for (let f = 0; f < K; f++) {
    throwIfAborted(opts.signal);
    const held = new Set(calib.filter((_, i) => i % K === f));
    const others = shuffled(
      all.filter((id) => !held.has(id)),
      rng,
    ).slice(0, maxTrain);
    const predictor = create();
    await predictor.fit({ scale: train.scale, examples: others.flatMap((id) => byTask.get(id)!) }, { signal: opts.signal });
    for (const id of held) {
      const task = taskOf(id);
      for (const e of byTask.get(id)!) {
        const p = await predictor.predict(task, e.toolId, { signal: opts.signal });
        residuals[row.get(id)! * T + col.get(e.toolId)!] = e.score - p.score;
      }
    }
  }
  const tasks = calib.map(taskOf);
  const similarity = new TaskSimilarity({ kind: 'tfidf' });
  similarity.fit(tasks);
  return { tasks, tools, residuals, folds: K, maxTrain, allTasks: all.length, similarity };
}

/**
 * The calibration tasks (bank rows) whose residuals speak for a new task: the `k` most similar of
 * `rows` (similarity ≥ `minSimilarity`, most similar first), or all of `rows` when fewer than
 * `minSimilar` are that similar. The one rule for ranges (scoreRange) and the pick's share (pick-share.ts).
 */
export function calibrationRows(rows: readonly number[], sims: Float64Array, opts: RangeOptions = {}): { rows: number[]; source: 'similar' | 'overall' } {
  const { k, minSimilar, minSimilarity } = { ...RANGE_DEFAULTS, ...opts };
  const similar = rows
    .filter((i) => sims[i]! >= minSimilarity)
    .sort((a, b) => sims[b]! - sims[a]! || a - b)
    .slice(0, k);
  return similar.length >= minSimilar ? { rows: similar, source: 'similar' } : { rows: [...rows], source: 'overall' };
}

/** Bank rows where tool column `j` has a residual. */
export function rowsWithResidual(bank: ResidualBank, j: number): number[] {
  const T = bank.tools.length;
  const own: number[] = [];
  for (let i = 0; i < bank.tasks.length; i++) if (Number.isFinite(bank.residuals[i * T + j]!)) own.push(i);
  return own;
}

/** The range of `predicted` for `toolId` on `query`; null when the bank has no residual of the tool. */
export function scoreRange(
  bank: ResidualBank,
  sims: Float64Array,
  toolId: string,
  predicted: number,
  scale: ScoreScale,
  opts: RangeOptions = {},
): ScoreRange | null {
  const level = opts.level ?? RANGE_DEFAULTS.level;
  const j = bank.tools.indexOf(toolId);
  if (j < 0) return null;
  const T = bank.tools.length;
  const own = rowsWithResidual(bank, j);
  if (own.length === 0) return null;
  const { rows, source } = calibrationRows(own, sims, opts);
  const values = rows.map((i) => bank.residuals[i * T + j]!).sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return {
    lo: clampToScale(predicted + percentile(values, tail), scale).score,
    hi: clampToScale(predicted + percentile(values, 1 - tail), scale).score,
    level,
    source,
    n: values.length,
  };
}

/** Similarity of a new task to each calibration task (compute once per task, for every tool). */
export function bankSimilarities(bank: ResidualBank, query: PredictTask): Float64Array {
  return bank.similarity.scores(query);
}
