/**
 * A selection-adjusted test of a pick (inference on a winner). A pick is offered because its lead
 * over the overall best is among the largest of every (tool, facet) lead a build looks at, so its
 * training lead is biased up by that choice; the posterior and the bootstrap (pick-bootstrap.ts) do
 * not see it when the lead is stable within the training tasks. Conditioning on the order of the
 * leads removes the choice: with the leads' z-scores sorted, z_1 ≥ z_2 ≥ …, and read as independent
 * normals N(μ_i / se_i, 1), the i-th one given the order and the others is a normal truncated to
 * [z_{i+1}, z_{i−1}]. The test asks whether a new sample of the facet's size would show the pick
 * ahead with probability at least `replication` (μ ≥ Φ⁻¹(replication) · se) and returns the
 * one-sided p-value of that null from the truncated normal. Cells overlap (one overall best, shared
 * tasks), so independence is an approximation.
 */
import { splitMoments } from './effects';
import { normalCdf } from './gauss';
import { normalQuantile } from './tails';

export interface LeadCell {
  facet: number;
  tool: number;
  /** Mean paired lead over the overall best on the facet's tasks, its z-score, paired tasks. */
  lead: number;
  z: number;
  n: number;
}

/** Survival function of the standard normal: Φ(−z), exact in the upper tail (normalCdf reads erfc there). */
const upperTail = (z: number): number => (z === Infinity ? 0 : z === -Infinity ? 1 : normalCdf(-z));

/** The per-task lead of a over b: a − b, NaN where either has no score (splitMoments skips those). */
export function leadOver(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  return Float64Array.from({ length: a.length }, (_, t) => a[t]! - b[t]!);
}

/**
 * Every (tool ≠ best, eligible facet) paired lead with at least minN tasks, sorted by z, largest first.
 * v[j][t]: oriented scores (NaN missing); x[f][t]: facet membership.
 */
export function leadCells(
  v: readonly ArrayLike<number>[],
  x: readonly ArrayLike<number>[],
  best: number,
  eligible: (f: number) => boolean,
  minN: number,
): LeadCell[] {
  const cells: LeadCell[] = [];
  for (let k = 0; k < v.length; k++) {
    if (k === best) continue;
    const d = leadOver(v[k]!, v[best]!);
    for (let f = 0; f < x.length; f++) {
      if (!eligible(f)) continue;
      const m = splitMoments(d, x[f]!).inside;
      if (m.n < minN || !(m.variance > 0)) continue;
      cells.push({ facet: f, tool: k, lead: m.mean, z: m.mean / Math.sqrt(m.variance / m.n), n: m.n });
    }
  }
  // Equal z: by facet, then tool, an order that does not hang on the loops'.
  return cells.sort((a, b) => b.z - a.z || a.facet - b.facet || a.tool - b.tool);
}

/**
 * The selection-adjusted p-value of cell i of `cells` (sorted by leadCells) against the null that a
 * new sample of its size shows it ahead with probability below `replication`. 1 where the window is
 * empty (ties) or the cell is missing.
 */
export function selectiveP(cells: readonly LeadCell[], i: number, replication: number): number {
  const c = cells[i];
  if (!c) return 1;
  const shift = normalQuantile(replication);
  const hi = i > 0 ? cells[i - 1]!.z : Infinity;
  const lo = i + 1 < cells.length ? cells[i + 1]!.z : -Infinity;
  const den = upperTail(lo - shift) - upperTail(hi - shift);
  if (!(den > 0)) return 1;
  return Math.min(1, Math.max(0, (upperTail(c.z - shift) - upperTail(hi - shift)) / den));
}

/**
 * The cells a step-down reading admits: from the largest z down, each must have z > 0 and a
 * selection-adjusted p ≤ alpha; the first that fails stops the walk (a cell below one that failed
 * was not chosen first). Returns the admitted cells' "facet:tool" keys.
 */
export function stepDown(cells: readonly LeadCell[], alpha: number, replication: number): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < cells.length; i++) {
    if (!(cells[i]!.z > 0) || selectiveP(cells, i, replication) > alpha) break;
    out.add(`${cells[i]!.facet}:${cells[i]!.tool}`);
  }
  return out;
}
