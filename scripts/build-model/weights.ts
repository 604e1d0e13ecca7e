/**
 * Pure numeric steps of the static-embedding build (no I/O, so they are unit-tested):
 * mean-centring, a frequency-based (SIF-style) word weight, and int8 quantisation with one scale
 * per row.
 */

/** Subtracts the (unweighted) mean of all rows, in place. Removes the direction every GloVe vector
 * shares, which otherwise dominates averaged sentence vectors and makes all cosines high. */
export function subtractMean(rows: Float64Array[], dim: number): Float64Array {
  const mean = new Float64Array(dim);
  for (const r of rows) for (let d = 0; d < dim; d++) mean[d]! += r[d]!;
  for (let d = 0; d < dim; d++) mean[d]! /= Math.max(1, rows.length);
  for (const r of rows) for (let d = 0; d < dim; d++) r[d]! -= mean[d]!;
  return mean;
}

/** Harmonic-style normaliser for a Zipf law p(r) ∝ 1/(r+2) over `total` ranks (0-based). */
export function zipfNormaliser(total: number): number {
  let h = 0;
  for (let r = 0; r < total; r++) h += 1 / (r + 2);
  return h;
}

/**
 * SIF weight a / (a + p(w)) (Arora et al. 2017), with the unigram probability p(w) estimated from
 * the word's frequency rank by Zipf's law, p(r) = 1 / ((r + 2) · H) — the package has ranks but no
 * counts. Frequent words ("the", "of") get weights near 0, rare content words near 1.
 */
export function sifWeight(rank: number, a: number, normaliser: number): number {
  const p = 1 / ((rank + 2) * normaliser);
  return a / (a + p);
}

export interface QuantisedTable {
  rows: number;
  dim: number;
  /** Row-major int8 values, rows × dim. */
  values: Int8Array;
  /** One float scale per row: vector ≈ values[row] · scale[row]. */
  scales: Float32Array;
}

/** Symmetric int8 quantisation per row: scale = max|v| / 127, q = round(v / scale). A zero row gets
 * scale 0 (so [PAD], [UNK] and suffix pieces dequantise to exact zeros). */
export function quantiseRows(rows: readonly (Float64Array | null)[], dim: number): QuantisedTable {
  const values = new Int8Array(rows.length * dim);
  const scales = new Float32Array(rows.length);
  rows.forEach((row, i) => {
    if (!row) return;
    let max = 0;
    for (let d = 0; d < dim; d++) max = Math.max(max, Math.abs(row[d]!));
    if (max === 0) return;
    const scale = Math.fround(max / 127);
    scales[i] = scale;
    for (let d = 0; d < dim; d++) {
      const q = Math.round(row[d]! / scale);
      values[i * dim + d] = Math.max(-127, Math.min(127, q));
    }
  });
  return { rows: rows.length, dim, values, scales };
}
