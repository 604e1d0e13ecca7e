import { describe, expect, it } from 'vitest';
import { findStaleEntries, summariseTestCases, toggleCase, type DriftEntry, type DriftExperience } from '../../../src/core/memory';

const scale = { min: 1, max: 5, direction: 'higher-better' as const };
const x = (id: string, taskId: string, score: number, at: number, toolId = 'A'): DriftExperience => ({ id, toolId, taskId, score, at });
// Tool A: four old scores (t1 5, t2 5, t3 1, t4 1) and two new ones on t1 and t2 (1 and 2).
// Tool mean = (5 + 5 + 1 + 1 + 1 + 2) / 6 = 2.5; threshold 0.2 · (5 − 1) = 0.8.
const data = [x('o1', 't1', 5, 0), x('o2', 't2', 5, 0), x('o3', 't3', 1, 0), x('o4', 't4', 1, 0), x('n1', 't1', 1, 10), x('n2', 't2', 2, 10)];
const entry = (id: string, level: DriftEntry['level'], evidenceTasks: string[], validFrom = 5): DriftEntry => ({
  id,
  toolId: 'A',
  level,
  value: { proficient: 2, good: 1, bad: -1, weak: -2 }[level],
  evidenceTasks,
  validFrom,
});

describe('findStaleEntries (hand-computed)', () => {
  it('flags a good entry whose newer evidence scores fall below the tool mean by the threshold', () => {
    const flags = findStaleEntries([entry('g', 'good', ['t1', 't2']), entry('w', 'weak', ['t3', 't4'])], data, { scale });
    // n1: 1 − 2.5 = −1.5 ≤ −0.8 contradicts; n2: 2 − 2.5 = −0.5 does not → 1 of 2 = 0.5 ≥ minShare 0.5.
    expect(flags).toEqual([{ entryId: 'g', toolId: 'A', compared: 2, contradicting: ['n1'], share: 0.5, toolMean: 2.5, comparedMean: 1.5 }]);
  });

  it('a share below minShare is not drift', () => {
    expect(findStaleEntries([entry('g', 'good', ['t1', 't2'])], data, { scale, minShare: 0.75 })).toEqual([]);
  });

  it('low new scores agree with a bad entry; only experiences after the entry are compared', () => {
    expect(findStaleEntries([entry('b', 'bad', ['t1'])], data, { scale })).toEqual([]);
    expect(findStaleEntries([entry('g', 'good', ['t1', 't2'], 10)], data, { scale })).toEqual([]);
  });

  it('on a lower-better scale low scores are good: the bad entry is contradicted instead', () => {
    const lower = { ...scale, direction: 'lower-better' as const };
    expect(findStaleEntries([entry('g', 'good', ['t1', 't2'])], data, { scale: lower })).toEqual([]);
    const [flag] = findStaleEntries([entry('b', 'bad', ['t1'])], data, { scale: lower });
    // −(1 − 2.5) = +1.5 ≥ 0.8: contradicts "bad".
    expect(flag).toMatchObject({ entryId: 'b', compared: 1, contradicting: ['n1'], share: 1 });
  });

  it('a weak entry is contradicted by newer high scores; other tools do not count', () => {
    const more = [...data, x('n3', 't3', 5, 10), x('z', 't3', 1, 10, 'B')];
    // Mean of A = (15 + 5) / 7 = 2.857…; n3: 5 − 2.857 = 2.14 ≥ 0.8.
    const [flag] = findStaleEntries([entry('w', 'weak', ['t3', 't4'])], more, { scale });
    expect(flag).toMatchObject({ entryId: 'w', compared: 1, contradicting: ['n3'], share: 1 });
    expect(flag!.toolMean).toBeCloseTo(20 / 7, 10);
  });

  it('threshold is a fraction of the range: 0.4 (1.6 points) no longer counts −1.5', () => {
    expect(findStaleEntries([entry('g', 'good', ['t1', 't2'])], data, { scale, threshold: 0.4 })).toEqual([]);
  });
});

describe('test cases', () => {
  const row = (taskId: string, actual: number | null, predicted: number | null) => ({ datasetId: 'd', taskId, prompt: taskId, actual, predicted });

  it('a case passes within the tolerance; a miss fails the run; cases without a score are not run', () => {
    const { state, metrics } = summariseTestCases([row('a', 4, 3.5), row('b', 2, 3.5), row('c', null, null)], 1);
    expect(state).toBe('failed');
    expect(metrics).toMatchObject({ n: 3, evaluated: 2, passed: 1, failed: 1, notRun: 1, mae: 1, tolerance: 1 });
    expect(metrics.rmse).toBeCloseTo(Math.sqrt(1.25), 12); // (0.5² + 1.5²) / 2
    expect(metrics.cases.map((c) => c.pass)).toEqual([true, false, null]);
  });

  it('all within tolerance → completed; nothing scored → not-run', () => {
    expect(summariseTestCases([row('a', 4, 3.5), row('b', 2, 3)], 1).state).toBe('completed');
    expect(summariseTestCases([row('a', null, null)], 1)).toMatchObject({ state: 'not-run', metrics: { mae: null, evaluated: 0 } });
  });

  it('pinning toggles a case in and out of the set', () => {
    const one = toggleCase([], { datasetId: 'd', taskId: 't1' });
    expect(one).toEqual([{ datasetId: 'd', taskId: 't1' }]);
    expect(toggleCase(one, { datasetId: 'd', taskId: 't2' })).toHaveLength(2);
    expect(toggleCase(one, { datasetId: 'd', taskId: 't1' })).toEqual([]);
  });
});
