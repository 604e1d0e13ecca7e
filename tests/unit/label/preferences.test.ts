import { describe, expect, it } from 'vitest';
import { preferenceTruth } from '../../../src/core/label/preferences';
import { pairMetrics } from '../../../src/core/eval/metrics';
import type { Preference } from '../../../src/core/types';

const pref = (taskId: string, winner: Preference['winner'], rater = 'r'): Preference => ({
  id: `d|${taskId}|X|Y|${rater}`,
  datasetId: 'd',
  taskId,
  toolA: 'X',
  toolB: 'Y',
  winner,
  rater,
  shownLeft: 'X',
  createdAt: 0,
});

describe('preferences as pair ground truth', () => {
  const prefs = [pref('1', 'A'), pref('2', 'B'), pref('3', 'tie'), pref('4', 'A', 'r1'), pref('4', 'B', 'r2'), pref('4', 'B', 'r3')];

  it('takes the majority per task, in either tool order', () => {
    expect(preferenceTruth(prefs, 'X', 'Y')).toEqual([
      { taskId: '1', trueA: 1, trueB: 0, votes: 1 },
      { taskId: '2', trueA: 0, trueB: 1, votes: 1 },
      { taskId: '3', trueA: 0.5, trueB: 0.5, votes: 1 },
      { taskId: '4', trueA: 0, trueB: 1, votes: 3 },
    ]);
    expect(preferenceTruth(prefs, 'Y', 'X')[0]).toEqual({ taskId: '1', trueA: 0, trueB: 1, votes: 1 });
  });

  it('feeds the pair metrics (ties in the truth are left out, as for scores)', () => {
    const pred = new Map([
      ['1', [4, 3]],
      ['2', [2, 3]],
      ['3', [3, 3]],
      ['4', [5, 1]],
    ]);
    const obs = preferenceTruth(prefs, 'X', 'Y').map((t) => ({
      trueA: t.trueA,
      trueB: t.trueB,
      predA: pred.get(t.taskId)![0]!,
      predB: pred.get(t.taskId)![1]!,
    }));
    const m = pairMetrics(obs);
    // D = tasks 1, 2, 4; right on 1 (A>B) and 2 (A<B), wrong on 4 → accuracy 2/3.
    expect(m.nUnequal).toBe(3);
    expect(m.acc).toBeCloseTo(2 / 3, 12);
  });
});
