/**
 * The text-embedding contract shared by every host (Node adapter, browser worker, test doubles).
 * Pure: no model library here — hosts implement `Embedder` outside src/core.
 *
 * Vectors travel packed (one Float32Array, row-major) so a worker can transfer the buffer instead
 * of structured-cloning thousands of small arrays.
 */
import { CancelledError } from '../errors';

export interface EmbedProgress {
  /** Texts finished so far (unique texts when reported by `cachedEmbed`). */
  done: number;
  total: number;
}

export interface EmbedOptions {
  signal?: AbortSignal;
  onProgress?: (progress: EmbedProgress) => void;
}

/** `count` vectors of length `dim`, row-major. Each row has unit L2 norm, or is all zeros when the
 * text had no known token (an empty text, or only unknown words/punctuation). */
export interface EmbeddingBatch {
  dim: number;
  count: number;
  data: Float32Array;
}

export interface Embedder {
  /** Identifies model and revision; cache keys and `Memory.embeddingModel` use it. */
  readonly id: string;
  readonly dim: number;
  /** Must throw `CancelledError` when `signal` is aborted (checked at least between batches). */
  embed(texts: readonly string[], opts?: EmbedOptions): Promise<EmbeddingBatch>;
  dispose?(): Promise<void>;
}

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/** A view (no copy) of row `i`. */
export function rowOf(batch: EmbeddingBatch, i: number): Float32Array {
  if (i < 0 || i >= batch.count) throw new RangeError(`row ${i} outside 0…${batch.count - 1}`);
  return batch.data.subarray(i * batch.dim, (i + 1) * batch.dim);
}

export function rowsOf(batch: EmbeddingBatch): Float32Array[] {
  return Array.from({ length: batch.count }, (_, i) => rowOf(batch, i));
}

export function packRows(rows: readonly ArrayLike<number>[], dim: number): EmbeddingBatch {
  const data = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => {
    if (r.length !== dim) throw new RangeError(`row ${i} has length ${r.length}, expected ${dim}`);
    data.set(r, i * dim);
  });
  return { dim, count: rows.length, data };
}

/**
 * L2-normalises every row in place. Rows with zero (or non-finite) norm become all zeros instead
 * of NaN — transformers.js divides by the norm unguarded, so an all-[UNK] text would yield NaN.
 */
export function normaliseRows(data: Float32Array, dim: number): Float32Array {
  for (let off = 0; off < data.length; off += dim) {
    let sq = 0;
    for (let d = 0; d < dim; d++) sq += data[off + d]! * data[off + d]!;
    const norm = Math.sqrt(sq);
    const inv = norm > 0 && Number.isFinite(norm) ? 1 / norm : 0;
    for (let d = 0; d < dim; d++) data[off + d] = inv === 0 ? 0 : data[off + d]! * inv;
  }
  return data;
}

/** Cosine of two vectors (0 when either is zero). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
