import { describe, expect, it } from 'vitest';
import { formatScore, scoreDecimals, scoreTitle } from '../../../src/ui/format';

const scale = (min: number, max: number) => ({ min, max });

describe('formatScore: rounded for the scale, whole numbers kept whole', () => {
  it('picks the decimals from the span (about a 300th of it)', () => {
    // ceil(2.5 − log10 span): 0–1 → 3, 1–5 → ceil(1.90) = 2, −25..0 → ceil(1.10) = 2, 0–100 → 1, 0–1000 → 0.
    expect([scoreDecimals(scale(0, 1)), scoreDecimals(scale(1, 5)), scoreDecimals(scale(-25, 0)), scoreDecimals(scale(0, 100)), scoreDecimals(scale(0, 1000))]).toEqual([3, 2, 2, 1, 0]);
    expect(scoreDecimals(scale(3, 3))).toBe(2);
  });

  it('rounds a raw decimal, keeps integers, and puts the full value in the title only when it was cut', () => {
    expect(formatScore(0.4586309383, scale(0, 1))).toBe('0.459');
    expect(scoreTitle(0.4586309383, scale(0, 1))).toBe('0.4586309383');
    expect(formatScore(3.456789, scale(1, 5))).toBe('3.46');
    expect(formatScore(-7.25, scale(-25, 0))).toBe('-7.25');
    expect(scoreTitle(-7.25, scale(-25, 0))).toBeUndefined();
    expect(formatScore(4, scale(1, 5))).toBe('4');
    expect(formatScore(1, scale(0, 1))).toBe('1');
    expect(scoreTitle(4, scale(1, 5))).toBeUndefined();
    expect(formatScore(-0.0001, scale(0, 1))).toBe('0.000');
    expect(formatScore(Number.NaN, scale(1, 5))).toBe('—');
  });
});
