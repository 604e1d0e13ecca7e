/**
 * Inter-rater agreement: exact agreement and Krippendorff's alpha (nominal, ordinal, interval),
 * computed from the coincidence matrix. Units with fewer than two ratings are not pairable and
 * are left out, as the method prescribes.
 */

export type AlphaLevel = 'nominal' | 'ordinal' | 'interval';

/** ratings[unit] = the values given to that unit by whoever rated it (missing ratings omitted). */
export type Reliability = number[][];

export interface AlphaResult {
  alpha: number;
  /** Pairable values (sum of m_u over units with m_u ≥ 2). */
  n: number;
  units: number;
}

/** Krippendorff's alpha; NaN when there is no variation at all (expected disagreement 0). */
export function krippendorffAlpha(ratings: Reliability, level: AlphaLevel = 'ordinal'): AlphaResult {
  const units = ratings.filter((u) => u.length >= 2);
  const values = [...new Set(units.flat())].sort((a, b) => a - b);
  const index = new Map(values.map((v, i) => [v, i]));
  const V = values.length;
  // Coincidence matrix o[c][k] = Σ_u (number of c–k pairs in u) / (m_u − 1).
  const o = Array.from({ length: V }, () => new Float64Array(V));
  for (const u of units) {
    const m = u.length;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        if (i === j) continue;
        o[index.get(u[i]!)!]![index.get(u[j]!)!]! += 1 / (m - 1);
      }
    }
  }
  const nc = o.map((row) => row.reduce((s, x) => s + x, 0));
  const n = nc.reduce((s, x) => s + x, 0);
  const delta = (c: number, k: number): number => {
    if (c === k) return 0;
    if (level === 'nominal') return 1;
    if (level === 'interval') return (values[c]! - values[k]!) ** 2;
    const [lo, hi] = c < k ? [c, k] : [k, c];
    let sum = 0;
    for (let g = lo; g <= hi; g++) sum += nc[g]!;
    return (sum - (nc[lo]! + nc[hi]!) / 2) ** 2;
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < V; c++) {
    for (let k = 0; k < V; k++) {
      const d = delta(c, k);
      observed += o[c]![k]! * d;
      expected += nc[c]! * nc[k]! * d;
    }
  }
  const alpha = expected === 0 ? Number.NaN : 1 - ((n - 1) * observed) / expected;
  return { alpha, n, units: units.length };
}

/** Share of rater pairs (within each unit) that gave the same value. */
export function exactAgreement(ratings: Reliability): { share: number; pairs: number } {
  let agree = 0;
  let pairs = 0;
  for (const u of ratings) {
    for (let i = 0; i < u.length; i++) {
      for (let j = i + 1; j < u.length; j++) {
        pairs++;
        if (u[i] === u[j]) agree++;
      }
    }
  }
  return { share: pairs ? agree / pairs : Number.NaN, pairs };
}
