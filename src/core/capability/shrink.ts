/**
 * Shrunk claims (issue #25): empirical-Bayes estimates of every tool × facet contrast, so that what
 * an entry claims is not the raw size of the largest of many noisy tests (the winner's curse).
 *
 * Per tool j, over the tasks where j is paired with at least one other tool, the response is the
 * tool's advantage y_t = v_jt − mean of the other tools on t (its own oriented score with one tool),
 * regressed on ALL facet indicators at once:
 *
 *   y − ȳ = (X − x̄)·θ_j + ε,     ε ~ N(0, σ_j²·I),     θ_jf ~ N(0, τ²)
 *
 * One prior variance τ² is shared by every tool and facet of the memory; τ² and each σ_j² are chosen
 * by maximising the marginal likelihood (empirical Bayes; Gaussian, closed form through the
 * eigen-decomposition of XᵀX). Optionally (`groups`, claims.ts `kindPrior`, off by default) each
 * group of facets — a facet kind — has its own prior variance τ²·r_group, by the same criterion.
 * Fitting all facets jointly matters: facets overlap (a tag and a cue for the same thing, "scene"
 * inside "basic"), so one underlying effect is counted once, and a tool's cells share its baseline
 * through the intercept.
 *
 * What an entry claims is the contrast verification recomputes on unseen tasks — the facet's mean
 * advantage minus the overall mean advantage — implied by the posterior: c_f = w_fᵀθ with
 * w_fg = mean over f's tasks of x_g − mean over all tasks of x_g. Its posterior is normal with mean
 * w_fᵀm and variance w_fᵀSw_f; the 95% credible interval is mean ± 1.96 sd and the local false sign
 * rate is lfsr = Φ(−|mean| / sd), the posterior probability that the claimed sign is wrong. The
 * facet's own coefficient θ_jf (its effect beyond the facets it overlaps) is reported beside it.
 * Pure and deterministic.
 */
import { ci95Of, normalCdf, symmetricEigen } from './gauss';

export interface ShrinkInput {
  /** y[j][t]: tool j's response on task t (NaN where the tool is not paired on t). */
  y: readonly ArrayLike<number>[];
  /** x[f][t] ∈ {0, 1}: facet membership over the same tasks. */
  x: readonly ArrayLike<number>[];
  /** Fixed prior variance (skips the marginal-likelihood search), e.g. for tests. */
  tau2?: number;
  /** Fixed noise variance per tool (skips its search), e.g. for tests. */
  sigma2?: readonly number[];
  /**
   * Per facet, its group (e.g. its kind: dataset tag, text cue, theme; 0, 1, …). With groups, facet
   * f's prior variance is τ²·r_group(f): the ratios are chosen by marginal likelihood (the first
   * facet's group fixed at 1) unless `ratios` gives them. Without groups: one τ² for every facet.
   */
  groups?: readonly number[];
  /** Fixed prior-variance ratio per group (skips their search), e.g. for tests. */
  ratios?: readonly number[];
}

export interface ShrunkCell {
  /** Posterior of the implied facet-minus-overall contrast (what a claim states). */
  mean: number;
  sd: number;
  ci95: [number, number];
  lfsr: number;
  /** The facet's own coefficient (beyond the facets it overlaps): posterior mean and lfsr. */
  partial: number;
  partialLfsr: number;
}

export interface ShrinkResult {
  tau2: number;
  /** Prior-variance ratio per group (facet f's prior variance is τ²·ratios[groups[f]]); [] without groups. */
  ratios: number[];
  sigma2: number[];
  /** cells[j][f]; null where the tool has fewer than 3 paired tasks. */
  cells: (ShrunkCell | null)[][];
}

interface ToolData {
  n: number;
  rows: number[];
  yy: number;
  d: Float64Array;
  u: Float64Array;
  z: Float64Array;
  /** w[f] over this tool's rows (F × F, row f = the contrast vector of facet f). */
  w: Float64Array;
  variance: number;
}

/** What a tool's fit needs from the data, before any per-kind rescaling of the facet columns. */
interface Moments {
  n: number;
  rows: number[];
  yy: number;
  /** Centred cross-products XᵀX (F × F) and Xᵀy. */
  k: Float64Array;
  xy: Float64Array;
  w: Float64Array;
  variance: number;
}

function moments(y: ArrayLike<number>, x: readonly ArrayLike<number>[]): Moments | null {
  const F = x.length;
  const rows: number[] = [];
  for (let t = 0; t < y.length; t++) if (!Number.isNaN(y[t]!)) rows.push(t);
  const n = rows.length;
  if (n < 3) return null;
  const ym = rows.reduce((s, t) => s + y[t]!, 0) / n;
  const xm = x.map((row) => rows.reduce((s, t) => s + row[t]!, 0) / n);
  let yy = 0;
  for (const t of rows) yy += (y[t]! - ym) ** 2;
  // Centred values over this tool's rows, computed once (the products below read each F times).
  const cx = new Float64Array(F * n);
  for (let f = 0; f < F; f++) for (let i = 0; i < n; i++) cx[f * n + i] = x[f]![rows[i]!]! - xm[f]!;
  const cy = Float64Array.from(rows, (t) => y[t]! - ym);
  const k = new Float64Array(F * F);
  const xy = new Float64Array(F);
  for (let f = 0; f < F; f++) {
    const rf = f * n;
    for (let i = 0; i < n; i++) xy[f] = xy[f]! + cx[rf + i]! * cy[i]!;
    for (let g = f; g < F; g++) {
      const rg = g * n;
      let s = 0;
      for (let i = 0; i < n; i++) s += cx[rf + i]! * cx[rg + i]!;
      k[f * F + g] = s;
      k[g * F + f] = s;
    }
  }
  // Contrast vectors: for facet f, w_g = mean over f's rows of x_g − overall mean of x_g.
  const w = new Float64Array(F * F);
  for (let f = 0; f < F; f++) {
    let m = 0;
    const sums = new Float64Array(F);
    for (const t of rows) {
      if (!x[f]![t]) continue;
      m++;
      for (let g = 0; g < F; g++) sums[g] = sums[g]! + x[g]![t]!;
    }
    if (m === 0) continue;
    for (let g = 0; g < F; g++) w[f * F + g] = sums[g]! / m - xm[g]!;
  }
  return { n, rows, yy, k, xy, w, variance: yy / Math.max(1, n - 1) };
}

/**
 * The eigen-decomposition the closed form reads, with facet column f scaled by s_f (θ_f = s_f·φ_f,
 * φ ~ N(0, τ²): a prior variance τ²·s_f² per facet). Scaling X by D = diag(s) gives DKD and D·Xᵀy,
 * and the contrast wᵀθ = (Dw)ᵀφ, so the posterior of φ is today's and maps back exactly.
 */
function decompose(m: Moments, s: ArrayLike<number> | null): ToolData {
  const F = m.xy.length;
  const sc = (f: number) => (s ? s[f]! : 1);
  const k = s ? Float64Array.from(m.k, (v, i) => v * sc(Math.floor(i / F)) * sc(i % F)) : m.k;
  const xy = s ? Float64Array.from(m.xy, (v, f) => v * sc(f)) : m.xy;
  const w = s ? Float64Array.from(m.w, (v, i) => v * sc(i % F)) : m.w;
  const { values: d, vectors: u } = symmetricEigen(k, F);
  const z = new Float64Array(F);
  for (let i = 0; i < F; i++) {
    let acc = 0;
    for (let f = 0; f < F; f++) acc += u[f * F + i]! * xy[f]!;
    z[i] = acc;
  }
  for (let i = 0; i < F; i++) d[i] = Math.max(0, d[i]!);
  return { n: m.n, rows: m.rows, yy: m.yy, d, u, z, w, variance: m.variance };
}

function prepare(y: ArrayLike<number>, x: readonly ArrayLike<number>[]): ToolData | null {
  const m = moments(y, x);
  return m ? decompose(m, null) : null;
}

/** −2 · log marginal likelihood (up to a constant) of one tool for (τ², σ²); the centring costs one df. */
function deviance(td: ToolData, tau2: number, sigma2: number): number {
  let logdet = (td.n - 1) * Math.log(sigma2);
  let fitted = 0;
  const lambda = sigma2 / tau2;
  for (let i = 0; i < td.d.length; i++) {
    logdet += Math.log(1 + td.d[i]! / lambda);
    fitted += td.z[i]! ** 2 / (td.d[i]! + lambda);
  }
  return logdet + Math.max(0, td.yy - fitted) / sigma2;
}

/** σ² minimising the deviance at this τ² (golden section on log σ²). */
function bestSigma2(td: ToolData, tau2: number): { sigma2: number; dev: number } {
  const v = Math.max(td.variance, 1e-12);
  let lo = Math.log(v * 1e-3);
  let hi = Math.log(v * 1.5);
  const g = (Math.sqrt(5) - 1) / 2;
  let a = hi - g * (hi - lo);
  let b = lo + g * (hi - lo);
  let fa = deviance(td, tau2, Math.exp(a));
  let fb = deviance(td, tau2, Math.exp(b));
  for (let i = 0; i < 50; i++) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - g * (hi - lo);
      fa = deviance(td, tau2, Math.exp(a));
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + g * (hi - lo);
      fb = deviance(td, tau2, Math.exp(b));
    }
  }
  const s = Math.exp((lo + hi) / 2);
  return { sigma2: s, dev: deviance(td, tau2, s) };
}

function totalDeviance(tools: readonly (ToolData | null)[], tau2: number): number {
  return tools.reduce((s, td) => s + (td ? bestSigma2(td, tau2).dev : 0), 0);
}

/** The shared τ² by marginal likelihood: a log grid, then golden section around the best point. */
function fitTau2(tools: readonly (ToolData | null)[]): number {
  const scale = Math.max(1e-12, ...tools.map((t) => t?.variance ?? 0));
  // τ² is a coefficient's variance: it can exceed the response's (a facet on few tasks with a big effect).
  const grid = Array.from({ length: 37 }, (_, i) => scale * 10 ** (-6 + (i * 9) / 36));
  let best = 0;
  let bestDev = Infinity;
  grid.forEach((t2, i) => {
    const dev = totalDeviance(tools, t2);
    if (dev < bestDev - 1e-9) {
      bestDev = dev;
      best = i;
    }
  });
  let lo = Math.log(grid[Math.max(0, best - 1)]!);
  let hi = Math.log(grid[Math.min(grid.length - 1, best + 1)]!);
  for (let i = 0; i < 30; i++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    if (totalDeviance(tools, Math.exp(m1)) <= totalDeviance(tools, Math.exp(m2))) hi = m2;
    else lo = m1;
  }
  return Math.exp((lo + hi) / 2);
}

/** −2 · log marginal likelihood of tool `j` at (τ², σ²), up to a constant: what the fit minimises. */
export function shrinkDeviance(input: ShrinkInput, j: number, tau2: number, sigma2: number): number {
  const td = prepare(input.y[j]!, input.x);
  return td ? deviance(td, tau2, sigma2) : NaN;
}

/** Log₁₀ grid of a group's prior-variance ratio (1/100 … 100, half a decade apart). */
const RATIO_GRID = Array.from({ length: 9 }, (_, i) => 10 ** (-2 + i / 2));

interface Prior {
  tools: (ToolData | null)[];
  tau2: number;
  ratios: number[];
  /** Per facet, √ratio of its group (null: one τ²). */
  scale: Float64Array | null;
}

/**
 * τ² and, with groups, each group's ratio by marginal likelihood: coordinate search over the
 * groups other than the first facet's (two passes over a log grid; τ² and every σ_j² refitted at
 * each point), keeping the current ratio on ties: up to 16 extra fits per free group, each as cheap
 * as today's one (a GenAI-Bench claims build about 2× as long).
 */
function priorOf(input: ShrinkInput): Prior {
  const groups = input.groups;
  if (!groups?.length) {
    const tools = input.y.map((y) => prepare(y, input.x));
    return { tools, tau2: input.tau2 ?? fitTau2(tools), ratios: [], scale: null };
  }
  const mom = input.y.map((y) => moments(y, input.x));
  const G = Math.max(...groups) + 1;
  const at = (ratios: readonly number[]) => {
    const scale = Float64Array.from(groups, (g) => Math.sqrt(ratios[g]!));
    const tools = mom.map((m) => (m ? decompose(m, scale) : null));
    const tau2 = input.tau2 ?? fitTau2(tools);
    return { tools, tau2, ratios: [...ratios], scale, dev: totalDeviance(tools, tau2) };
  };
  let best = at(input.ratios ?? Array.from({ length: G }, () => 1));
  if (input.ratios) return best;
  const free = [...new Set(groups)].filter((g) => g !== groups[0]);
  for (let pass = 0; pass < 2; pass++) {
    for (const g of free) {
      for (const r of RATIO_GRID) {
        if (r === best.ratios[g]) continue;
        const next = at(best.ratios.map((v, h) => (h === g ? r : v)));
        if (next.dev < best.dev - 1e-9) best = next;
      }
    }
  }
  return best;
}

export function shrinkCells(input: ShrinkInput): ShrinkResult {
  const F = input.x.length;
  const { tools, tau2, ratios, scale } = priorOf(input);
  const fixed = input.sigma2;
  const sigma2: number[] = [];
  const cells = tools.map((td) => {
    if (!td) {
      sigma2.push(NaN);
      return Array.from({ length: F }, () => null);
    }
    const s2 = fixed?.[sigma2.length] ?? bestSigma2(td, tau2).sigma2;
    sigma2.push(s2);
    const lambda = s2 / tau2;
    // Posterior: m = U·diag(1/(d+λ))·z, S = σ²·U·diag(1/(d+λ))·Uᵀ.
    const inv = Float64Array.from(td.d, (d) => 1 / (d + lambda));
    const coef = new Float64Array(F);
    for (let f = 0; f < F; f++) {
      let s = 0;
      for (let i = 0; i < F; i++) s += td.u[f * F + i]! * inv[i]! * td.z[i]!;
      coef[f] = s;
    }
    const out: ShrunkCell[] = [];
    const proj = new Float64Array(F);
    for (let f = 0; f < F; f++) {
      let mean = 0;
      for (let g = 0; g < F; g++) mean += td.w[f * F + g]! * coef[g]!;
      // Var(wᵀθ) = σ²·Σ_i (u_iᵀw)²/(d_i+λ).
      let v = 0;
      for (let i = 0; i < F; i++) {
        let s = 0;
        for (let g = 0; g < F; g++) s += td.u[g * F + i]! * td.w[f * F + g]!;
        proj[i] = s;
        v += s * s * inv[i]!;
      }
      const sd = Math.sqrt(Math.max(0, s2 * v));
      let pv = 0;
      for (let i = 0; i < F; i++) pv += td.u[f * F + i]! ** 2 * inv[i]!;
      const psd = Math.sqrt(Math.max(0, s2 * pv));
      out.push({
        mean,
        sd,
        ci95: ci95Of(mean, sd),
        lfsr: sd > 0 ? normalCdf(-Math.abs(mean) / sd) : mean === 0 ? 0.5 : 0,
        // θ_f = s_f·φ_f: the same lfsr, the mean mapped back.
        partial: coef[f]! * (scale?.[f] ?? 1),
        partialLfsr: psd > 0 ? normalCdf(-Math.abs(coef[f]!) / psd) : 0.5,
      });
    }
    return out;
  });
  return { tau2, ratios, sigma2, cells };
}
