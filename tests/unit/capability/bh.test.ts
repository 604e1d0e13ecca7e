import { describe, expect, it } from 'vitest';
import { bhQValues } from '../../../src/core/capability/bh';

describe('bhQValues', () => {
  it('step-up q-values, monotone in p (hand-computed)', () => {
    // sorted: 0.01 (k1) 0.03 (k2) 0.04 (k3) 0.20 (k4); m·p/k = 0.04, 0.06, 0.0533, 0.2; running min from the top
    const q = bhQValues([0.01, 0.04, 0.03, 0.2]);
    expect(q[0]).toBeCloseTo(0.04, 12);
    expect(q[1]).toBeCloseTo(0.16 / 3, 12);
    expect(q[2]).toBeCloseTo(0.16 / 3, 12);
    expect(q[3]).toBeCloseTo(0.2, 12);
  });

  it('gives tied p-values the same q (from the largest rank of the tie)', () => {
    expect(bhQValues([0.02, 0.02, 0.5])).toEqual([0.03, 0.03, 0.5]);
    expect(bhQValues([0.5, 0.02, 0.02])).toEqual([0.5, 0.03, 0.03]);
  });

  it('caps at 1 and leaves NaN (not tested) out of m', () => {
    expect(bhQValues([0.9, 0.95])).toEqual([0.95, 0.95]);
    expect(bhQValues([1.2])).toEqual([1]);
    const q = bhQValues([NaN, 0.01, 0.04]);
    expect(q[0]).toBeNaN();
    expect(q[1]).toBeCloseTo(0.02, 12);
    expect(q[2]).toBeCloseTo(0.04, 12);
    expect(bhQValues([])).toEqual([]);
  });
});
