/**
 * Which experiences a build learns from: the ground-truth score of each (task, tool) per the
 * dataset's rater policy, restricted to the training tasks of a seeded split (the paper: 200
 * random training prompts), grouped by tool and ordered by task id so every run sees the same order.
 */
import { splitByTask, splitSizes } from '../eval/split';
import { compareIds, experienceKey } from '../ids';
import type { Experience, RaterPolicy } from '../types';

export interface SplitSpec {
  /** Number of training tasks; omitted = all tasks. */
  train?: number;
  seed?: number;
}

export interface TaskSplit {
  train: string[];
  test: string[];
}

const byTaskId = compareIds;

/**
 * The evaluation's split (src/core/eval/split.ts, same seed → same training tasks), so a memory
 * built with `--train N --seed S` never saw the test tasks of an evaluation with that seed.
 * Without `train` (or with train ≥ the number of tasks) every task is a training task.
 */
export function splitTasks(taskIds: Iterable<string>, spec: SplitSpec): TaskSplit {
  const ids = [...new Set(taskIds)].sort(byTaskId);
  if (spec.train === undefined || spec.train >= ids.length) return { train: ids, test: [] };
  const split = splitByTask(ids, splitSizes(ids.length, { train: spec.train }), spec.seed ?? 0);
  return { train: split.train.sort(byTaskId), test: split.test.sort(byTaskId) };
}

/** One experience per (task, tool): the chosen rater's, or the mean/median of all raters. */
export function groundTruthExperiences(experiences: readonly Experience[], policy: RaterPolicy): Experience[] {
  if (policy.kind === 'rater') return experiences.filter((e) => e.rater === policy.rater);
  const groups = new Map<string, Experience[]>();
  for (const e of experiences) {
    const key = `${e.taskId}\u0000${e.toolId}`;
    const list = groups.get(key);
    if (list) list.push(e);
    else groups.set(key, [e]);
  }
  return [...groups.values()].map((list) => {
    if (list.length === 1) return list[0]!;
    const scores = list.map((e) => e.score).sort((a, b) => a - b);
    const mid = scores.length >> 1;
    const score =
      policy.kind === 'mean' ? scores.reduce((s, x) => s + x, 0) / scores.length : scores.length % 2 ? scores[mid]! : (scores[mid - 1]! + scores[mid]!) / 2;
    const first = list[0]!;
    const feedback = list.find((e) => e.feedback)?.feedback;
    return {
      ...first,
      id: experienceKey(first.datasetId, first.taskId, first.toolId, policy.kind),
      rater: policy.kind,
      score,
      ...(feedback ? { feedback } : {}),
    };
  });
}

/** Training experiences per tool, ordered by task id. `tools` limits and orders the tools. */
export function trainingByTool(experiences: readonly Experience[], trainTasks: Iterable<string>, tools?: readonly string[]): Map<string, Experience[]> {
  const train = new Set(trainTasks);
  const out = new Map<string, Experience[]>();
  const order = tools ?? [...new Set(experiences.map((e) => e.toolId))].sort();
  for (const t of order) out.set(t, []);
  for (const e of experiences) if (train.has(e.taskId)) out.get(e.toolId)?.push(e);
  for (const list of out.values()) list.sort((a, b) => byTaskId(a.taskId, b.taskId) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out;
}
