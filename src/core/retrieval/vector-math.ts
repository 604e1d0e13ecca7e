/** Small dense-vector helpers for retrieval (plain loops: fastest in V8 for 100–1,000 dims). */

/** Copy of `v` scaled to unit L2 norm; a zero (or non-finite) vector stays all zeros. */
export function normalisedCopy(v: ArrayLike<number>, dim: number): Float32Array {
  if (v.length !== dim) throw new RangeError(`vector has length ${v.length}, expected ${dim}`);
  const out = new Float32Array(dim);
  let sq = 0;
  for (let d = 0; d < dim; d++) sq += v[d]! * v[d]!;
  const norm = Math.sqrt(sq);
  if (!(norm > 0) || !Number.isFinite(norm)) return out;
  for (let d = 0; d < dim; d++) out[d] = v[d]! / norm;
  return out;
}

/** Dot product of `q` with row `row` of a packed row-major matrix. */
export function dotRow(q: Float32Array, data: Float32Array, row: number, dim: number): number {
  const off = row * dim;
  let s = 0;
  for (let d = 0; d < dim; d++) s += q[d]! * data[off + d]!;
  return s;
}
