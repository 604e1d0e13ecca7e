/**
 * How many retrieved items to keep, read from the shape of the similarity curve (MemToolAgent's
 * alternative to a fixed k) — Kneedle (Satopää et al. 2011) on scores sorted descending.
 *
 * Both axes are scaled to [0, 1] (x = i/(n−1), y = (s_i − s_last)/(s_first − s_last)) and compared
 * with the chord from the first to the last point, d_i = y_i − (1 − x_i). The knee is the point
 * farthest from the chord:
 *  - below it (d < 0, an "elbow": steep drop, then a flat tail) the knee is the first tail point,
 *    so we keep the items before it (n = i);
 *  - above it (d > 0, a "shoulder": a plateau, then a drop) the knee is the last plateau point,
 *    so we keep it too (n = i + 1).
 * A step curve with m high scores therefore keeps exactly m, whichever side of the middle the
 * step is. Flat or straight curves have no knee: keep as many as allowed. The result is clamped
 * to [min, max] and to the number of scores.
 */

export interface KneeBounds {
  /** Keep at least this many (default 1). */
  min?: number;
  /** Keep at most this many (default: all). */
  max?: number;
}

/** Relative distance under which a curve counts as a straight line (no knee). */
const STRAIGHT = 1e-9;

export function kneeIndex(scores: ArrayLike<number>): { index: number; distance: number } | null {
  const n = scores.length;
  if (n < 3) return null;
  const first = scores[0]!;
  const last = scores[n - 1]!;
  const range = first - last;
  if (!(range > 0)) return null;
  let best = -1;
  let bestD = 0;
  for (let i = 1; i < n - 1; i++) {
    const d = (scores[i]! - last) / range - (1 - i / (n - 1));
    if (Math.abs(d) > Math.abs(bestD) + STRAIGHT) {
      best = i;
      bestD = d;
    }
  }
  return best < 0 ? null : { index: best, distance: bestD };
}

/** Number of leading items to keep from `scores` (sorted descending). */
export function kneeCut(scores: ArrayLike<number>, bounds: KneeBounds = {}): number {
  const n = scores.length;
  const max = Math.min(n, Math.max(0, Math.floor(bounds.max ?? n)));
  const min = Math.min(max, Math.max(0, Math.floor(bounds.min ?? 1)));
  const knee = kneeIndex(scores);
  const cut = knee === null ? n : knee.distance > 0 ? knee.index + 1 : knee.index;
  return Math.max(min, Math.min(max, cut));
}
