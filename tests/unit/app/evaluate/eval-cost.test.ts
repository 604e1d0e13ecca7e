import { describe, expect, it } from 'vitest';
import { CostRows, evalCostPlane } from '../../../../src/app/evaluate/cost-plane';
import type { EvalResult } from '../../../../src/app/evaluate/api';
import type { Experience } from '../../../../src/core/types';

/** Rows of three tools: A and B log a cost (and B a latency) on some rows, C never does. */
function rows(): Pick<Experience, 'toolId' | 'cost' | 'latencyMs'>[] {
  const out: Pick<Experience, 'toolId' | 'cost' | 'latencyMs'>[] = [];
  for (let i = 0; i < 30; i++) {
    out.push({ toolId: 'A', ...(i % 3 === 0 ? { cost: 0.01 * (1 + (i % 4)) } : {}) });
    out.push({ toolId: 'B', ...(i % 2 === 0 ? { cost: 0.05, latencyMs: 100 + i } : {}) });
    out.push({ toolId: 'C' });
  }
  return out;
}

const points: EvalResult['points'] = {
  m: ['t1', 't2'].flatMap((taskId, k) => ['A', 'B', 'C'].map((toolId, j) => ({ taskId, toolId, predicted: 1 + ((j + k) % 3), actual: 1 + ((j * 2 + k) % 3) }))),
};
const scale = { min: 1, max: 3, direction: 'higher-better' as const, integer: true };

describe('CostRows: what the cost plane reads of a dataset read in pages', () => {
  it('gives the plane the same costs and missing tools as every row does, keeping a few rows', () => {
    const all = rows();
    const kept = new CostRows();
    for (const e of all) kept.add(e);
    // A's 10 costed rows, B's 15, and C's first row (so C is named as missing a cost).
    expect(kept.rows).toHaveLength(1 + 9 + 15 + 1);
    const plane = evalCostPlane(points, [], kept.rows, scale);
    expect(plane).toEqual(evalCostPlane(points, [], all, scale));
    expect(plane?.missing).toEqual(['C']);
    expect(Object.keys(plane?.costs ?? {})).toEqual(['A', 'B']);
  });
});
