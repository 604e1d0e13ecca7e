/**
 * The training set as a task × tool table, the shape every learned method starts from.
 *
 *   truth[j][t]   ground truth of tool j on task t (rater policy), NaN where the tool has no score
 *   target[j][t]  the regression target: the mean of every rater's score when the examples carry
 *                 several (less rater noise; training-side only) or else the ground truth
 *   mean[j], median[j]   of the ground truth;   sd[j] of the target (floored, so never 0)
 *   difficulty[t] how the task went for EVERY tool: the mean over the tools that scored it of
 *                 (target − tool's target mean) / tool's sd — shared difficulty, in sd units
 */
import { median } from './stats';
import type { ScoreScale } from '../types';
import type { PredictTask, TrainingExample, TrainingSet } from './types';

export interface TableOptions {
  /** Average all raters' scores for the targets (default true). */
  useAllRaters?: boolean;
}

export interface TrainingTable {
  scale: ScoreScale;
  tasks: PredictTask[];
  tools: string[];
  toolIndex: Map<string, number>;
  taskIndex: Map<string, number>;
  truth: Float64Array[];
  target: Float64Array[];
  /** Example id behind each (tool, task) cell, for evidence. */
  exampleId: string[][];
  mean: number[];
  median: number[];
  targetMean: number[];
  sd: number[];
  difficulty: Float64Array;
  /** Mean of every ground-truth score (the fallback for a tool never seen in training). */
  globalMean: number;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Id of a training example: its own id, else `taskId|toolId`. */
export function exampleKey(e: TrainingExample): string {
  return e.id ?? `${e.taskId}|${e.toolId}`;
}

export function buildTable(train: TrainingSet, opts: TableOptions = {}): TrainingTable {
  const useAll = opts.useAllRaters ?? true;
  const { scale } = train;
  const taskMap = new Map<string, PredictTask>();
  const toolSet = new Set<string>();
  for (const e of train.examples) {
    if (!taskMap.has(e.taskId)) {
      const task: PredictTask = { taskId: e.taskId, prompt: e.prompt };
      if (e.vector) task.vector = e.vector;
      if (e.categories) task.categories = e.categories;
      taskMap.set(e.taskId, task);
    }
    toolSet.add(e.toolId);
  }
  const tasks = [...taskMap.values()].sort((a, b) => cmp(a.taskId, b.taskId));
  const tools = [...toolSet].sort(cmp);
  const taskIndex = new Map(tasks.map((t, i) => [t.taskId, i]));
  const toolIndex = new Map(tools.map((t, j) => [t, j]));
  const n = tasks.length;
  const truth = tools.map(() => new Float64Array(n).fill(NaN));
  const target = tools.map(() => new Float64Array(n).fill(NaN));
  const exampleId = tools.map(() => new Array<string>(n).fill(''));
  for (const e of train.examples) {
    if (!Number.isFinite(e.score)) continue;
    const j = toolIndex.get(e.toolId)!;
    const t = taskIndex.get(e.taskId)!;
    truth[j]![t] = e.score;
    const valid = useAll && e.ratings ? e.ratings.filter((r) => Number.isFinite(r) && r >= scale.min && r <= scale.max) : [];
    target[j]![t] = valid.length > 0 ? valid.reduce((a, b) => a + b, 0) / valid.length : e.score;
    exampleId[j]![t] = exampleKey(e);
  }
  const present = (col: Float64Array) => [...col].filter((v) => !Number.isNaN(v));
  const avg = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN);
  const mean = truth.map((c) => avg(present(c)));
  const med = truth.map((c) => median(present(c)));
  const targetMean = target.map((c) => avg(present(c)));
  const floor = 1e-3 * (scale.max - scale.min);
  const sd = target.map((c, j) => {
    const v = present(c);
    const m = targetMean[j]!;
    const s = v.length > 1 ? Math.sqrt(v.reduce((a, x) => a + (x - m) ** 2, 0) / (v.length - 1)) : 0;
    return Math.max(s, floor);
  });
  const difficulty = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    let s = 0;
    let c = 0;
    for (let j = 0; j < tools.length; j++) {
      const v = target[j]![t]!;
      if (Number.isNaN(v)) continue;
      s += (v - targetMean[j]!) / sd[j]!;
      c++;
    }
    difficulty[t] = c > 0 ? s / c : 0;
  }
  const all = truth.flatMap((c) => present(c));
  return {
    scale,
    tasks,
    tools,
    toolIndex,
    taskIndex,
    truth,
    target,
    exampleId,
    mean,
    median: med,
    targetMean,
    sd,
    difficulty,
    globalMean: all.length ? avg(all) : (scale.min + scale.max) / 2,
  };
}

/** Key for caching per-task work across the tools of one task. */
export function taskKey(task: PredictTask): string {
  return `${task.taskId}\u0000${task.prompt}`;
}
