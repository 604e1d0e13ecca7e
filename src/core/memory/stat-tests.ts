/**
 * Small statistics for evidence clusters: mean/variance, Welch's t-test (two-sided p from the
 * Student t distribution via the regularised incomplete beta function), Cohen's d, and
 * Benjamini–Hochberg adjustment. Pure numeric code, no dependencies.
 */

export interface Moments {
  n: number;
  mean: number;
  /** Sample variance (n − 1 denominator); 0 when n < 2. */
  variance: number;
}

/** Mean and sample variance of values[0 … n) (all of them by default; a caller's reused buffer passes its fill). */
export function moments(values: ArrayLike<number>, n = values.length): Moments {
  if (n === 0) return { n: 0, mean: NaN, variance: 0 };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  const mean = sum / n;
  if (n < 2) return { n, mean, variance: 0 };
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (values[i]! - mean) ** 2;
  return { n, mean, variance: squares / (n - 1) };
}

/** ln Γ(x), Lanczos approximation (g = 7), accurate to ~1e-15 for x > 0. */
function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-14) break;
  }
  return h;
}

/** Regularised incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(a, b, x)) / a : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** Two-sided p-value of a t statistic with `df` degrees of freedom. */
export function tTestP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  if (!(df > 0)) return 1;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

export interface WelchResult {
  t: number;
  df: number;
  /** Two-sided. */
  p: number;
}

/** Welch's unequal-variance t-test of mean(a) vs mean(b). */
export function welch(a: Moments, b: Moments): WelchResult {
  if (a.n < 2 || b.n < 2) return { t: 0, df: 0, p: 1 };
  const va = a.variance / a.n;
  const vb = b.variance / b.n;
  const se = Math.sqrt(va + vb);
  if (se === 0) return a.mean === b.mean ? { t: 0, df: a.n + b.n - 2, p: 1 } : { t: a.mean > b.mean ? Infinity : -Infinity, df: a.n + b.n - 2, p: 0 };
  const t = (a.mean - b.mean) / se;
  const df = (va + vb) ** 2 / ((va * va) / (a.n - 1) + (vb * vb) / (b.n - 1));
  return { t, df, p: tTestP(t, df) };
}

/** Cohen's d of a vs b with the pooled standard deviation (0 when both are constant and equal). */
export function cohensD(a: Moments, b: Moments): number {
  const pooled = Math.sqrt(((a.n - 1) * a.variance + (b.n - 1) * b.variance) / Math.max(1, a.n + b.n - 2));
  if (pooled === 0) return a.mean === b.mean ? 0 : Math.sign(a.mean - b.mean) * Infinity;
  return (a.mean - b.mean) / pooled;
}

/** Benjamini–Hochberg adjusted p-values (same order as the input). */
export function benjaminiHochberg(ps: readonly number[]): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  const out = new Array<number>(m);
  let running = 1;
  for (let r = m - 1; r >= 0; r--) {
    const { p, i } = order[r]!;
    running = Math.min(running, (p * m) / (r + 1));
    out[i] = running;
  }
  return out;
}
