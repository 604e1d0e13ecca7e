import { describe, expect, it } from 'vitest';
import { selectionMetrics } from '../../../src/core/eval/selection';

describe('selection metrics', () => {
  it('selected / random / oracle / gap captured, ties at the top averaged', () => {
    const m = selectionMetrics([
      { truth: [3, 5, 1], predicted: [2, 4, 3] }, // picks 5; random 3; oracle 5
      { truth: [2, 4, 4], predicted: [3, 3, 1] }, // tie between 2 and 4 → 3; random 10/3; oracle 4
    ]);
    expect(m.tasks).toBe(2);
    expect(m.selected).toBeCloseTo(4, 12);
    expect(m.random).toBeCloseTo(19 / 6, 12);
    expect(m.oracle).toBeCloseTo(4.5, 12);
    expect(m.gapCaptured).toBeCloseTo(0.625, 12); // (4 − 19/6) / (4.5 − 19/6)
  });
  it('no gain possible → NaN; no tasks → NaN', () => {
    expect(selectionMetrics([{ truth: [2, 2], predicted: [1, 0] }]).gapCaptured).toBeNaN();
    expect(selectionMetrics([]).selected).toBeNaN();
  });
});
