/**
 * The memory predictor's model (issue #15, part 5): one joint ridge fit over every tool and facet,
 *
 *   score(task, tool j) = μ_j + Σ_f x̃_f(task)·(β_f + γ_{j,f})          x̃_f = x_f − p_f
 *
 * x_f ∈ {0, 1}: whether facet f's rule applies to the task; p_f its share of the training tasks, so
 * the centred features leave μ_j = the tool's training mean (rater policy) exactly as the intercept.
 * β_f is difficulty SHARED by all tools, γ_{j,f} the tool's own deviation from it; both are shrunk
 * to 0 (penalties λβ·|β|² and λγ·Σ_j|γ_j|², λγ usually the larger: a tool-specific claim needs more
 * evidence than a shared one). Because all facets enter one regression, overlapping facets
 * ("negation" the tag and "negation" the cue, or "basic" and "advanced") share their effect instead
 * of each counting it in full.
 *
 * Targets: the mean of all raters when the training examples carry several (less noise; training
 * side only), centred by the tool's target mean. Solved exactly: with A_j = X̃_jᵀX̃_j, b_j = X̃_jᵀr_j
 * over the tasks tool j scored and M_j = (A_j + λγ·I)⁻¹,
 *   [Σ_j (A_j − A_j·M_j·A_j) + λβ·I]·β = Σ_j (b_j − A_j·M_j·b_j),    γ_j = M_j·(b_j − A_j·β)
 * (γ eliminated; only F×F systems; the λγ half is prepared once per λγ and fold and reused for every
 * λβ). `penalty` multiplies both penalties per facet (default 1; a heavier theme penalty was measured
 * and not adopted, docs/memory.md). λβ and λγ are chosen on a grid by 5-fold cross-validation over
 * the training tasks (folds by task order, deterministic), minimising squared error on the
 * held-out folds' targets; the facets are fixed from the whole training split (their rules read
 * prompts, not scores).
 */
import { cholesky, choleskySolve } from '../predict/linalg';
import type { ScoreScale } from '../types';
import type { Facet, JointModel } from './types';

// The model's shape lives in types.ts (the stored snapshot names it); re-exported for callers.
export type { JointModel };

/**
 * Why λβ starts at 100: for a facet whose effect is the same c for all J tools, the fit splits it
 * as β = c·Jλγ/(λβ + Jλγ), the rest in the γ_j, so the penalty the shared effect really meets is
 * λβ·Jλγ/(λβ + Jλγ) < min(λβ, Jλγ): once λβ ≫ Jλγ the grid points barely differ, while small λβ
 * under-shrinks the shared part. On GenAI-Bench seeds 1–5 (200 / 800) the former grid {10 … 1000}
 * gave MAE 0.916 / RMSE 1.100 / Pearson 0.378 with today's facets, this one 0.915 / 1.099 / 0.381
 * (docs/memory.md, dated section).
 */
export const LAMBDA_BETA_GRID = [100, 300, 1000, 3000] as const;
export const LAMBDA_GAMMA_GRID = [3, 10, 30, 100] as const;
const FOLDS = 5;

export interface FitInput {
  scale: ScoreScale;
  tools: readonly string[];
  /**
   * Facet names (for the model's record) and membership x[f][task] ∈ [0, 1]: 0/1 by the facet's
   * rule, or a detector's probability (the model for free text, issue #34).
   */
  facets: readonly Facet[];
  x: readonly ArrayLike<number>[];
  /** target[j][task] (NaN where missing) and the tool's intercept μ_j (its ground-truth mean). */
  target: readonly Float64Array[];
  mu: readonly number[];
  /** Fixed penalties (skip the CV), e.g. for tests. */
  lambda?: { beta: number; gamma: number };
  /** Per-facet multiplier of both penalties (default 1 each). */
  penalty?: readonly number[];
}

interface Normal {
  a: Float64Array[];
  b: Float64Array[];
}

/**
 * A_j and b_j over the rows `use` (centred features, targets centred by `centre[j]`). Features are
 * 0/1 and sparse (a task has a few facets), so they are accumulated as counts — n, n1_f = #{x_f = 1},
 * n11_fg = #{x_f = x_g = 1}, s1_f = Σ_{x_f = 1} r, Σ r — and centred afterwards:
 *   A_fg = n11_fg − p_f·n1_g − p_g·n1_f + p_f·p_g·n,    b_f = s1_f − p_f·Σ r
 * (N·k² work per tool for k active facets per task, instead of N·F²).
 */
function normalEquations(
  input: FitInput,
  freq: readonly number[],
  use: (t: number) => boolean,
  centre: readonly number[],
  active: readonly (readonly number[])[] = activeFacets(input),
): Normal {
  const F = input.facets.length;
  const n = input.target[0]?.length ?? 0;
  // Values of the active features (1 for a rule; a probability for a detected tag).
  const value = (f: number, t: number) => input.x[f]![t]!;
  const a: Float64Array[] = [];
  const b: Float64Array[] = [];
  input.tools.forEach((_, j) => {
    const n11 = new Float64Array(F * F);
    const n1 = new Float64Array(F);
    const s1 = new Float64Array(F);
    let count = 0;
    let sr = 0;
    for (let t = 0; t < n; t++) {
      const y = input.target[j]![t]!;
      if (Number.isNaN(y) || !use(t)) continue;
      const r = y - centre[j]!;
      count++;
      sr += r;
      const on = active[t]!;
      for (const f of on) {
        const xf = value(f, t);
        n1[f] = n1[f]! + xf;
        s1[f] = s1[f]! + xf * r;
        for (const g of on) n11[f * F + g] = n11[f * F + g]! + xf * value(g, t);
      }
    }
    const aj = new Float64Array(F * F);
    const bj = new Float64Array(F);
    for (let f = 0; f < F; f++) {
      bj[f] = s1[f]! - freq[f]! * sr;
      for (let g = 0; g < F; g++) aj[f * F + g] = n11[f * F + g]! - freq[f]! * n1[g]! - freq[g]! * n1[f]! + freq[f]! * freq[g]! * count;
    }
    a.push(aj);
    b.push(bj);
  });
  return { a, b };
}

/** Per task, the facets with a nonzero value (ascending): the same for every fold's normal equations. */
function activeFacets(input: FitInput): number[][] {
  const F = input.facets.length;
  const n = input.target[0]?.length ?? 0;
  const active: number[][] = Array.from({ length: n }, () => []);
  for (let f = 0; f < F; f++) for (let t = 0; t < n; t++) if (input.x[f]![t]) active[t]!.push(f);
  return active;
}

/** The λγ-dependent half of the solve, per tool: M_j = (A_j + λγ·W)⁻¹ as a factor, A_j − A_j·M_j·A_j, b_j − A_j·M_j·b_j. */
interface GammaPart {
  factors: Float64Array[];
  lhs: Float64Array;
  rhs: Float64Array;
}

function prepareGamma(ne: Normal, F: number, lambdaGamma: number, weight?: ArrayLike<number>): GammaPart {
  const lhs = new Float64Array(F * F);
  const rhs = new Float64Array(F);
  const factors: Float64Array[] = [];
  const col = new Float64Array(F);
  ne.a.forEach((aj, j) => {
    const m = Float64Array.from(aj);
    for (let f = 0; f < F; f++) m[f * F + f] = m[f * F + f]! + lambdaGamma * (weight ? weight[f]! : 1);
    const l = F > 0 ? cholesky(m, F) : m;
    factors.push(l);
    // Z = M_j·A_j column by column (A_j symmetric), then A_j − A_j·Z and b_j − A_j·M_j·b_j.
    // Z is kept transposed (zt[c·F + k] = Z_kc) so the products below read both factors in order.
    const zt = new Float64Array(F * F);
    for (let c = 0; c < F; c++) {
      for (let r = 0; r < F; r++) col[r] = aj[r * F + c]!;
      zt.set(choleskySolve(l, F, col), c * F);
    }
    const mb = F > 0 ? choleskySolve(l, F, ne.b[j]!) : new Float64Array(0);
    for (let r = 0; r < F; r++) {
      let sb = 0;
      for (let k = 0; k < F; k++) sb += aj[r * F + k]! * mb[k]!;
      rhs[r] = rhs[r]! + ne.b[j]![r]! - sb;
      const row = r * F;
      for (let c = 0; c < F; c++) {
        const zc = c * F;
        let sum = 0;
        for (let k = 0; k < F; k++) sum += aj[row + k]! * zt[zc + k]!;
        lhs[row + c] = lhs[row + c]! + aj[row + c]! - sum;
      }
    }
  });
  return { factors, lhs, rhs };
}

function solveBeta(part: GammaPart, ne: Normal, F: number, lambdaBeta: number, weight?: ArrayLike<number>): { beta: Float64Array; gamma: Float64Array[] } {
  const lhs = Float64Array.from(part.lhs);
  for (let f = 0; f < F; f++) lhs[f * F + f] = lhs[f * F + f]! + lambdaBeta * (weight ? weight[f]! : 1);
  // Symmetrise against rounding before the factorisation.
  for (let r = 0; r < F; r++) for (let c = r + 1; c < F; c++) lhs[r * F + c] = lhs[c * F + r] = (lhs[r * F + c]! + lhs[c * F + r]!) / 2;
  const beta = F > 0 ? choleskySolve(cholesky(lhs, F), F, part.rhs) : new Float64Array(0);
  const gamma = ne.a.map((aj, j) => {
    const v = Float64Array.from(ne.b[j]!);
    for (let r = 0; r < F; r++) for (let k = 0; k < F; k++) v[r] = v[r]! - aj[r * F + k]! * beta[k]!;
    return F > 0 ? choleskySolve(part.factors[j]!, F, v) : new Float64Array(0);
  });
  return { beta, gamma };
}

/** Solves the joint system for given penalties (per-facet multipliers `weight`, default 1). */
export function solveJoint(
  ne: Normal,
  F: number,
  lambdaBeta: number,
  lambdaGamma: number,
  weight?: ArrayLike<number>,
): { beta: Float64Array; gamma: Float64Array[] } {
  return solveBeta(prepareGamma(ne, F, lambdaGamma, weight), ne, F, lambdaBeta, weight);
}

function targetMeans(input: FitInput, use: (t: number) => boolean): number[] {
  return input.target.map((col) => {
    let s = 0;
    let c = 0;
    col.forEach((y, t) => {
      if (!Number.isNaN(y) && use(t)) {
        s += y;
        c++;
      }
    });
    return c > 0 ? s / c : 0;
  });
}

/** x̃[t·F + f] = x_f(task t) − p_f, task-major: the held-out error reads a task's facets together. */
function centredRows(x: readonly ArrayLike<number>[], freq: readonly number[], n: number): Float64Array {
  const F = x.length;
  const out = new Float64Array(n * F);
  for (let f = 0; f < F; f++) for (let t = 0; t < n; t++) out[t * F + f] = x[f]![t]! - freq[f]!;
  return out;
}

/**
 * Squared error on fold k's tasks (t ≡ k mod folds) of the fit (β, γ): Σ_t Σ_j (y_jt − centre_j − Σ_f x̃_ft·(β_f + γ_jf))²,
 * summed in that order (tasks, then tools, then facets), so the CV choice does not depend on how it is computed.
 */
function heldOutError(
  target: readonly Float64Array[],
  centred: Float64Array,
  F: number,
  centre: readonly number[],
  fit: { beta: Float64Array; gamma: Float64Array[] },
  k: number,
  folds: number,
): number {
  const J = target.length;
  const n = target[0]?.length ?? 0;
  const coef = new Float64Array(J * F);
  for (let j = 0; j < J; j++) for (let f = 0; f < F; f++) coef[j * F + f] = fit.beta[f]! + fit.gamma[j]![f]!;
  let sum = 0;
  for (let t = k; t < n; t += folds) {
    const row = t * F;
    for (let j = 0; j < J; j++) {
      const y = target[j]![t]!;
      if (Number.isNaN(y)) continue;
      let p = centre[j]!;
      const c = j * F;
      for (let f = 0; f < F; f++) p += centred[row + f]! * coef[c + f]!;
      sum += (y - p) ** 2;
    }
  }
  return sum;
}

export function fitJoint(input: FitInput): JointModel {
  const F = input.facets.length;
  const n = input.target[0]?.length ?? 0;
  const freq = input.x.map((row) => {
    let s = 0;
    for (let t = 0; t < n; t++) s += row[t]!;
    return n > 0 ? s / n : 0;
  });
  const all = () => true;
  const cv: [number, number, number][] = [];
  let lambda = input.lambda;
  if (!lambda) {
    const folds = Math.min(FOLDS, n);
    const active = activeFacets(input);
    const parts = Array.from({ length: folds }, (_, k) => {
      const inTrain = (t: number) => t % folds !== k;
      const centre = targetMeans(input, inTrain);
      return { k, centre, ne: normalEquations(input, freq, inTrain, centre, active) };
    });
    // The γ half depends on λγ only: prepared once per (λγ, fold), reused for every λβ.
    const se = new Map<string, number>();
    const centred = centredRows(input.x, freq, n);
    for (const lg of LAMBDA_GAMMA_GRID) {
      for (const { k, centre, ne } of parts) {
        const part = prepareGamma(ne, F, lg, input.penalty);
        for (const lb of LAMBDA_BETA_GRID) {
          const sum = heldOutError(input.target, centred, F, centre, solveBeta(part, ne, F, lb, input.penalty), k, folds);
          se.set(`${lb} ${lg}`, (se.get(`${lb} ${lg}`) ?? 0) + sum);
        }
      }
    }
    let best = Infinity;
    for (const lb of LAMBDA_BETA_GRID) {
      for (const lg of LAMBDA_GAMMA_GRID) {
        const err = se.get(`${lb} ${lg}`)!;
        cv.push([lb, lg, err]);
        if (err < best - 1e-12) {
          best = err;
          lambda = { beta: lb, gamma: lg };
        }
      }
    }
    const count = input.target.reduce((c, col) => c + col.filter((y) => !Number.isNaN(y)).length, 0);
    for (const row of cv) row[2] = row[2] / Math.max(1, count);
  }
  const centre = targetMeans(input, all);
  const { beta, gamma } = solveJoint(normalEquations(input, freq, all, centre), F, lambda!.beta, lambda!.gamma, input.penalty);
  return {
    tools: [...input.tools],
    facets: input.facets.map((f) => ({ ...f })),
    mu: [...input.mu],
    freq,
    beta: [...beta],
    gamma: gamma.map((g) => [...g]),
    lambda: lambda!,
    cv,
  };
}

/** Per-facet score points of tool j on a task with membership `x` (Σ = raw prediction − μ_j). */
export function facetPoints(model: JointModel, j: number, x: ArrayLike<number>): number[] {
  return model.beta.map((b, f) => (x[f]! - model.freq[f]!) * (b + model.gamma[j]![f]!));
}

/**
 * δ_jf = γ_jf − mean over tools of γ_·f: what the fit gives tool j on facet f beyond the average
 * tool (the claim's agreement check and the entry's contribution line both read it).
 */
export function toolDeviation(model: JointModel, j: number, f: number): number {
  let sum = 0;
  for (const g of model.gamma) sum += g[f]!;
  return model.gamma[j]![f]! - sum / model.gamma.length;
}

/** The tool's deviation on facet f in each fit that has the tool and the facet (claims and contribution labels ask every fit). */
export function toolDeviations(models: readonly JointModel[], toolId: string, f: number): number[] {
  return models.flatMap((m) => {
    const j = m.tools.indexOf(toolId);
    return j >= 0 && f < m.beta.length ? [toolDeviation(m, j, f)] : [];
  });
}
