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
 * (γ eliminated; only F×F systems). λβ and λγ are chosen on a grid by 5-fold cross-validation over
 * the training tasks (folds by task order, deterministic), minimising squared error on the
 * held-out folds' targets; the facets are fixed from the whole training split (their rules read
 * prompts, not scores).
 */
import { cholesky, choleskySolve } from '../predict/linalg';
import type { ScoreScale } from '../types';
import type { Facet } from './types';

export const LAMBDA_BETA_GRID = [10, 30, 100, 300, 1000] as const;
export const LAMBDA_GAMMA_GRID = [3, 10, 30, 100] as const;
const FOLDS = 5;

export interface FitInput {
  scale: ScoreScale;
  tools: readonly string[];
  /** Facet names (for the model's record) and membership x[f][task] ∈ {0, 1}. */
  facets: readonly Facet[];
  x: readonly Uint8Array[];
  /** target[j][task] (NaN where missing) and the tool's intercept μ_j (its ground-truth mean). */
  target: readonly Float64Array[];
  mu: readonly number[];
  /** Fixed penalties (skip the CV), e.g. for tests. */
  lambda?: { beta: number; gamma: number };
  /** Per-facet multiplier of both penalties (default 1 each). */
  penalty?: readonly number[];
  /** Alternation rounds for the tools' loadings on shared difficulty (0 = all loadings 1). */
  loadingRounds?: number;
}

/** Plain numbers only: JSON-serialisable as is (memory files carry it). */
export interface JointModel {
  tools: string[];
  facets: Facet[];
  mu: number[];
  /** p_f: share of training tasks the facet applies to (the centring). */
  freq: number[];
  beta: number[];
  /** gamma[j][f]. */
  gamma: number[][];
  /** load[j]: tool j's loading on the shared part (score = μ_j + x̃·(load_j·β + γ_j)). */
  load: number[];
  lambda: { beta: number; gamma: number };
  /** Cross-validated MSE per grid point, [λβ, λγ, mse] (empty when λ was given). */
  cv: [number, number, number][];
}

interface Normal {
  a: Float64Array[];
  b: Float64Array[];
}

/** A_j and b_j over the rows `use` (centred features, targets centred by `centre[j]`). */
function normalEquations(input: FitInput, freq: readonly number[], use: (t: number) => boolean, centre: readonly number[]): Normal {
  const F = input.facets.length;
  const n = input.x[0]?.length ?? input.target[0]?.length ?? 0;
  const row = new Float64Array(F);
  const a = input.tools.map(() => new Float64Array(F * F));
  const b = input.tools.map(() => new Float64Array(F));
  for (let t = 0; t < n; t++) {
    if (!use(t)) continue;
    for (let f = 0; f < F; f++) row[f] = input.x[f]![t]! - freq[f]!;
    input.tools.forEach((_, j) => {
      const y = input.target[j]![t]!;
      if (Number.isNaN(y)) return;
      const r = y - centre[j]!;
      const aj = a[j]!;
      const bj = b[j]!;
      for (let f = 0; f < F; f++) {
        const xf = row[f]!;
        if (xf === 0) continue;
        bj[f] = bj[f]! + xf * r;
        for (let g = 0; g < F; g++) aj[f * F + g] = aj[f * F + g]! + xf * row[g]!;
      }
    });
  }
  return { a, b };
}

/** Solves the joint system for given penalties. */
export function solveJoint(ne: Normal, F: number, lambdaBeta: number, lambdaGamma: number, load?: ArrayLike<number>, weight?: ArrayLike<number>): { beta: Float64Array; gamma: Float64Array[] } {
  const w = (f: number) => (weight ? weight[f]! : 1);
  const lhs = new Float64Array(F * F);
  const rhs = new Float64Array(F);
  const factors: Float64Array[] = [];
  ne.a.forEach((aj, j) => {
    const sj = load ? load[j]! : 1;
    const m = Float64Array.from(aj);
    for (let f = 0; f < F; f++) m[f * F + f] = m[f * F + f]! + lambdaGamma * w(f);
    const l = cholesky(m, F);
    factors.push(l);
    // Z = M_j·A_j column by column (A_j symmetric), then A_j − A_j·Z and b_j − A_j·M_j·b_j.
    const z = new Float64Array(F * F);
    const col = new Float64Array(F);
    for (let c = 0; c < F; c++) {
      for (let r = 0; r < F; r++) col[r] = aj[r * F + c]!;
      const s = choleskySolve(l, F, col);
      for (let r = 0; r < F; r++) z[r * F + c] = s[r]!;
    }
    const mb = choleskySolve(l, F, ne.b[j]!);
    for (let r = 0; r < F; r++) {
      let sb = 0;
      for (let k = 0; k < F; k++) sb += aj[r * F + k]! * mb[k]!;
      rhs[r] = rhs[r]! + sj * (ne.b[j]![r]! - sb);
      for (let c = 0; c < F; c++) {
        let s = 0;
        for (let k = 0; k < F; k++) s += aj[r * F + k]! * z[k * F + c]!;
        lhs[r * F + c] = lhs[r * F + c]! + sj * sj * (aj[r * F + c]! - s);
      }
    }
  });
  for (let f = 0; f < F; f++) lhs[f * F + f] = lhs[f * F + f]! + lambdaBeta * w(f);
  // Symmetrise against rounding before the factorisation.
  for (let r = 0; r < F; r++) for (let c = r + 1; c < F; c++) lhs[r * F + c] = lhs[c * F + r] = (lhs[r * F + c]! + lhs[c * F + r]!) / 2;
  const beta = F > 0 ? choleskySolve(cholesky(lhs, F), F, rhs) : new Float64Array(0);
  const gamma = ne.a.map((aj, j) => {
    const sj = load ? load[j]! : 1;
    const v = Float64Array.from(ne.b[j]!);
    for (let r = 0; r < F; r++) for (let k = 0; k < F; k++) v[r] = v[r]! - sj * aj[r * F + k]! * beta[k]!;
    return F > 0 ? choleskySolve(factors[j]!, F, v) : new Float64Array(0);
  });
  return { beta, gamma };
}

/**
 * With loadings: score = μ_j + x̃·(s_j·β + γ_j), s_j the tool's response to shared difficulty (a
 * tool near the top of the scale moves less). Alternates: solve β, γ for fixed s; then s_j by least
 * squares of the tool's residual (after γ_j) on x̃·β, shrunk halfway to 1, scaled to mean 1.
 */
export function solveWithLoadings(ne: Normal, F: number, lambdaBeta: number, lambdaGamma: number, rounds: number, weight?: ArrayLike<number>): { beta: Float64Array; gamma: Float64Array[]; load: number[] } {
  let load = ne.a.map(() => 1);
  let fit = solveJoint(ne, F, lambdaBeta, lambdaGamma, load, weight);
  for (let k = 0; k < rounds; k++) {
    const raw = ne.a.map((aj, j) => {
      const { beta, gamma } = fit;
      let num = 0;
      let den = 0;
      for (let r = 0; r < F; r++) {
        let ab = 0;
        let ag = 0;
        for (let c = 0; c < F; c++) {
          ab += aj[r * F + c]! * beta[c]!;
          ag += aj[r * F + c]! * gamma[j]![c]!;
        }
        num += beta[r]! * (ne.b[j]![r]! - ag);
        den += beta[r]! * ab;
      }
      return den > 1e-12 ? 0.5 * (num / den) + 0.5 : 1;
    });
    const m = raw.reduce((a, b) => a + b, 0) / Math.max(1, raw.length);
    load = raw.map((v) => (m > 0 ? Math.max(0, v / m) : 1));
    fit = solveJoint(ne, F, lambdaBeta, lambdaGamma, load, weight);
  }
  return { ...fit, load };
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

export function fitJoint(input: FitInput): JointModel {
  const F = input.facets.length;
  const n = input.target[0]?.length ?? 0;
  const freq = input.x.map((row) => (n > 0 ? row.reduce((s, v) => s + v, 0) / n : 0));
  const all = () => true;
  const rounds = input.loadingRounds ?? 0;
  const cv: [number, number, number][] = [];
  let lambda = input.lambda;
  if (!lambda) {
    const folds = Math.min(FOLDS, n);
    const parts = Array.from({ length: folds }, (_, k) => {
      const inTrain = (t: number) => t % folds !== k;
      const centre = targetMeans(input, inTrain);
      return { k, centre, ne: normalEquations(input, freq, inTrain, centre) };
    });
    let best = Infinity;
    for (const lb of LAMBDA_BETA_GRID) {
      for (const lg of LAMBDA_GAMMA_GRID) {
        let se = 0;
        for (const { k, centre, ne } of parts) {
          const { beta, gamma, load } = solveWithLoadings(ne, F, lb, lg, rounds, input.penalty);
          for (let t = k; t < n; t += folds) {
            input.tools.forEach((_, j) => {
              const y = input.target[j]![t]!;
              if (Number.isNaN(y)) return;
              let p = centre[j]!;
              for (let f = 0; f < F; f++) p += (input.x[f]![t]! - freq[f]!) * (load[j]! * beta[f]! + gamma[j]![f]!);
              se += (y - p) ** 2;
            });
          }
        }
        cv.push([lb, lg, se]);
        if (se < best - 1e-12) {
          best = se;
          lambda = { beta: lb, gamma: lg };
        }
      }
    }
    const count = input.target.reduce((c, col) => c + col.filter((y) => !Number.isNaN(y)).length, 0);
    for (const row of cv) row[2] = row[2] / Math.max(1, count);
  }
  const centre = targetMeans(input, all);
  const { beta, gamma, load } = solveWithLoadings(normalEquations(input, freq, all, centre), F, lambda!.beta, lambda!.gamma, rounds, input.penalty);
  return {
    tools: [...input.tools],
    facets: input.facets.map((f) => ({ ...f })),
    mu: [...input.mu],
    freq,
    beta: [...beta],
    gamma: gamma.map((g) => [...g]),
    load,
    lambda: lambda!,
    cv,
  };
}

/** Per-facet score points of tool j on a task with membership `x` (Σ = raw prediction − μ_j). */
export function facetPoints(model: JointModel, j: number, x: ArrayLike<number>): number[] {
  return model.beta.map((b, f) => (x[f]! - model.freq[f]!) * (model.load[j]! * b + model.gamma[j]![f]!));
}
