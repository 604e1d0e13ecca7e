/**
 * The evaluation metrics, exactly as defined in docs/method.md:
 *
 *   MAE  = mean |pred − true|        RMSE = sqrt(mean (pred − true)²)        Pearson r(pred, true)
 *   Spearman = Pearson of the ranks (ties get their average rank).
 *
 * Pairs (A, B) over test tasks, kept only where true_A ≠ true_B (the set D):
 *   TP< = #{D: true_A < true_B and pred_A < pred_B}   P< = #{D: pred_A < pred_B}   R< = #{D: true_A < true_B}
 *   F1< = 2·TP< / (P< + R<)     (the same for ">")     Acc = (TP< + TP>) / |D|
 * A predicted tie (pred_A = pred_B) is never a true positive, so it counts as wrong in Acc.
 */

export interface RegressionMetrics {
  mae: number;
  rmse: number;
  /** NaN when either side is constant (undefined correlation). */
  pearson: number;
  spearman: number;
  n: number;
}

export function mae(pred: readonly number[], truth: readonly number[]): number {
  checkLengths(pred, truth);
  if (pred.length === 0) return NaN;
  let s = 0;
  for (let i = 0; i < pred.length; i++) s += Math.abs(pred[i]! - truth[i]!);
  return s / pred.length;
}

export function rmse(pred: readonly number[], truth: readonly number[]): number {
  checkLengths(pred, truth);
  if (pred.length === 0) return NaN;
  let s = 0;
  for (let i = 0; i < pred.length; i++) s += (pred[i]! - truth[i]!) ** 2;
  return Math.sqrt(s / pred.length);
}

/** Pearson correlation; NaN for fewer than 2 points or a constant side. */
export function pearson(x: readonly number[], y: readonly number[]): number {
  checkLengths(x, y);
  const n = x.length;
  if (n < 2) return NaN;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  // Relative threshold: a "constant" side that differs only by rounding noise has no correlation.
  const tiny = 1e-24 * n;
  if (sxx <= tiny || syy <= tiny) return NaN;
  return sxy / Math.sqrt(sxx * syy);
}

/** 1-based ranks; tied values share the mean of the ranks they span. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]![0] === order[start]![0]) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) out[order[k]![1]] = rank;
    start = end + 1;
  }
  return out;
}

export function spearman(x: readonly number[], y: readonly number[]): number {
  return pearson(ranks(x), ranks(y));
}

export function regressionMetrics(pred: readonly number[], truth: readonly number[]): RegressionMetrics {
  return { mae: mae(pred, truth), rmse: rmse(pred, truth), pearson: pearson(pred, truth), spearman: spearman(pred, truth), n: pred.length };
}

export interface PairCounts {
  /** |D|: tasks where the true scores differ. */
  nUnequal: number;
  tpLess: number;
  predLess: number;
  trueLess: number;
  tpGreater: number;
  predGreater: number;
  trueGreater: number;
  /** Predicted ties inside D (each counts as wrong). */
  predTies: number;
}

export interface PairMetrics extends PairCounts {
  acc: number;
  f1Less: number;
  f1Greater: number;
}

/** One observation of a pair on one task. */
export interface PairObservation {
  trueA: number;
  trueB: number;
  predA: number;
  predB: number;
}

export function pairCounts(obs: Iterable<PairObservation>): PairCounts {
  const c: PairCounts = { nUnequal: 0, tpLess: 0, predLess: 0, trueLess: 0, tpGreater: 0, predGreater: 0, trueGreater: 0, predTies: 0 };
  for (const o of obs) {
    if (o.trueA === o.trueB) continue;
    c.nUnequal++;
    const tl = o.trueA < o.trueB;
    const pl = o.predA < o.predB;
    const pg = o.predA > o.predB;
    if (tl) c.trueLess++;
    else c.trueGreater++;
    if (pl) c.predLess++;
    if (pg) c.predGreater++;
    if (!pl && !pg) c.predTies++;
    if (tl && pl) c.tpLess++;
    if (!tl && pg) c.tpGreater++;
  }
  return c;
}

/** F1 = 2·TP / (P + R); 0 when there is nothing predicted and nothing true (0/0). */
function f1(tp: number, p: number, r: number): number {
  return p + r === 0 ? 0 : (2 * tp) / (p + r);
}

export function pairMetrics(obs: Iterable<PairObservation>): PairMetrics {
  const c = pairCounts(obs);
  return {
    ...c,
    acc: c.nUnequal === 0 ? NaN : (c.tpLess + c.tpGreater) / c.nUnequal,
    f1Less: f1(c.tpLess, c.predLess, c.trueLess),
    f1Greater: f1(c.tpGreater, c.predGreater, c.trueGreater),
  };
}

/**
 * "Always pick the on-average-stronger tool": on D, the share of tasks where the tool with the
 * higher TRAINING mean has the higher true score. Equal training means pick neither (a tie,
 * counted wrong), consistent with the pair accuracy.
 */
export function alwaysStrongerAccuracy(
  trainMeanA: number,
  trainMeanB: number,
  truth: Iterable<{ trueA: number; trueB: number }>,
): { acc: number; nUnequal: number } {
  let n = 0;
  let right = 0;
  for (const t of truth) {
    if (t.trueA === t.trueB) continue;
    n++;
    if ((trainMeanA > trainMeanB && t.trueA > t.trueB) || (trainMeanB > trainMeanA && t.trueB > t.trueA)) right++;
  }
  return { acc: n === 0 ? NaN : right / n, nUnequal: n };
}

/** Mean and sample standard deviation (n − 1); sd is 0 for one value, NaNs are skipped. */
export function meanSd(values: readonly number[]): { mean: number; sd: number; n: number } {
  const v = values.filter((x) => !Number.isNaN(x));
  const n = v.length;
  if (n === 0) return { mean: NaN, sd: NaN, n };
  const m = v.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (n - 1)) : 0;
  return { mean: m, sd, n };
}

function checkLengths(a: readonly number[], b: readonly number[]): void {
  if (a.length !== b.length) throw new RangeError(`length mismatch: ${a.length} vs ${b.length}`);
}
