import { describe, expect, it } from 'vitest';
import type { EntryOrigin } from '../../../src/core/types';
import { formatCount, formatMean, formatScore, originLabel, scoreCell, scoreDecimals } from '../../../src/ui/format';

const scale = (min: number, max: number) => ({ min, max });

describe('scores rounded for their scale', () => {
  it('picks the decimals from the span (about a 300th of it)', () => {
    // ceil(2.5 − log10 span): 0–1 → 3, 1–5 → ceil(1.90) = 2, −25..0 → ceil(1.10) = 2, 0–100 → 1, 0–1000 → 0.
    expect([
      scoreDecimals(scale(0, 1)),
      scoreDecimals(scale(1, 5)),
      scoreDecimals(scale(-25, 0)),
      scoreDecimals(scale(0, 100)),
      scoreDecimals(scale(0, 1000)),
    ]).toEqual([3, 2, 2, 1, 0]);
    expect(scoreDecimals(scale(3, 3))).toBe(2);
  });

  it('a score: rounded, whole numbers kept whole', () => {
    expect(formatScore(0.4586309383, scale(0, 1))).toBe('0.459');
    expect(formatScore(3.456789, scale(1, 5))).toBe('3.46');
    expect(formatScore(-7.25, scale(-25, 0))).toBe('-7.25');
    expect(formatScore(4, scale(1, 5))).toBe('4');
    expect(formatScore(1, scale(0, 1))).toBe('1');
    expect(formatScore(-0.0001, scale(0, 1))).toBe('0.000');
  });

  it("a mean: always the scale's decimals, so a column lines up", () => {
    expect(formatMean(4, scale(1, 5))).toBe('4.00');
    expect(formatMean(4.6, scale(1, 5))).toBe('4.60');
    expect(formatMean(Number.NaN, scale(1, 5))).toBe('—');
    expect(formatMean(512.4, scale(0, 1000))).toBe('512');
  });

  it('a cell: the full value in its title only when the text cut it', () => {
    expect(scoreCell(0.4586309383, scale(0, 1))).toEqual({ text: '0.459', title: '0.4586309383' });
    expect(scoreCell(-7.25, scale(-25, 0))).toEqual({ text: '-7.25', title: undefined });
    expect(scoreCell(4, scale(1, 5), 'mean')).toEqual({ text: '4.00', title: undefined });
    expect(scoreCell(Number.NaN, scale(1, 5), 'mean')).toEqual({ text: '—', title: undefined });
  });
});

describe('counts grouped by thousands without locale data', () => {
  it('groups integers as en-US does, and leaves the rest to toLocaleString', () => {
    expect([0, 7, 999, 1000, 28800, 1234567, -1600, -999].map(formatCount)).toEqual(['0', '7', '999', '1,000', '28,800', '1,234,567', '-1,600', '-999']);
    for (const n of [12, 1001, 100000, 9007199254740991, -4321, 2.5, Number.NaN, 1e21]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('where an entry came from', () => {
  it("says it in a reader's words, one per stored origin", () => {
    expect((['stats', 'llm', 'critique', 'manual'] as const).map(originLabel)).toEqual([
      'from the data',
      'written by the language model',
      'revised after a critique',
      'edited by you',
    ]);
  });

  it('shows an origin it does not know as itself, even one named like an object property', () => {
    for (const id of ['constructor', '__proto__', 'imported']) expect(originLabel(id as EntryOrigin)).toBe(id);
  });
});
