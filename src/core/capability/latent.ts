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
 * Laplace approximation of the marginal likelihood (empirical Bayes, as shrink.ts does for scores);
 * with facet groups (`kindPrior`) each group's prior variance is τ² times its own ratio, chosen the
 * same way. The fit is latent-fit.ts, the choice of prior latent-prior.ts; the cells are here.
 *
 * What a claim states is the facet-minus-overall contrast of j's log-odds over the others, c_f =
 * w_fᵀδ with w_fg = mean over f's tasks of x_g − mean over all of j's tasks of x_g (the statistic
 * `latentContrast` recomputes on unseen tasks); its posterior is normal (Laplace) with variance
 * w_fᵀ S w_f, S the δ block of the inverse Hessian. Pure and deterministic.
 */
import { choleskySolve } from '../predict/linalg';
import { ci95Of, normalCdf } from './gauss';
import { comparisons, dispersion, fitTool, type Fit, type ToolComparisons } from './latent-fit';
import { fitTau2, kindRatios } from './latent-prior';
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

export function latentCells(input: LatentInput): LatentResult {
  const F = input.x.length;
  const tools = input.v.map((_, j) => {
    const c = comparisons(input.v, j, input.x);
    return c.task.length > 0 ? c : null;
  });
  // Dispersion from a weakly penalised first fit (τ² = 1 on the logit scale).
  const phi = tools.map((c, j) => input.phi?.[j] ?? (c ? dispersion(c, fitTool(c, F, 1, 1).theta) : 1));
  const tau2 = input.tau2 ?? fitTau2(tools, F, phi);
  const groups = input.groups?.length === F ? input.groups : null;
  const ratios = groups ? kindRatios(tools, F, phi, tau2, groups) : [1];
  const prior = groups ? Float64Array.from(groups, (g) => tau2 * ratios[g]!) : tau2;
  const cells = tools.map((c, j) => {
    if (!c) return Array.from({ length: F }, () => null);
    const fit = fitTool(c, F, prior, phi[j]!);
    return Array.from({ length: F }, (_, f) => cellOf(c, input.x, fit, phi[j]!, f));
  });
  return { tau2, ratios, phi, cells };
}
