/**
 * The latent scale's per-tool model fit (latent.ts describes the model): one tool's comparisons with
 * the others, task by task; the penalised Newton fit of its abilities η_k and facet effects δ_f under
 * a normal prior per facet; and the task-cluster dispersion that tempers the likelihood. Pure.
 */
import { cholesky, choleskySolve } from '../predict/linalg';
import { sigmoid } from './score-calibration';

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

/** Facet f's prior variance: one τ² for every facet, or one per facet. */
export const priorVariance = (tau2: number | ArrayLike<number>, f: number): number => (typeof tau2 === 'number' ? tau2 : tau2[f]!);

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
      const prec = i < K ? 1e-6 : 1 / priorVariance(tau2, i - K);
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
