import { describe, expect, it } from 'vitest';
import { storedMemorySplit } from '../../../src/core/eval/memory-split';
import { splitByTask } from '../../../src/core/eval/split';

const ids = Array.from({ length: 10 }, (_, i) => `t${i}`);

describe('storedMemorySplit (a stored memory: its own training tasks, test = the tasks it never saw)', () => {
  it('a memory built with train 4 / seed 3 gets exactly the seeded split of an ordinary evaluation', () => {
    const built = splitByTask(ids, { train: 4, test: 6 }, 3);
    const s = storedMemorySplit(ids, [...built.train].reverse(), { seed: 3 });
    expect(s).toEqual({ seed: 3, train: built.train, test: built.test });
    // A cap keeps the first N of the same order: the split of `--train 4 --test 2` with that seed.
    expect(storedMemorySplit(ids, built.train, { seed: 3, maxTest: 2 }).test).toEqual(splitByTask(ids, { train: 4, test: 2 }, 3).test);
  });

  it('keeps tasks the entries cite out of the test side, and tasks it learned from out entirely', () => {
    const s = storedMemorySplit(ids, ['t0', 't1'], { seed: 1, seen: ['t2', 't0'] });
    expect([...s.train].sort()).toEqual(['t0', 't1']);
    expect([...s.test].sort()).toEqual(['t3', 't4', 't5', 't6', 't7', 't8', 't9']);
  });

  it('ignores training tasks that are not in the data', () => {
    const s = storedMemorySplit(ids, ['t9', 'elsewhere'], { seed: 1 });
    expect(s.train).toEqual(['t9']);
    expect(s.test).toHaveLength(9);
  });
});
