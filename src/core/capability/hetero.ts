/**
 * Split-half overdispersion of the claim contrasts (issue #34).
 *
 * A claim's interval assumes the tasks are independent draws and that the fit's standard error is
 * right. Where tasks are not (near-duplicate questions, a facet whose contrast rests on a handful of
 * heavy-tailed tasks, a text cue that cuts across groups of related tasks), the same contrast
 * measured on two random halves of the training tasks disagrees more than their standard errors
 * allow. Per tool × facet and per random split r, with the contrast c and its standard error s on
 * each half,
 *
 *   z² = (c_A − c_B)² / (s_A² + s_B²)        (E[z²] = 1 when the standard errors are right),
 *
 * and a facet's inflation is the mean z² over its tools and splits, pulled toward the table's mean
 * z² with a prior worth `PRIOR_PAIRS` pairs (a facet has few tools: alone its mean z² is noisy):
 *
 *   κ²_f = (Σ_f z² + ν·κ²_all) / (n_f + ν),     κ_f = √max(1, κ²_f).
 *
 * The claim's posterior sd and a new sample's standard error are multiplied by κ_f (never
 * narrowed), so a claim whose contrast does not repeat across halves of the data it was learnt on
 * loses its certainty before it is ever tested on unseen tasks. Only the training tasks are read.
 * Pure and deterministic (the halves come from a fixed seed per split).
 */
import { mulberry32 } from '../eval/rng';
import { moments } from '../memory/stat-tests';
import { latentContrast } from './latent-contrast';
import { sdOfCi95 } from './gauss';

/** Random splits of the training tasks into halves. */
export const SPLIT_HALVES = 8;
/** Weight of the table-wide mean z² in a facet's estimate, in pairs (tool × split) of evidence. */
export const PRIOR_PAIRS = 24;

/** A contrast and its standard error on one half (se Infinity or NaN: not measurable there). */
export interface HalfContrast {
  delta: number;
  se: number;
  /** Degrees of freedom of the standard error (Welch–Satterthwaite); absent: a likelihood fit's, taken as large. */
  df?: number;
}

/**
 * z² of one split's two halves, or null when either half has no finite, positive standard error.
 * With estimated variances (a Welch df on a half), z² has mean ≈ df / (df − 2) even when the
 * standard errors are right (Student's t²): it is divided by that, so small facets read 1 when
 * nothing is wrong. df is the Welch–Satterthwaite combination of the halves' (null below 3).
 */
export function splitZ2(a: HalfContrast, b: HalfContrast): number | null {
  const va = a.se * a.se;
  const vb = b.se * b.se;
  const v = va + vb;
  if (!(v > 0) || !Number.isFinite(v) || !Number.isFinite(a.delta) || !Number.isFinite(b.delta)) return null;
  const z2 = (a.delta - b.delta) ** 2 / v;
  if (a.df === undefined && b.df === undefined) return z2;
  const part = (x: number, df: number | undefined) => (df === undefined ? 0 : (x * x) / df);
  const df = (v * v) / (part(va, a.df) + part(vb, b.df));
  return df > 2 ? (z2 * (df - 2)) / df : null;
}

/**
 * Per facet, κ from its z² values (one list per facet, over tools and splits): the facet's mean z²
 * shrunk toward the mean over every facet with a prior worth `prior` pairs, floored at 1, square-rooted.
 */
export function inflations(z2: readonly (readonly number[])[], prior = PRIOR_PAIRS): number[] {
  const all = z2.flat();
  const overall = all.length ? all.reduce((a, b) => a + b, 0) / all.length : 1;
  return z2.map((list) => {
    const sum = list.reduce((a, b) => a + b, 0);
    return Math.sqrt(Math.max(1, (sum + prior * overall) / (list.length + prior)));
  });
}

/** Masks of `splits` random halves of n tasks (1: first half), the same for the same n and split index. */
export function halfMasks(n: number, splits = SPLIT_HALVES): Uint8Array[] {
  return Array.from({ length: splits }, (_, r) => {
    const rand = mulberry32(0x5eed + 7919 * r);
    const order = Array.from({ length: n }, (_, t) => t);
    for (let i = n - 1; i > 0; i--) {
      const k = Math.floor(rand() * (i + 1));
      [order[i], order[k]] = [order[k]!, order[i]!];
    }
    const mask = new Uint8Array(n);
    for (let i = 0; i < n >> 1; i++) mask[order[i]!] = 1;
    return mask;
  });
}

/**
 * The score-scale contrast on the tasks where `use` holds: mean of the response y inside the facet
 * minus outside it (NaN skipped), with its Welch standard error. Unscaled by the share outside (the
 * claim's facet-minus-overall form): two halves hold different shares, and z² compares like with like.
 */
export function welchContrast(y: ArrayLike<number>, member: ArrayLike<number>, use: ArrayLike<number>): HalfContrast {
  const inside: number[] = [];
  const outside: number[] = [];
  for (let t = 0; t < y.length; t++) {
    if (!use[t] || Number.isNaN(y[t]!)) continue;
    (member[t] ? inside : outside).push(y[t]!);
  }
  const a = moments(inside);
  const b = moments(outside);
  if (a.n < 2 || b.n < 2) return { delta: NaN, se: Infinity };
  const va = a.variance / a.n;
  const vb = b.variance / b.n;
  const v = va + vb;
  // Welch–Satterthwaite df (large when both variances are 0: nothing is estimated).
  const den = (va * va) / (a.n - 1) + (vb * vb) / (b.n - 1);
  return { delta: a.mean - b.mean, se: Math.sqrt(v), df: den > 0 ? (v * v) / den : Infinity };
}

/** The cells whose inflation is measured: tool j (row of the table) on facet f. */
export interface HalfCell {
  j: number;
  f: number;
}

/**
 * κ per facet (1 where the facet has no measurable cell) from `splits` random halves of the tasks.
 * Score scale: `y` holds the responses (advantages) and the contrast is Welch's; logit scale: `v`
 * holds oriented scores and the contrast is latent.ts's conditional-logit one on each half.
 */
export function facetInflation(
  input: { kind: 'score'; y: readonly ArrayLike<number>[] } | { kind: 'logit'; v: readonly ArrayLike<number>[] },
  x: readonly ArrayLike<number>[],
  cells: readonly HalfCell[],
  splits = SPLIT_HALVES,
): number[] {
  const n = x[0]?.length ?? 0;
  const z2: number[][] = x.map(() => []);
  for (const mask of halfMasks(n, splits)) {
    const other = Uint8Array.from(mask, (m) => 1 - m);
    const halves = [mask, other];
    const measure = input.kind === 'score' ? (c: HalfCell, h: Uint8Array) => welchContrast(input.y[c.j]!, x[c.f]!, h) : latentMeasure(input.v, x, halves);
    for (const c of cells) {
      const z = splitZ2(measure(c, mask), measure(c, other));
      if (z !== null) z2[c.f]!.push(z);
    }
  }
  return inflations(z2);
}

/** The latent contrast on one half (oriented scores outside it read as missing), unscaled by the share outside like welchContrast. */
function latentMeasure(v: readonly ArrayLike<number>[], x: readonly ArrayLike<number>[], halves: readonly Uint8Array[]) {
  const masked = new Map(halves.map((h) => [h, v.map((row) => Float64Array.from({ length: row.length }, (_, t) => (h[t] ? row[t]! : NaN)))]));
  return (c: HalfCell, h: Uint8Array): HalfContrast => {
    const table = masked.get(h)!;
    const r = latentContrast(table, c.j, x[c.f]!);
    // latentContrast scales by the share of the tool's paired tasks outside the facet: undo it.
    let paired = 0;
    for (let t = 0; t < table[c.j]!.length; t++) {
      if (Number.isNaN(table[c.j]![t]!)) continue;
      if (table.some((row, o) => o !== c.j && !Number.isNaN(row[t]!))) paired++;
    }
    const share = paired > 0 ? (paired - r.n) / paired : 0;
    if (!r.tested || !(share > 0)) return { delta: NaN, se: Infinity };
    return { delta: r.delta / share, se: sdOfCi95(r.ci95) / share };
  };
}
