/**
 * The bootstrap's inner loop. Every metric is a function of a few sums over tasks that are linear
 * in the tasks' weights, so one seed's predictions become ONE row of "features" per test task
 * (|error|, error², prediction, prediction², prediction × truth per method and tool; truth sums per
 * tool; a right-order flag per method and pair; the selected tool's true score per method; …) and
 * a resample is a weighted sum of the drawn rows (weights = multinomial counts): one contiguous
 * multiply-add pass, whatever the number of methods. The definitions are those of metrics.ts and
 * selection.ts with each task counted `weight` times, so unit weights give the report's numbers.
 *
 * Sums restricted to a method's first N tasks (LLM methods score only the first N of a split) are
 * snapshots of the running sums taken as the ascending task index passes N.
 */
import type { PredictionMatrix } from './evaluate';

export const METRICS = ['mae', 'rmse', 'pearson', 'pairAcc', 'gapCaptured'] as const;
/** The metrics the bootstrap covers; higher is better for all but mae and rmse. */
export type IntervalMetric = (typeof METRICS)[number];

export interface SeedTables {
  /** Test tasks, tools, tool pairs, methods, features per task. */
  n: number;
  T: number;
  P: number;
  M: number;
  F: number;
  /** Task × feature, row-major. */
  X: Float64Array;
  /** Tasks each method was scored on (a prefix of the test tasks). */
  scored: Int32Array;
  /** The distinct values of `scored`, ascending (where the running sums are snapshot). */
  limits: Int32Array;
}

// Shared features: per tool [has truth, y, y²] (y = truth minus the column's first value, so a
// constant column is exactly 0 for Pearson), per pair [true scores differ], then random, oracle, task.
// Per method (block after them): per tool [|e|, e², p, p², p·y], per pair [right order], selected.
const sharedSize = (T: number, P: number) => 3 * T + P + 3;
const methodSize = (T: number, P: number) => 5 * T + P + 1;

function firstFinite(a: Float64Array, T: number, j: number, n: number): number {
  for (let i = 0; i < n; i++) if (Number.isFinite(a[i * T + j]!)) return a[i * T + j]!;
  return 0;
}

/** The features every method shares, per task: each tool's true score (count, shifted sum, square), the pairs it tells apart, the mean and the best. */
function fillShared(
  X: Float64Array,
  { n, T, P, F }: { n: number; T: number; P: number; F: number },
  truth: Float64Array,
  yShift: readonly number[],
  pairCols: readonly (readonly [number, number])[],
): void {
  for (let i = 0; i < n; i++) {
    const r = i * F;
    let sum = 0;
    let c = 0;
    let best = -Infinity;
    for (let j = 0; j < T; j++) {
      const t = truth[i * T + j]!;
      if (!Number.isFinite(t)) continue;
      X[r + 3 * j] = 1;
      X[r + 3 * j + 1] = t - yShift[j]!;
      X[r + 3 * j + 2] = (t - yShift[j]!) ** 2;
      sum += t;
      c++;
      if (t > best) best = t;
    }
    pairCols.forEach(([a, b], q) => {
      const ta = a < 0 ? NaN : truth[i * T + a]!;
      const tb = b < 0 ? NaN : truth[i * T + b]!;
      X[r + 3 * T + q] = Number.isFinite(ta) && Number.isFinite(tb) && ta !== tb ? 1 : 0;
    });
    if (c) {
      X[r + 3 * T + P] = sum / c;
      X[r + 3 * T + P + 1] = best;
      X[r + 3 * T + P + 2] = 1;
    }
  }
}

/** Predictions are finite wherever a method was asked (evaluate asks every tool with a true score). */
export function scoreTables(matrix: PredictionMatrix, methods: readonly string[], toolPairs: readonly (readonly [string, string])[]): SeedTables {
  const n = matrix.taskIds.length;
  const T = matrix.tools.length;
  const P = toolPairs.length;
  const M = methods.length;
  const S = sharedSize(T, P);
  const F = S + M * methodSize(T, P);
  const X = new Float64Array(n * F);
  const truth = matrix.truth;
  const col = new Map(matrix.tools.map((t, j) => [t, j]));
  const pairCols = toolPairs.map(([a, b]) => [col.get(a) ?? -1, col.get(b) ?? -1] as const);
  const yShift = matrix.tools.map((_, j) => firstFinite(truth, T, j, n));
  fillShared(X, { n, T, P, F }, truth, yShift, pairCols);
  const scored = new Int32Array(M);
  for (const [m, id] of methods.entries()) {
    const pred = matrix.predicted.get(id);
    if (!pred) throw new RangeError(`bootstrap: no predictions of ${id} in the seed's matrix`);
    const limit = Math.min(n, matrix.scored.get(id) ?? n);
    scored[m] = limit;
    const o = S + m * methodSize(T, P);
    const pShift = matrix.tools.map((_, j) => firstFinite(pred, T, j, limit));
    for (let i = 0; i < limit; i++) {
      const r = i * F + o;
      let best = -Infinity;
      for (let j = 0; j < T; j++) {
        const a = i * T + j;
        if (!Number.isFinite(truth[a]!)) continue;
        const p = pred[a]!;
        const e = p - truth[a]!;
        const pc = p - pShift[j]!;
        X[r + 5 * j] = Math.abs(e);
        X[r + 5 * j + 1] = e * e;
        X[r + 5 * j + 2] = pc;
        X[r + 5 * j + 3] = pc * pc;
        X[r + 5 * j + 4] = pc * (truth[a]! - yShift[j]!);
        if (p > best) best = p;
      }
      pairCols.forEach(([a, b], q) => {
        if (X[i * F + 3 * T + q] === 0) return;
        const da = pred[i * T + a]! - pred[i * T + b]!;
        const dt = truth[i * T + a]! - truth[i * T + b]!;
        X[r + 5 * T + q] = (da < 0 && dt < 0) || (da > 0 && dt > 0) ? 1 : 0;
      });
      // Predictions tied at the top: the mean of their true scores (a random tie-break's expectation).
      let sum = 0;
      let c = 0;
      for (let j = 0; j < T; j++) {
        if (Number.isFinite(truth[i * T + j]!) && pred[i * T + j]! === best) {
          sum += truth[i * T + j]!;
          c++;
        }
      }
      X[r + 5 * T + P] = c ? sum / c : 0;
    }
  }
  const limits = Int32Array.from(new Set(scored)).sort();
  return { n, T, P, M, F, X, scored, limits };
}

/**
 * Weighted feature sums over the drawn tasks `idx[0…distinct)` (ascending), each counted `cnt[k]`
 * times: `out` holds one row of F sums per entry of `t.limits` (tasks below that limit).
 */
export function accumulate(t: SeedTables, idx: Int32Array, cnt: Float64Array, distinct: number, acc: Float64Array, out: Float64Array): void {
  const { F, X, limits } = t;
  acc.fill(0);
  let li = 0;
  for (let k = 0; k < distinct; k++) {
    const i = idx[k]!;
    while (li < limits.length && i >= limits[li]!) out.set(acc, F * li++);
    const c = cnt[k]!;
    const r = i * F;
    for (let f = 0; f < F; f++) acc[f]! += c * X[r + f]!;
  }
  while (li < limits.length) out.set(acc, F * li++);
}

/**
 * Method `m`'s metrics from one row of sums (`sums[at…at+F)`): per tool [mae, rmse, pearson] at
 * 3·j…3·j+2, then the five METRICS (tool means as the report's `mean`; pair accuracy averaged
 * over pairs; NaN where undefined).
 */
export function metricsFrom(t: SeedTables, sums: Float64Array, at: number, m: number, out: Float64Array): void {
  const { T, P } = t;
  const o = at + sharedSize(T, P) + m * methodSize(T, P);
  let maeSum = 0;
  let rmseSum = 0;
  let rSum = 0;
  let nTools = 0;
  let rN = 0;
  for (let j = 0; j < T; j++) {
    const sw = sums[at + 3 * j]!;
    if (sw === 0) {
      out[3 * j] = out[3 * j + 1] = out[3 * j + 2] = NaN;
      continue;
    }
    const sy = sums[at + 3 * j + 1]!;
    const syy = sums[at + 3 * j + 2]!;
    const se = sums[o + 5 * j]!;
    const se2 = sums[o + 5 * j + 1]!;
    const sp = sums[o + 5 * j + 2]!;
    const spp = sums[o + 5 * j + 3]!;
    const spy = sums[o + 5 * j + 4]!;
    const mae = se / sw;
    const rmse = Math.sqrt(se2 / sw);
    const vp = spp - (sp * sp) / sw;
    const vy = syy - (sy * sy) / sw;
    // As metrics.pearson: a constant side (up to rounding) has no correlation.
    const r = vp > 1e-24 * sw && vp > 1e-12 * spp && vy > 1e-24 * sw && vy > 1e-12 * syy ? (spy - (sp * sy) / sw) / Math.sqrt(vp * vy) : NaN;
    out[3 * j] = mae;
    out[3 * j + 1] = rmse;
    out[3 * j + 2] = r;
    maeSum += mae;
    rmseSum += rmse;
    nTools++;
    if (Number.isFinite(r)) {
      rSum += r;
      rN++;
    }
  }
  let accSum = 0;
  let accN = 0;
  for (let q = 0; q < P; q++) {
    const su = sums[at + 3 * T + q]!;
    if (su > 0) {
      accSum += sums[o + 5 * T + q]! / su;
      accN++;
    }
  }
  const sw = sums[at + 3 * T + P + 2]!;
  const random = sums[at + 3 * T + P]! / sw;
  const oracle = sums[at + 3 * T + P + 1]! / sw;
  const selected = sums[o + 5 * T + P]! / sw;
  const b = 3 * T;
  out[b] = nTools ? maeSum / nTools : NaN;
  out[b + 1] = nTools ? rmseSum / nTools : NaN;
  out[b + 2] = rN ? rSum / rN : NaN;
  out[b + 3] = accN ? accSum / accN : NaN;
  out[b + 4] = sw > 0 && oracle - random > 1e-12 ? (selected - random) / (oracle - random) : NaN;
}
