import { describe, expect, it } from 'vitest';
import { computeEffects, scoreTableFromSet, tQuantile975, type ScoreTable } from '../../../src/core/capability/effects';
import type { DiscoveredFacet } from '../../../src/core/capability/types';
import type { ScoreScale } from '../../../src/core/types';

const HB: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: false };
const facet = (name: string, taskIds: string[]): DiscoveredFacet => ({ facet: { kind: 'category', name, rule: { type: 'category', value: name } }, taskIds });
const TASKS = ['t1', 't2', 't3', 't4', 't5', 't6'];
// A = 5 4 5 | 2 3 1,  B = 3 3 4 | 3 4 2; facet F = t1..t3.
const table = (scale = HB, b: number[] = [3, 3, 4, 3, 4, 2]): ScoreTable => ({
  taskIds: TASKS,
  toolIds: ['A', 'B'],
  scores: [Float64Array.from([5, 4, 5, 2, 3, 1]), Float64Array.from(b)],
  scale,
});
const F = facet('F', ['t1', 't2', 't3']);

describe('tQuantile975', () => {
  it('matches Student t tables', () => {
    expect(tQuantile975(1)).toBeCloseTo(12.7062, 3);
    expect(tQuantile975(10)).toBeCloseTo(2.228139, 5);
    expect(tQuantile975(1e6)).toBeCloseTo(1.96, 3);
  });
});

describe('computeEffects', () => {
  it('deltaOwn, deltaVsOthers (paired), Welch interval, rank (hand-computed)', () => {
    const { effects, shared } = computeEffects(table(), [F]);
    const a = effects.find((e) => e.toolId === 'A')!.effect;
    const b = effects.find((e) => e.toolId === 'B')!.effect;
    // A: facet mean 14/3, overall 20/6 → +4/3. Advantage a_t = A − B = 2 1 1 −1 −1 −1: facet 4/3, all 1/6 → 7/6.
    expect(a.deltaOwn).toBeCloseTo(4 / 3, 12);
    expect(a.deltaVsOthers).toBeCloseTo(7 / 6, 12);
    expect(b.deltaOwn).toBeCloseTo(1 / 6, 12);
    expect(b.deltaVsOthers).toBeCloseTo(-7 / 6, 12);
    expect(a.mean).toBeCloseTo(14 / 3, 12);
    expect(a.toolMean).toBeCloseTo(20 / 6, 12);
    expect([a.rank, a.of, b.rank]).toEqual([1, 2, 2]);
    expect([a.n, a.nOwn]).toEqual([3, 3]);
    // Own: in 5 4 5 (var 1/3), out 2 3 1 (var 1): Welch se 2/3, t = 4, df = 3.2; delta's se = (3/6)·(2/3) = 1/3.
    const half = tQuantile975(3.2) / 3;
    expect(a.ci95Own![0]).toBeCloseTo(4 / 3 - half, 9);
    expect(a.ci95Own![1]).toBeCloseTo(4 / 3 + half, 9);
    // Two tools: A's and B's advantages are mirror images, so p and q agree (m = 2, equal p).
    expect(a.p).toBeCloseTo(b.p!, 12);
    expect(a.q).toBeCloseTo(a.p!, 12);
    // Shared: mean over tools of (score − tool mean): 0.75 0.25 1.25 | −0.75 0.25 −1.75 → facet 0.75, overall 0.
    expect(shared[0]!.delta).toBeCloseTo(0.75, 12);
  });

  it('pairs by task: a task without another tool is left out of deltaVsOthers', () => {
    const { effects } = computeEffects(table(HB, [NaN, 3, 4, 3, 4, 2]), [F]);
    const a = effects.find((e) => e.toolId === 'A')!.effect;
    // paired a_t over t2..t6 = 1 1 −1 −1 −1: facet 1, all −0.2 → 1.2; own still over 6 tasks.
    expect(a.deltaVsOthers).toBeCloseTo(1.2, 12);
    expect(a.n).toBe(2);
    expect(a.nOwn).toBe(3);
    expect(a.deltaOwn).toBeCloseTo(4 / 3, 12);
  });

  it('orients deltas on lower-better scales (positive = better) but keeps means in scale units', () => {
    const { effects } = computeEffects(table({ ...HB, direction: 'lower-better' }), [F]);
    const a = effects.find((e) => e.toolId === 'A')!.effect;
    expect(a.deltaOwn).toBeCloseTo(-4 / 3, 12);
    expect(a.deltaVsOthers).toBeCloseTo(-7 / 6, 12);
    expect(a.mean).toBeCloseTo(14 / 3, 12);
    expect(a.rank).toBe(2);
    expect(a.ci95Own![1]).toBeLessThan(0);
  });

  it('a facet of one task is untested: q = 1, left out of the BH family, one tool has no contrast', () => {
    const { effects } = computeEffects(table(), [F, facet('tiny', ['t4'])]);
    const tiny = effects.filter((e) => e.facet === 1);
    expect(tiny.every((e) => !e.tested && e.effect.q === 1)).toBe(true);
    const tested = effects.filter((e) => e.facet === 0)[0]!.effect;
    expect(tested.q).toBeCloseTo(tested.p!, 12); // m stays 2
    const solo = computeEffects({ ...table(), toolIds: ['A'], scores: [table().scores[0]!] }, [F]).effects[0]!.effect;
    expect(solo.deltaVsOthers).toBeNull();
    expect(solo.ci95).toEqual(solo.ci95Own);
  });

  it('builds a table from a training set (ids sorted, missing = NaN)', () => {
    const t = scoreTableFromSet({
      scale: HB,
      examples: [
        { taskId: 'b', prompt: '', toolId: 'Y', score: 2 },
        { taskId: 'a', prompt: '', toolId: 'X', score: 4 },
      ],
    });
    expect(t.taskIds).toEqual(['a', 'b']);
    expect(t.toolIds).toEqual(['X', 'Y']);
    expect(Array.from(t.scores[0]!)).toEqual([4, NaN]);
  });
});
