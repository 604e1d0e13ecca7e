/**
 * Numerical helpers of the shrinkage (shrink.ts): the standard normal CDF and a symmetric
 * eigen-decomposition. Matrices are small (facets × facets, at most a few dozen), so cyclic Jacobi
 * rotations are exact enough and simple; no library needed.
 */

/** The two-sided 95% quantile of the standard normal, as every interval of the capability analysis uses it. */
export const Z95 = 1.959964;

/** The normal 95% interval around `mean` with standard deviation `sd`. */
export const ci95Of = (mean: number, sd: number): [number, number] => [mean - Z95 * sd, mean + Z95 * sd];

/** The standard deviation a normal 95% interval stands for (its half-width over Z95). */
export const sdOfCi95 = (ci: readonly [number, number]): number => (ci[1] - ci[0]) / (2 * Z95);

/** Φ(x), the standard normal CDF (erfc by a Chebyshev fit, |error| < 1.2e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/**
 * Eigenvalues and eigenvectors of a symmetric n×n matrix (row-major; not modified): cyclic Jacobi
 * until the off-diagonal mass is below 1e-22 of the total. vectors[r·n + i] is component r of
 * eigenvector i.
 */
export function symmetricEigen(a: ArrayLike<number>, n: number): { values: Float64Array; vectors: Float64Array } {
  const m = Float64Array.from(a);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let total = 0;
  for (let i = 0; i < n * n; i++) total += m[i]! * m[i]!;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += m[p * n + q]! ** 2;
    if (off <= 1e-22 * total || off === 0) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = m[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (m[q * n + q]! - m[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = m[k * n + p]!;
          const akq = m[k * n + q]!;
          m[k * n + p] = c * akp - s * akq;
          m[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = m[p * n + k]!;
          const aqk = m[q * n + k]!;
          m[p * n + k] = c * apk - s * aqk;
          m[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: Float64Array.from({ length: n }, (_, i) => m[i * n + i]!), vectors: v };
}
