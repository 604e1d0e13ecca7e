import { describe, expect, it } from 'vitest';
import { HAND_PLANE_POINTS } from '../helpers/cost-plane-case';
import { costQualityPlane, markFrontier, pairedDifference, type PlanePoint } from '../../../src/core/eval/cost-plane';

// Two tools, A ($1) and B ($3), two tasks. True scores: t1 A 2, B 4; t2 A 3, B 3.
// The method predicts t1 right and t2 wrong (A 3.5 over B 3).
const truth = { t1: { A: 2, B: 4 }, t2: { A: 3, B: 3 } } as const;
const pts = (pred: Record<string, Record<string, number>>) =>
  Object.entries(pred).flatMap(([taskId, byTool]) =>
    Object.entries(byTool).map(([toolId, predicted]) => ({ taskId, toolId, predicted, actual: truth[taskId as 't1'][toolId as 'A'] })),
  );
const costs = new Map([
  ['A', 1],
  ['B', 3],
]);

describe('costQualityPlane', () => {
  it('always, method at each λ, random and oracle on a hand-computed case, with the frontier', () => {
    const plane = costQualityPlane({ points: { m: pts({ t1: { A: 2, B: 4 }, t2: { A: 3.5, B: 3 } }) }, costs, scaleSpan: 4, fractions: [0, 1] });
    expect(plane?.tasks).toBe(2);
    expect(plane?.tools).toEqual(['A', 'B']);
    // λ at fraction 1 = scaleSpan / cost span = 4 / 2 = 2: t1 A 2 − 2 = 0 beats B 4 − 6; t2 A 1.5 beats B −3.
    expect(plane?.points).toEqual(HAND_PLANE_POINTS);
  });

  it('a larger λ picking the same tools adds no point', () => {
    const plane = costQualityPlane({ points: { m: pts({ t1: { A: 2, B: 4 }, t2: { A: 3.5, B: 3 } }) }, costs, scaleSpan: 4, fractions: [0, 0.001, 1, 2] });
    expect(plane?.points.filter((p) => p.kind === 'method').map((p) => p.lambda)).toEqual([0, 2]);
  });

  it('only tasks every method predicted for every costed tool; tools without a cost are left out', () => {
    const plane = costQualityPlane({
      points: {
        m: [...pts({ t1: { A: 2, B: 4 }, t2: { A: 3.5, B: 3 } }), { taskId: 't1', toolId: 'Z', predicted: 9, actual: 5 }],
        llm: pts({ t1: { A: 1, B: 2 } }),
      },
      costs,
      scaleSpan: 4,
      fractions: [0],
    });
    expect(plane?.tasks).toBe(1);
    expect(plane?.tools).toEqual(['A', 'B']);
    expect(plane?.points.find((p) => p.kind === 'always' && p.label === 'B')?.quality).toBe(4);
  });

  it('no plane with fewer than two costed tools', () => {
    expect(costQualityPlane({ points: { m: pts({ t1: { A: 2, B: 4 } }) }, costs: new Map([['A', 1]]), scaleSpan: 4 })).toBeNull();
  });

  it('frontier on a lower-is-better scale: lower quality numbers win', () => {
    const p = (label: string, cost: number, quality: number): PlanePoint => ({ kind: 'always', label, cost, quality, frontier: false });
    const marked = markFrontier([p('cheap-bad', 1, 3), p('dear-good', 2, 1), p('dear-worse', 2, 2), p('dearest', 3, 1)], 'lower-better');
    expect(marked.map((x) => [x.label, x.frontier])).toEqual([
      ['cheap-bad', true],
      ['dear-good', true],
      ['dear-worse', false],
      ['dearest', false],
    ]);
  });
});

describe('pairedDifference: a selector against always one tool, task by task', () => {
  // m at λ 0 picks B on t1 (4 over 2) and A on t2 (3.5 over 3): true 4 and 3.
  const input = { points: { m: pts({ t1: { A: 2, B: 4 }, t2: { A: 3.5, B: 3 } }) }, costs, scaleSpan: 4 };
  it('against A: differences 4 − 2 and 3 − 3 → mean 1, sd √2, 95% interval 1 ± 1.96 √2 / √2', () => {
    const d = pairedDifference(input, 'm', 0, 'A')!;
    expect(d.tasks).toBe(2);
    expect(d.mean).toBe(1);
    expect(d.lo).toBeCloseTo(1 - 1.96, 12);
    expect(d.hi).toBeCloseTo(1 + 1.96, 12);
  });
  it('against B: the same true scores on both tasks → 0 with no spread; unknown method or tool → null', () => {
    expect(pairedDifference(input, 'm', 0, 'B')).toEqual({ mean: 0, lo: 0, hi: 0, tasks: 2 });
    expect(pairedDifference(input, 'x', 0, 'B')).toBeNull();
    expect(pairedDifference(input, 'm', 0, 'Z')).toBeNull();
  });
});
