import { describe, expect, it } from 'vitest';
import { exactAgreement, krippendorffAlpha } from '../../../src/core/label/agreement';

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the worked example with
// 4 observers, 12 units, values 1–5 and missing data (observers in columns A–D).
const A = [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null];
const B = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3];
const C = [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null];
const D = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null];
const units = A.map((_, u) => [A[u], B[u], C[u], D[u]].filter((v): v is number => v !== null));

describe("Krippendorff's alpha", () => {
  it('reproduces the textbook example (nominal .743, ordinal .815, interval .849)', () => {
    expect(krippendorffAlpha(units, 'nominal').alpha).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(units, 'ordinal').alpha).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(units, 'interval').alpha).toBeCloseTo(0.849, 3);
    // Unit 12 has a single value and is not pairable: 11 units, 40 pairable values.
    expect(krippendorffAlpha(units)).toMatchObject({ n: 40, units: 11 });
  });

  it('is 1 for perfect agreement and about −1/(n−1)… for systematic disagreement on two values', () => {
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [2, 2],
          [3, 3],
        ],
        'ordinal',
      ).alpha,
    ).toBe(1);
    // Two units, each with one 1 and one 2: o = [[0,2],[2,0]], n = 4 → α = 1 − 3·(4·1)/(2·2·2·1) = −0.5 (nominal).
    expect(
      krippendorffAlpha(
        [
          [1, 2],
          [1, 2],
        ],
        'nominal',
      ).alpha,
    ).toBeCloseTo(-0.5, 12);
  });

  it('is undefined (NaN) when every rating is the same value', () => {
    expect(
      krippendorffAlpha([
        [3, 3],
        [3, 3, 3],
      ]).alpha,
    ).toBeNaN();
  });
});

describe('exact agreement', () => {
  it('counts agreeing rater pairs within units', () => {
    // unit 1: (1,1) agree; unit 2: (2,3),(2,3),(3,3) → 1 of 3 agree → 2 of 4 in all.
    expect(
      exactAgreement([
        [1, 1],
        [2, 3, 3],
      ]),
    ).toEqual({ share: 0.5, pairs: 4 });
  });
});
