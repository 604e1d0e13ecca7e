/** Small dense linear algebra for the regressions (row-major Float64Array, n up to a few thousand). */

/**
 * In-place Cholesky factorisation of a symmetric positive-definite n×n matrix: the lower triangle
 * becomes L with A = L·Lᵀ. Throws when the matrix is not positive definite.
 */
export function cholesky(a: Float64Array, n: number): Float64Array {
  for (let j = 0; j < n; j++) {
    const rj = j * n;
    let d = a[rj + j]!;
    for (let k = 0; k < j; k++) d -= a[rj + k]! * a[rj + k]!;
    if (!(d > 0)) throw new RangeError('matrix is not positive definite');
    const ljj = Math.sqrt(d);
    a[rj + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      const ri = i * n;
      let s = a[ri + j]!;
      for (let k = 0; k < j; k++) s -= a[ri + k]! * a[rj + k]!;
      a[ri + j] = s / ljj;
    }
  }
  return a;
}

/** Solves L·Lᵀ·x = b for a factor from `cholesky` (b is not modified). */
export function choleskySolve(l: Float64Array, n: number, b: ArrayLike<number>): Float64Array {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    const ri = i * n;
    for (let k = 0; k < i; k++) s -= l[ri + k]! * y[k]!;
    y[i] = s / l[ri + i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < n; k++) s -= l[k * n + i]! * x[k]!;
    x[i] = s / l[i * n + i]!;
  }
  return x;
}

/** Solves (A + ridge·I)·x = b for a small symmetric A (copied). */
export function solveSymmetric(a: ArrayLike<number>, n: number, b: ArrayLike<number>, ridge = 0): Float64Array {
  const m = Float64Array.from(a);
  for (let i = 0; i < n; i++) m[i * n + i] = m[i * n + i]! + ridge;
  return choleskySolve(cholesky(m, n), n, b);
}

/**
 * Ridge least squares with an unpenalised intercept: minimises Σ (y − b0 − x·w)² + λ·|w|² over the
 * rows of `x` (each row p features). Returns [b0, w…]. Features are used as given (no scaling).
 */
export function ridgeFit(x: readonly ArrayLike<number>[], y: ArrayLike<number>, lambda: number, weights?: ArrayLike<number>): Float64Array {
  const n = x.length;
  const p = n === 0 ? 0 : x[0]!.length;
  const q = p + 1;
  const a = new Float64Array(q * q);
  const b = new Float64Array(q);
  const row = new Float64Array(q);
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i]! : 1;
    row[0] = 1;
    for (let k = 0; k < p; k++) row[k + 1] = x[i]![k]!;
    for (let r = 0; r < q; r++) {
      b[r] = b[r]! + w * row[r]! * y[i]!;
      for (let c = 0; c < q; c++) a[r * q + c] = a[r * q + c]! + w * row[r]! * row[c]!;
    }
  }
  for (let k = 1; k < q; k++) a[k * q + k] = a[k * q + k]! + lambda;
  a[0] = a[0]! + 1e-9;
  return solveSymmetric(a, q, b);
}

export function ridgeApply(coef: ArrayLike<number>, x: ArrayLike<number>): number {
  let s = coef[0]!;
  for (let k = 0; k < x.length; k++) s += coef[k + 1]! * x[k]!;
  return s;
}
