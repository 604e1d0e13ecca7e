/**
 * Heavy tails and normal scores (issue #34): a third scale for admitting claims on interval data.
 *
 * A claim's flip chance and lfsr come from normal approximations of mean contrasts. Where a table's
 * scores have heavy, skewed tails (WMT MQM: penalties with a ceiling at 0 and rare large ones), a
 * facet mean over 15–60 tasks is far from normal and those approximations are wrong in the tails.
 * The tails are read from the per-task residuals: each tool's advantage over the other tools on a
 * task (the response the contrasts are made of, effects.ts) minus that tool's mean advantage,
 * pooled; their excess kurtosis m₄ / m₂² − 3 is 0 for normal residuals.
 *
 * Normal scores: every finite score of the table is replaced by Φ⁻¹((r − 3/8) / (N + 1/4)) (Blom),
 * r its rank among the table's N finite scores (ties share their mean rank). The order of the scores
 * is kept (so a claim's sign means the same), their tails become normal.
 */
import type { ScoreTable } from './effects';
import { advantages, oriented } from './effects';
import { normalCdf } from './gauss';

/** Pooled per-task residuals: each tool's advantage over the others on a task, minus its mean advantage (NaN left out). */
export function tailResiduals(table: ScoreTable): number[] {
  const v = oriented(table);
  if (v.length < 2) return [];
  const out: number[] = [];
  for (const row of advantages(v)) {
    const finite = [...row].filter((a) => Number.isFinite(a));
    if (finite.length < 2) continue;
    const mean = finite.reduce((s, a) => s + a, 0) / finite.length;
    for (const a of finite) out.push(a - mean);
  }
  return out;
}

/** Excess kurtosis m₄ / m₂² − 3 of values already centred (NaN with fewer than 4 values or no spread). */
export function excessKurtosis(centred: readonly number[]): number {
  if (centred.length < 4) return NaN;
  let m2 = 0;
  let m4 = 0;
  for (const r of centred) {
    m2 += r * r;
    m4 += r * r * r * r;
  }
  m2 /= centred.length;
  m4 /= centred.length;
  return m2 > 0 ? m4 / (m2 * m2) - 3 : NaN;
}

/** Φ⁻¹(p) for 0 < p < 1 by bisection on Φ (to 1e-12 in x; Φ itself is good to about 1e-7, so the result to about 1e-7). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1, got ${p}`);
  let lo = -10;
  let hi = 10;
  while (hi - lo > 1e-12) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The table with every finite score replaced by its normal score over the whole table (Blom; ties share their mean rank). */
export function normalScoreTable(table: ScoreTable): ScoreTable {
  const cells: { v: number; j: number; t: number }[] = [];
  table.scores.forEach((row, j) => {
    for (let t = 0; t < row.length; t++) if (Number.isFinite(row[t]!)) cells.push({ v: row[t]!, j, t });
  });
  cells.sort((a, b) => a.v - b.v);
  const n = cells.length;
  const scores = table.scores.map((row) => new Float64Array(row.length).fill(NaN));
  for (let i = 0; i < n;) {
    let k = i;
    while (k + 1 < n && cells[k + 1]!.v === cells[i]!.v) k++;
    // Ranks i + 1 … k + 1 share their mean.
    const z = normalQuantile(((i + k) / 2 + 1 - 3 / 8) / (n + 1 / 4));
    for (let c = i; c <= k; c++) scores[cells[c]!.j]![cells[c]!.t] = z;
    i = k + 1;
  }
  const lo = n ? scores[cells[0]!.j]![cells[0]!.t]! : 0;
  const hi = n ? scores[cells[n - 1]!.j]![cells[n - 1]!.t]! : 1;
  // The scale keeps its direction; its ends are the extreme normal scores (a width the untested fallback reads).
  return { ...table, scores, scale: { ...table.scale, min: lo, max: hi > lo ? hi : lo + 1, integer: false } };
}
