import { describe, expect, it } from 'vitest';
import { describeScoreKeys, scoreForKey, scoreKeys } from '../../../src/core/label/score-keys';

const pairs = (scale: { min: number; max: number; integer: boolean }) => scoreKeys(scale).map((k) => [k.key, k.value]);

describe('scoreKeys: one mapping from a number key to a score, for every scale', () => {
  it('1–5 whole numbers: the key is the score', () => {
    expect(pairs({ min: 1, max: 5, integer: true })).toEqual([
      ['1', 1],
      ['2', 2],
      ['3', 3],
      ['4', 4],
      ['5', 5],
    ]);
  });

  it('0–1 real (AlpacaEval): keys 1–5 give 0, 0.25, 0.5, 0.75, 1', () => {
    expect(pairs({ min: 0, max: 1, integer: false })).toEqual([
      ['1', 0],
      ['2', 0.25],
      ['3', 0.5],
      ['4', 0.75],
      ['5', 1],
    ]);
  });

  it('binary 0–1 whole numbers: keys 0 and 1', () => {
    expect(pairs({ min: 0, max: 1, integer: true })).toEqual([
      ['0', 0],
      ['1', 1],
    ]);
  });

  it('0–10 whole numbers: quarters rounded towards their own end (0, 2, 5, 8, 10); real: 0, 2.5, 5, 7.5, 10', () => {
    expect(pairs({ min: 0, max: 10, integer: true })).toEqual([
      ['1', 0],
      ['2', 2],
      ['3', 5],
      ['4', 8],
      ['5', 10],
    ]);
    expect(pairs({ min: 0, max: 10, integer: false })).toEqual([
      ['1', 0],
      ['2', 2.5],
      ['3', 5],
      ['4', 7.5],
      ['5', 10],
    ]);
  });

  it('−25…0: real −25, −18.75, −12.5, −6.25, 0; whole numbers −25, −19, −12, −6, 0', () => {
    expect(pairs({ min: -25, max: 0, integer: false })).toEqual([
      ['1', -25],
      ['2', -18.75],
      ['3', -12.5],
      ['4', -6.25],
      ['5', 0],
    ]);
    expect(pairs({ min: -25, max: 0, integer: true })).toEqual([
      ['1', -25],
      ['2', -19],
      ['3', -12],
      ['4', -6],
      ['5', 0],
    ]);
  });

  it('a short whole-number scale off the digits (−4…0) counts its points from key 1', () => {
    expect(pairs({ min: -4, max: 0, integer: true })).toEqual([
      ['1', -4],
      ['2', -3],
      ['3', -2],
      ['4', -1],
      ['5', 0],
    ]);
  });

  it('a key the scale has no score for gives null (the page says so), and the help names every key', () => {
    const likert = scoreKeys({ min: 1, max: 5, integer: true });
    expect(scoreForKey(likert, '3')).toBe(3);
    expect(scoreForKey(likert, '7')).toBeNull();
    expect(scoreForKey(likert, '0')).toBeNull();
    expect(describeScoreKeys(likert)).toBe('1 … 5');
    const alpaca = scoreKeys({ min: 0, max: 1, integer: false });
    expect(scoreForKey(alpaca, '3')).toBe(0.5);
    expect(describeScoreKeys(alpaca)).toBe('1 = 0 · 2 = 0.25 · 3 = 0.5 · 4 = 0.75 · 5 = 1');
    expect(describeScoreKeys(scoreKeys({ min: 0, max: 1, integer: true }))).toBe('0 … 1');
  });
});
