/**
 * Deterministic spherical k-means (cosine) with k-means++ seeding from a seeded PRNG, so the same
 * vectors and seed always give the same clusters (evidence entries must be reproducible).
 * Vectors are expected unit-length (zero vectors are the caller's to drop).
 */

import { mulberry32 } from '../eval/rng';

/** k-means++ draws from the tree's one PRNG (core/eval/rng.ts); the old name stays for callers. */
export { mulberry32 as seededRandom };

export interface KMeansResult {
  k: number;
  /** Cluster of each input vector. */
  assignment: Int32Array;
  /** Unit centroids, k × dim row-major. */
  centroids: Float32Array;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>, bOff: number, dim: number): number {
  let s = 0;
  for (let d = 0; d < dim; d++) s += a[d]! * b[bOff + d]!;
  return s;
}

function normaliseRow(data: Float32Array, off: number, dim: number): void {
  let sq = 0;
  for (let d = 0; d < dim; d++) sq += data[off + d]! ** 2;
  const inv = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  for (let d = 0; d < dim; d++) data[off + d] = data[off + d]! * inv;
}

export function kmeans(vectors: readonly ArrayLike<number>[], k: number, opts: { seed?: number; maxIter?: number } = {}): KMeansResult {
  const n = vectors.length;
  if (n === 0) return { k: 0, assignment: new Int32Array(0), centroids: new Float32Array(0) };
  const dim = vectors[0]!.length;
  const kk = Math.max(1, Math.min(Math.floor(k), n));
  const rand = mulberry32(opts.seed ?? 0);
  const centroids = new Float32Array(kk * dim);
  // k-means++: first centre at random, then proportional to squared cosine distance.
  const first = Math.floor(rand() * n);
  centroids.set(Array.from(vectors[first]!), 0);
  const best = new Float64Array(n).fill(Infinity);
  for (let c = 1; c < kk; c++) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      const dist = Math.max(0, 1 - dot(vectors[i]!, centroids, (c - 1) * dim, dim));
      best[i] = Math.min(best[i]!, dist * dist);
      total += best[i]!;
    }
    let pick = total > 0 ? n - 1 : Math.floor(rand() * n);
    if (total > 0) {
      let r = rand() * total;
      for (let i = 0; i < n - 1; i++) {
        r -= best[i]!;
        if (r <= 0) {
          pick = i;
          break;
        }
      }
    }
    centroids.set(Array.from(vectors[pick]!), c * dim);
  }
  const assignment = new Int32Array(n).fill(-1);
  const maxIter = opts.maxIter ?? 50;
  for (let iter = 0; iter < maxIter; iter++) {
    let changed = 0;
    for (let i = 0; i < n; i++) {
      let bestC = 0;
      let bestS = -Infinity;
      for (let c = 0; c < kk; c++) {
        const s = dot(vectors[i]!, centroids, c * dim, dim);
        if (s > bestS) {
          bestS = s;
          bestC = c;
        }
      }
      if (assignment[i] !== bestC) {
        assignment[i] = bestC;
        changed++;
      }
    }
    if (changed === 0) break;
    centroids.fill(0);
    const counts = new Int32Array(kk);
    for (let i = 0; i < n; i++) {
      const c = assignment[i]!;
      counts[c]!++;
      const v = vectors[i]!;
      for (let d = 0; d < dim; d++) centroids[c * dim + d] = centroids[c * dim + d]! + v[d]!;
    }
    for (let c = 0; c < kk; c++) normaliseRow(centroids, c * dim, dim);
    // An emptied cluster restarts at the point farthest from its own centre (deterministic).
    for (let c = 0; c < kk; c++) {
      if (counts[c] !== 0) continue;
      let far = 0;
      let farS = Infinity;
      for (let i = 0; i < n; i++) {
        const s = dot(vectors[i]!, centroids, assignment[i]! * dim, dim);
        if (s < farS) {
          farS = s;
          far = i;
        }
      }
      centroids.set(Array.from(vectors[far]!), c * dim);
      normaliseRow(centroids, c * dim, dim);
    }
  }
  return { k: kk, assignment, centroids };
}
