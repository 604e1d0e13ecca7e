import { describe, expect, it } from 'vitest';
import { selectTool } from '../../../src/core/predict/select';

// A is good and dear, B cheaper and slow, C has no known cost.
const CANDIDATES = [
  { toolId: 'A', score: 4, cost: 3, latencyMs: 500 },
  { toolId: 'B', score: 3.5, cost: 1, latencyMs: 2000 },
  { toolId: 'C', score: 2.9, latencyMs: 100 },
];

describe('selectTool: utility = score − λ·cost with cost and latency limits', () => {
  it('λ = 0.5: utilities A 4 − 1.5 = 2.5, B 3.5 − 0.5 = 3, C 2.9 − 0 = 2.9, so B', () => {
    const sel = selectTool(CANDIDATES, { costWeight: 0.5 });
    expect(sel.choice).toBe('B');
    expect(sel.ranked.map((r) => [r.toolId, r.utility])).toEqual([
      ['B', 3],
      ['C', 2.9],
      ['A', 2.5],
    ]);
    expect(sel.excluded).toBeUndefined();
  });

  it('maxCost 2 excludes A (3 > 2) and C (cost unknown), listed with the reason', () => {
    const sel = selectTool(CANDIDATES, { maxCost: 2 });
    expect(sel.choice).toBe('B');
    expect(sel.ranked.map((r) => r.toolId)).toEqual(['B']);
    expect(sel.excluded).toEqual([
      { toolId: 'A', reason: 'cost-over', value: 3, limit: 2 },
      { toolId: 'C', reason: 'cost-unknown', limit: 2 },
    ]);
  });

  it('a cost equal to the limit is within it', () => {
    expect(selectTool(CANDIDATES, { maxCost: 3 }).ranked.map((r) => r.toolId)).toEqual(['A', 'B']);
  });

  it('maxLatencyMs 1000 excludes B (2000 ms): A wins on score', () => {
    const sel = selectTool(CANDIDATES, { maxLatencyMs: 1000 });
    expect(sel.choice).toBe('A');
    expect(sel.excluded).toEqual([{ toolId: 'B', reason: 'latency-over', value: 2000, limit: 1000 }]);
    expect(sel.ranked[0]).toEqual({ toolId: 'A', score: 4, cost: 3, latencyMs: 500, utility: 4 });
  });

  it('both limits and λ together: only A remains, utility 4 − 0.5·3 = 2.5', () => {
    const sel = selectTool(CANDIDATES, { maxCost: 5, maxLatencyMs: 1000, costWeight: 0.5 });
    expect(sel.choice).toBe('A');
    expect(sel.ranked.map((r) => [r.toolId, r.utility])).toEqual([['A', 2.5]]);
    expect(sel.excluded?.map((e) => [e.toolId, e.reason])).toEqual([
      ['B', 'latency-over'],
      ['C', 'cost-unknown'],
    ]);
  });

  it('no candidate within the limits: no choice, every one excluded', () => {
    const sel = selectTool(CANDIDATES, { maxCost: 0.5 });
    expect(sel).toEqual({
      choice: null,
      tied: [],
      ranked: [],
      excluded: [
        { toolId: 'A', reason: 'cost-over', value: 3, limit: 0.5 },
        { toolId: 'B', reason: 'cost-over', value: 1, limit: 0.5 },
        { toolId: 'C', reason: 'cost-unknown', limit: 0.5 },
      ],
    });
  });

  it('lower-better scales: utility = −score − λ·cost', () => {
    const sel = selectTool(
      [
        { toolId: 'A', score: 1, cost: 2 },
        { toolId: 'B', score: 2, cost: 0 },
      ],
      { direction: 'lower-better', costWeight: 1 },
    );
    // A: −1 − 2 = −3, B: −2 − 0 = −2.
    expect(sel.choice).toBe('B');
    expect(sel.ranked.map((r) => r.utility)).toEqual([-2, -3]);
  });
});
