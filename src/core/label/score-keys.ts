/**
 * Which number key gives which score, for any scale (issue #28): the one mapping the score
 * buttons, the shortcuts help and the key handler all read, so the help never promises a key
 * that does nothing.
 *
 * - A whole-number scale whose every point is a digit 0–9 (1–5, 0–9, a binary 0–1): the key is
 *   the score itself ("3" gives 3).
 * - Any other whole-number scale of at most 9 points (e.g. −4…0, 10–14): keys 1…n give its points
 *   from the lowest up.
 * - Everything else (real scales such as AlpacaEval's 0–1, wide ones such as 0–10 or −25…0): keys
 *   1–5 give five evenly spaced points, min, ¼, ½, ¾, max. On a whole-number scale a quarter point
 *   that falls between two numbers is rounded towards its own end of the scale (0–10: 0, 2, 5, 8, 10),
 *   so the five stay symmetric around the middle.
 */
import type { ScoreScale } from '../types';

export interface ScoreKey {
  /** The key to press: one digit. */
  key: string;
  /** The score it gives. */
  value: number;
}

const MAX_POINTS = 9;

/** Rounds a quarter point of a whole-number scale towards the end it is nearer to. */
function towardsEnd(x: number, mid: number): number {
  return x < mid ? Math.ceil(x - 0.5) : Math.floor(x + 0.5);
}

/** The number keys of `scale`, lowest score first. */
export function scoreKeys(scale: Pick<ScoreScale, 'min' | 'max' | 'integer'>): ScoreKey[] {
  const { min, max, integer } = scale;
  if (!(max > min)) return [{ key: '1', value: min }];
  if (integer && Number.isInteger(min) && Number.isInteger(max)) {
    if (min >= 0 && max <= 9) return Array.from({ length: max - min + 1 }, (_, i) => ({ key: String(min + i), value: min + i }));
    if (max - min + 1 <= MAX_POINTS) return Array.from({ length: max - min + 1 }, (_, i) => ({ key: String(i + 1), value: min + i }));
  }
  const mid = (min + max) / 2;
  // The ends are the scale's own numbers (no −0, no rounding); only the three inner points are computed.
  const values = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    if (f === 0) return min;
    if (f === 1) return max;
    const x = min + f * (max - min);
    return integer ? towardsEnd(x, mid) + 0 : x;
  });
  return values.map((value, i) => ({ key: String(i + 1), value }));
}

/** The score the key `key` gives on `keys`' scale, or null when it gives none. */
export function scoreForKey(keys: readonly ScoreKey[], key: string): number | null {
  return keys.find((k) => k.key === key)?.value ?? null;
}

/** The keys as one line for the shortcuts help: "1 … 5" when the key is the score, else "1 = 0 · 2 = 0.25 …". */
export function describeScoreKeys(keys: readonly ScoreKey[], format: (x: number) => string = String): string {
  if (keys.every((k) => k.key === String(k.value))) return keys.length > 1 ? `${keys[0]!.key} … ${keys[keys.length - 1]!.key}` : keys[0]!.key;
  return keys.map((k) => `${k.key} = ${format(k.value)}`).join(' · ');
}
