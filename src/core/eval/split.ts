/**
 * Seeded train/test splits BY TASK: every tool's score on a task lands on the same side, so no
 * test task was seen in training under another tool's name.
 */
import { presetOf } from '../import/presets';
import { createRng, shuffled } from './rng';

export interface SplitSizes {
  train: number;
  test: number;
}

export interface TaskSplit {
  seed: number;
  train: string[];
  test: string[];
}

/**
 * Sizes for `taskCount` tasks: explicit sizes win; else the preset's protocol split when the data
 * has more tasks than its training part (the preset table's `split`, import/presets); else half / half (the odd task goes to test). A missing
 * size takes the rest.
 */
export function splitSizes(taskCount: number, opts: { preset?: string; train?: number; test?: number } = {}): SplitSizes {
  const preset = presetOf(opts.preset)?.split;
  let train = opts.train;
  let test = opts.test;
  // The protocol split when the data allows at least its training part (BiGGen has 695 usable
  // instances where the paper counts 696: the test side then takes the rest).
  if (train === undefined && test === undefined && preset && preset.train < taskCount) {
    return { train: preset.train, test: Math.min(preset.test, taskCount - preset.train) };
  }
  if (train === undefined && test === undefined) {
    train = Math.floor(taskCount / 2);
    test = taskCount - train;
  }
  train ??= taskCount - test!;
  test ??= taskCount - train;
  if (!Number.isInteger(train) || !Number.isInteger(test) || train < 1 || test < 1 || train + test > taskCount) {
    throw new RangeError(`cannot split ${taskCount} tasks into ${train} train + ${test} test`);
  }
  return { train, test };
}

/**
 * Shuffles the distinct task ids (sorted first, so input order does not matter) with the seed and
 * takes the first `train` as training tasks and the next `test` as test tasks.
 */
export function splitByTask(taskIds: Iterable<string>, sizes: SplitSizes, seed: number): TaskSplit {
  const ids = [...new Set(taskIds)].sort();
  if (sizes.train + sizes.test > ids.length) throw new RangeError(`cannot split ${ids.length} tasks into ${sizes.train} + ${sizes.test}`);
  const order = shuffled(ids, createRng(seed));
  return { seed, train: order.slice(0, sizes.train), test: order.slice(sizes.train, sizes.train + sizes.test) };
}
