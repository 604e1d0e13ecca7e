/**
 * The split for evaluating a STORED memory (one a build or an import left in the app) rather than
 * one induced per seed: the memory's own training tasks, and as test tasks the dataset's other
 * tasks — minus any task its entries cite as evidence, so no tested task was ever seen by it.
 *
 * Order: the same seeded shuffle as `splitByTask` (the shuffle does not depend on the sizes). A
 * memory built with `train T, seed S` on the same tasks therefore gets exactly the split of an
 * ordinary evaluation with `train T` and seed S, and a test cap N keeps the same N test tasks.
 */
import { splitByTask, type TaskSplit } from './split';

export interface StoredSplitOptions {
  /** Split seed: the build's; imported memories have none, and take 1. */
  seed: number;
  /** Tasks the memory's entries cite as evidence (kept out of the test side). */
  seen?: Iterable<string>;
  /** At most this many test tasks (the first of the shuffled order). */
  maxTest?: number;
}

export function storedMemorySplit(taskIds: Iterable<string>, trainTasks: Iterable<string>, opts: StoredSplitOptions): TaskSplit {
  const ids = [...new Set(taskIds)];
  const order = splitByTask(ids, { train: 0, test: ids.length }, opts.seed).test;
  const train = new Set(trainTasks);
  const seen = new Set(opts.seen ?? []);
  const test = order.filter((id) => !train.has(id) && !seen.has(id));
  return { seed: opts.seed, train: order.filter((id) => train.has(id)), test: opts.maxTest === undefined ? test : test.slice(0, opts.maxTest) };
}
