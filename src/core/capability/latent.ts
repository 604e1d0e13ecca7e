/**
 * Contrasts on a latent (logit) scale, for pass/fail and other bounded scores (issue #34).
 *
 * On a probability scale a weak tool's gap to the others must shrink where every tool is near zero,
 * and a strong tool's where every tool is near one: "better than usual at hard tasks, though below
 * the others" restates a floor, not a trait. The Rasch-style model behind this module reads the data
 * on the logit scale, with each task's difficulty shared by the tools:
 *
 *   P(tool j passes task t) = σ(θ_j + Σ_f x_ft·δ_jf − b_t)
 *
 * Difficulty is removed exactly by conditioning: for two tools j, k on one task where exactly one
 * passes (more generally, where their scores differ),
 *
 *   P(j is the better one | they differ) = σ(θ_j − θ_k + Σ_f x_ft·(δ_jf − δ_kf)),
 *
 * which no longer contains b_t (conditional maximum likelihood, as for the Rasch model). Per tool j,
 * every such comparison with another tool k is one observation; the model fitted is
 *
 *   logit P(y = 1) = η_k + Σ_f x_ft·δ_f,      δ_f ~ N(0, τ²),   η_k flat
 *
 * (η_k: j's ability over k outside the facets; δ_f: j's facet effect beyond the other tools'). The
 * comparisons of one task share j's own score, so they are not independent: the likelihood is
 * tempered by the task-cluster dispersion φ_j = Σ_t (Σ_o r_o)² / Σ_t Σ_o p_o(1 − p_o) ≥ 1 (its
 * Pearson estimate from a first fit). τ² is shared by every tool and facet and chosen by the
 * Laplace approximation of the marginal likelihood (empirical Bayes, as shrink.ts does for scores).
 *
 * What a claim states is the facet-minus-overall contrast of j's log-odds over the others, c_f =
 * w_fᵀδ with w_fg = mean over f's tasks of x_g − mean over all of j's tasks of x_g (the statistic
 * `latentContrast` recomputes on unseen tasks); its posterior is normal (Laplace) with variance
 * w_fᵀ S w_f, S the δ block of the inverse Hessian. Pure and deterministic.
 */
import { cholesky, choleskySolve } from '../predict/linalg';
import { ci95Of, normalCdf } from './gauss';
import type { ShrunkCell } from './shrink';
import { sigmoid } from './score-calibration';

export interface LatentInput {
  /** v[j][t]: tool j's oriented score on task t (NaN where missing). */
  v: readonly ArrayLike<number>[];
  /** x[f][t] ∈ {0, 1}: facet membership over the same tasks. */
  x: readonly ArrayLike<number>[];
  /** Fixed prior variance (skips the marginal-likelihood search), e.g. for tests. */
  tau2?: number;
  /** Fixed dispersion per tool (skips its estimate), e.g. 1 for independent comparisons in tests. */
  phi?: readonly number[];
  /**
   * Per facet, the index of its group (its kind: tag, cue, theme). When set, each group's prior
   * variance is τ²·r_g with r_g chosen by the same Laplace evidence (`kindRatios`); unset: one τ².
   */
  groups?: readonly number[];
}

/** A shrunk cell on the log-odds scale (the same posterior summary as shrink.ts's), with the raw spread of a new sample. */
export interface LatentCell extends ShrunkCell {
  /** Standard error of the contrast estimated on a sample of this size without the prior (a new sample's spread). */
  seRaw: number;
}

export interface LatentResult {
  tau2: number;
  /** Per group, its prior variance ratio r_g (all 1 without groups). */
  ratios: number[];
  phi: number[];
  /** cells[j][f]; null where the tool has no comparison. */
  cells: (LatentCell | null)[][];
}

/** Comparisons of one tool, grouped by task (flat arrays: the fit loops over them many times). */
export interface ToolComparisons {
  /** Tasks where the tool is scored with at least one other tool. */
  paired: number[];
  /** Per group (a task with comparisons): its task index and its first comparison (group g: start[g] … start[g + 1] − 1). */
  task: Int32Array;
  start: Int32Array;
  /** Per comparison: the other tool (compact index) and the outcome (1: this tool scored higher). */
  k: Int32Array;
  y: Uint8Array;
  /** Facets active on each group's task. */
  active: Int32Array[];
  others: number;
}

const logSigmoid = (z: number) => (z >= 0 ? -Math.log1p(Math.exp(-z)) : z - Math.log1p(Math.exp(z)));

/** Tool j's comparisons with every other tool, over the tasks where `use` holds. */
export function comparisons(
  v: readonly ArrayLike<number>[],
  j: number,
  x: readonly ArrayLike<number>[],
  use: (t: number) => boolean = () => true,
): ToolComparisons {
  const J = v.length;
  const n = v[j]!.length;
  const paired: number[] = [];
  const task: number[] = [];
  const start: number[] = [];
  const k: number[] = [];
  const y: number[] = [];
  const active: Int32Array[] = [];
  for (let t = 0; t < n; t++) {
    const a = v[j]![t]!;
    if (Number.isNaN(a) || !use(t)) continue;
    const before = k.length;
    let scored = 0;
    for (let o = 0, c = 0; o < J; o++) {
      if (o === j) continue;
      const b = v[o]![t]!;
      if (!Number.isNaN(b)) {
        scored++;
        if (b !== a) {
          k.push(c);
          y.push(a > b ? 1 : 0);
        }
      }
      c++;
    }
    if (scored === 0) continue;
    paired.push(t);
    if (k.length === before) continue;
    task.push(t);
    start.push(before);
    active.push(Int32Array.from(x.flatMap((row, f) => (row[t] ? [f] : []))));
  }
  start.push(k.length);
  return { paired, task: Int32Array.from(task), start: Int32Array.from(start), k: Int32Array.from(k), y: Uint8Array.from(y), active, others: J - 1 };
}

export interface Fit {
  theta: Float64Array;
  /** Negative Hessian of the tempered log posterior (P × P) and its Cholesky factor. */
  h: Float64Array;
  l: Float64Array;
  loglik: number;
}

/**
 * Penalised Newton fit of one tool: parameters [η_0 … η_{K−1}, δ_0 … δ_{F−1}]; the likelihood
 * divided by φ, δ with prior precision 1/τ² (η a tiny ridge, so a tool never compared with some
 * other stays finite).
 */
export function fitTool(c: ToolComparisons, F: number, tau2: number | ArrayLike<number>, phi: number, init?: Float64Array): Fit {
  const K = c.others;
  const P = K + F;
  const theta = init ? Float64Array.from(init) : new Float64Array(P);
  const groups = c.task.length;
  let last: Fit | null = null;
  for (let it = 0; it < 50; it++) {
    const g = new Float64Array(P);
    const h = new Float64Array(P * P);
    let loglik = 0;
    for (let i = 0; i < groups; i++) {
      const act = c.active[i]!;
      let base = 0;
      for (let a = 0; a < act.length; a++) base += theta[K + act[a]!]!;
      let wSum = 0;
      let rSum = 0;
      for (let o = c.start[i]!; o < c.start[i + 1]!; o++) {
        const k = c.k[o]!;
        const eta = theta[k]! + base;
        const p = sigmoid(eta);
        const y = c.y[o]!;
        loglik += y ? logSigmoid(eta) : logSigmoid(-eta);
        const r = y - p;
        const w = p * (1 - p);
        g[k] = g[k]! + r;
        h[k * P + k] = h[k * P + k]! + w;
        for (let a = 0; a < act.length; a++) h[k * P + K + act[a]!] = h[k * P + K + act[a]!]! + w;
        wSum += w;
        rSum += r;
      }
      for (let a = 0; a < act.length; a++) {
        const f = K + act[a]!;
        g[f] = g[f]! + rSum;
        for (let b = 0; b < act.length; b++) h[f * P + K + act[b]!] = h[f * P + K + act[b]!]! + wSum;
      }
    }
    // Mirror the η–δ block (accumulated above the diagonal only), temper by φ, add the prior.
    for (let k = 0; k < K; k++) for (let f = K; f < P; f++) h[f * P + k] = h[k * P + f]!;
    let penalty = 0;
    for (let i = 0; i < P; i++) {
      g[i] = g[i]! / phi;
      for (let q = 0; q < P; q++) h[i * P + q] = h[i * P + q]! / phi;
      const prec = i < K ? 1e-6 : 1 / (typeof tau2 === 'number' ? tau2 : tau2[i - K]!);
      g[i] = g[i]! - prec * theta[i]!;
      h[i * P + i] = h[i * P + i]! + prec;
      penalty += 0.5 * prec * theta[i]! ** 2;
    }
    const l = cholesky(h, P);
    last = { theta: Float64Array.from(theta), h, l, loglik: loglik / phi - penalty };
    const step = choleskySolve(l, P, g);
    let size = 0;
    for (let i = 0; i < P; i++) {
      // A damped step: logistic Newton steps can overshoot far from the optimum.
      const s = Math.max(-5, Math.min(5, step[i]!));
      theta[i] = theta[i]! + s;
      size = Math.max(size, Math.abs(s));
    }
    if (size < 1e-7) break;
  }
  return { ...last!, theta };
}

/** Task-cluster dispersion of a fit (Pearson), at least 1. */
export function dispersion(c: ToolComparisons, theta: Float64Array): number {
  const K = c.others;
  let num = 0;
  let den = 0;
  for (let i = 0; i < c.task.length; i++) {
    let base = 0;
    for (const f of c.active[i]!) base += theta[K + f]!;
    let r = 0;
    for (let o = c.start[i]!; o < c.start[i + 1]!; o++) {
      const p = sigmoid(theta[c.k[o]!]! + base);
      r += c.y[o]! - p;
      den += p * (1 - p);
    }
    num += r * r;
  }
  return den > 0 ? Math.max(1, num / den) : 1;
}

/** log det from a Cholesky factor. */
function logDet(l: Float64Array, P: number): number {
  let s = 0;
  for (let i = 0; i < P; i++) s += 2 * Math.log(l[i * P + i]!);
  return s;
}

/** Laplace log marginal likelihood of one tool at τ² (up to a constant), with its fit. */
function evidence(c: ToolComparisons, F: number, tau2: number | ArrayLike<number>, phi: number, init?: Float64Array): { value: number; fit: Fit } {
  const fit = fitTool(c, F, tau2, phi, init);
  const P = c.others + F;
  // fit.loglik already holds −½ Σ prec θ²; the δ prior's normalising constant is −½ Σ_f log τ²_f.
  let logPrior = 0;
  for (let f = 0; f < F; f++) logPrior += Math.log(typeof tau2 === 'number' ? tau2 : tau2[f]!);
  return { value: fit.loglik - 0.5 * logPrior - 0.5 * logDet(fit.l, P), fit };
}

/** Contrast weights of facet f over tool j's paired tasks: mean over f's tasks of x_g − overall mean of x_g. */
function contrastWeights(x: readonly ArrayLike<number>[], paired: readonly number[], f: number): Float64Array | null {
  const F = x.length;
  const all = new Float64Array(F);
  const inside = new Float64Array(F);
  let m = 0;
  for (const t of paired) {
    const on = x[f]![t]! > 0;
    if (on) m++;
    for (let g = 0; g < F; g++) {
      all[g] = all[g]! + x[g]![t]!;
      if (on) inside[g] = inside[g]! + x[g]![t]!;
    }
  }
  if (m === 0 || paired.length === 0) return null;
  return Float64Array.from({ length: F }, (_, g) => inside[g]! / m - all[g]! / paired.length);
}

/** Σ p(1 − p) over a tool's comparisons inside and outside facet f (information of a single-facet contrast). */
function facetInformation(c: ToolComparisons, theta: Float64Array, f: number): { inside: number; outside: number } {
  const K = c.others;
  let inside = 0;
  let outside = 0;
  for (let i = 0; i < c.task.length; i++) {
    const act = c.active[i]!;
    let base = 0;
    for (const e of act) base += theta[K + e]!;
    let w = 0;
    for (let o = c.start[i]!; o < c.start[i + 1]!; o++) {
      const p = sigmoid(theta[c.k[o]!]! + base);
      w += p * (1 - p);
    }
    if (act.includes(f)) inside += w;
    else outside += w;
  }
  return { inside, outside };
}

function cellOf(c: ToolComparisons, x: readonly ArrayLike<number>[], fit: Fit, phi: number, f: number): LatentCell | null {
  const F = x.length;
  const K = c.others;
  const P = K + F;
  const w = contrastWeights(x, c.paired, f);
  if (!w) return null;
  let mean = 0;
  const full = new Float64Array(P);
  for (let g = 0; g < F; g++) {
    mean += w[g]! * fit.theta[K + g]!;
    full[K + g] = w[g]!;
  }
  const s = choleskySolve(fit.l, P, full);
  let variance = 0;
  for (let i = 0; i < P; i++) variance += full[i]! * s[i]!;
  const sd = Math.sqrt(Math.max(0, variance));
  const unit = new Float64Array(P);
  unit[K + f] = 1;
  const psd = Math.sqrt(Math.max(0, choleskySolve(fit.l, P, unit)[K + f]!));
  const partial = fit.theta[K + f]!;
  // A new sample of the same size: the single-facet contrast's standard error without the prior,
  // scaled to facet-minus-overall (share of the tool's tasks outside the facet).
  const info = facetInformation(c, fit.theta, f);
  let m = 0;
  for (const t of c.paired) if (x[f]![t]! > 0) m++;
  const out = (c.paired.length - m) / c.paired.length;
  const seRaw = info.inside > 0 && info.outside > 0 ? out * Math.sqrt(phi * (1 / info.inside + 1 / info.outside)) : Infinity;
  return {
    mean,
    sd,
    ci95: ci95Of(mean, sd),
    lfsr: sd > 0 ? normalCdf(-Math.abs(mean) / sd) : mean === 0 ? 0.5 : 0,
    partial,
    partialLfsr: psd > 0 ? normalCdf(-Math.abs(partial) / psd) : 0.5,
    seRaw,
  };
}

/** The shared τ² maximising Σ_j Laplace evidence: a log grid, then golden section around the best point. */
function fitTau2(tools: readonly (ToolComparisons | null)[], F: number, phi: readonly number[]): number {
  return searchLog(
    evidenceOver(tools, F, phi, (t2) => t2),
    Array.from({ length: 9 }, (_, i) => 10 ** (-4 + (i * 2) / 3)),
  );
}

/** Σ_j Laplace evidence as a function of one scalar that `variances` maps to the prior (warm-started). */
function evidenceOver(
  tools: readonly (ToolComparisons | null)[],
  F: number,
  phi: readonly number[],
  variances: (x: number) => number | ArrayLike<number>,
): (x: number) => number {
  const warm: (Float64Array | undefined)[] = tools.map(() => undefined);
  return (x: number) =>
    tools.reduce((s, c, j) => {
      if (!c) return s;
      const e = evidence(c, F, variances(x), phi[j]!, warm[j]);
      warm[j] = e.fit.theta;
      return s + e.value;
    }, 0);
}

/**
 * Per group g, the ratio r_g of its prior variance to τ² that maximises the Laplace evidence, one
 * group at a time with the others held (two sweeps, each over a log grid 0.01–100 refined by
 * golden section). A group whose facets carry no effects is pulled toward 0.01 (shrunk harder),
 * one whose facets carry large effects toward 100.
 */
function kindRatios(tools: readonly (ToolComparisons | null)[], F: number, phi: readonly number[], tau2: number, groups: readonly number[]): number[] {
  const G = Math.max(0, ...groups) + 1;
  const ratios = new Array<number>(G).fill(1);
  const grid = Array.from({ length: 9 }, (_, i) => 10 ** (-2 + i / 2));
  for (let sweep = 0; sweep < 2; sweep++) {
    for (let g = 0; g < G; g++) {
      if (!groups.includes(g)) continue;
      const variances = (r: number) => Float64Array.from(groups, (h) => tau2 * (h === g ? r : ratios[h]!));
      ratios[g] = searchLog(evidenceOver(tools, F, phi, variances), grid);
    }
  }
  return ratios;
}

/** The maximiser of `total` over a log grid, refined by golden section on the log scale between the best point's neighbours. */
function searchLog(total: (x: number) => number, grid: readonly number[]): number {
  let best = 0;
  let bestValue = -Infinity;
  grid.forEach((t2, i) => {
    const v = total(t2);
    if (v > bestValue + 1e-9) {
      bestValue = v;
      best = i;
    }
  });
  let lo = Math.log(grid[Math.max(0, best - 1)]!);
  let hi = Math.log(grid[Math.min(grid.length - 1, best + 1)]!);
  // Golden section on log τ² (one new evaluation per step).
  const phiG = (Math.sqrt(5) - 1) / 2;
  let a = hi - phiG * (hi - lo);
  let b = lo + phiG * (hi - lo);
  let fa = total(Math.exp(a));
  let fb = total(Math.exp(b));
  for (let i = 0; i < 6; i++) {
    if (fa >= fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - phiG * (hi - lo);
      fa = total(Math.exp(a));
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + phiG * (hi - lo);
      fb = total(Math.exp(b));
    }
  }
  return Math.exp((lo + hi) / 2);
}

export function latentCells(input: LatentInput): LatentResult {
  const F = input.x.length;
  const tools = input.v.map((_, j) => {
    const c = comparisons(input.v, j, input.x);
    return c.task.length > 0 ? c : null;
  });
  // Dispersion from a weakly penalised first fit (τ² = 1 on the logit scale).
  const phi = tools.map((c, j) => input.phi?.[j] ?? (c ? dispersion(c, fitTool(c, F, 1, 1).theta) : 1));
  const tau2 = input.tau2 ?? fitTau2(tools, F, phi);
  const groups = input.groups;
  const ratios = groups && groups.length === F ? kindRatios(tools, F, phi, tau2, groups) : [1];
  const prior = groups && groups.length === F ? Float64Array.from(groups, (g) => tau2 * ratios[g]!) : tau2;
  const cells = tools.map((c, j) => {
    if (!c) return Array.from({ length: F }, () => null);
    const fit = fitTool(c, F, prior, phi[j]!);
    return Array.from({ length: F }, (_, f) => cellOf(c, input.x, fit, phi[j]!, f));
  });
  return { tau2, ratios, phi, cells };
}
