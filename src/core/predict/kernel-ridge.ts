/**
 * Kernel ridge regression in dual form, for "many features, few training tasks" (a bag of words
 * and bigrams over 200 prompts has thousands of features): with a linear kernel it equals ridge
 * regression on the features, at the cost of one n×n Cholesky factorisation.
 *
 * The kernel is centred (the intercept is not penalised):
 *   Kc = H·K·H, H = I − 11ᵀ/n;   α = (Kc + λI)⁻¹ (y − ȳ);   f(x) = ȳ + Σᵢ αᵢ·kc(x, xᵢ)
 *   kc(x, xᵢ) = k(x, xᵢ) − mean_j k(x, xⱼ) − mean_j K(i, j) + mean K
 * Several targets share one factorisation.
 */
import { cholesky, choleskySolve } from './linalg';
import { sparseDot, type SparseVector } from './text-features';

/** Linear-kernel Gram matrix of the rows (n×n, symmetric). */
export function gram(rows: readonly SparseVector[]): Float64Array {
  const n = rows.length;
  const k = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const v = sparseDot(rows[i]!, rows[j]!);
      k[i * n + j] = v;
      k[j * n + i] = v;
    }
  }
  return k;
}

/** Kernel of one query with every row. */
export function kernelRow(x: SparseVector, rows: readonly SparseVector[]): Float64Array {
  return Float64Array.from(rows, (r) => sparseDot(x, r));
}

/** The sub-matrix K[rows, cols] of an n×n matrix. */
export function subMatrix(k: Float64Array, n: number, rows: readonly number[], cols: readonly number[] = rows): Float64Array {
  const out = new Float64Array(rows.length * cols.length);
  rows.forEach((r, a) => cols.forEach((c, b) => (out[a * cols.length + b] = k[r * n + c]!)));
  return out;
}

export class KernelRidge {
  private n = 0;
  private rowMean = new Float64Array(0);
  private totalMean = 0;
  private alphas: Float64Array[] = [];
  private intercepts: number[] = [];

  constructor(readonly lambda: number) {
    if (!(lambda > 0)) throw new RangeError(`lambda must be > 0, got ${lambda}`);
  }

  /** `k`: n×n Gram matrix of the training rows; `targets`: one array of n values per target. */
  fit(k: Float64Array, n: number, targets: readonly ArrayLike<number>[]): this {
    this.n = n;
    const rowMean = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += k[i * n + j]!;
      rowMean[i] = s / n;
      total += s;
    }
    this.rowMean = rowMean;
    this.totalMean = n > 0 ? total / (n * n) : 0;
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) a[i * n + j] = k[i * n + j]! - rowMean[i]! - rowMean[j]! + this.totalMean;
      a[i * n + i] = a[i * n + i]! + this.lambda;
    }
    const l = cholesky(a, n);
    this.intercepts = [];
    this.alphas = targets.map((y) => {
      let mean = 0;
      for (let i = 0; i < n; i++) mean += y[i]!;
      mean = n > 0 ? mean / n : 0;
      this.intercepts.push(mean);
      return choleskySolve(
        l,
        n,
        Float64Array.from({ length: n }, (_, i) => y[i]! - mean),
      );
    });
    return this;
  }

  /** Predictions for every target from the query's kernel row against the training rows. */
  predict(kx: ArrayLike<number>): number[] {
    const n = this.n;
    let qMean = 0;
    for (let i = 0; i < n; i++) qMean += kx[i]!;
    qMean = n > 0 ? qMean / n : 0;
    return this.alphas.map((alpha, t) => {
      let s = this.intercepts[t]!;
      for (let i = 0; i < n; i++) s += alpha[i]! * (kx[i]! - qMean - this.rowMean[i]! + this.totalMean);
      return s;
    });
  }
}
