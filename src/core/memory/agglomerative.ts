/**
 * Average-linkage agglomerative clustering on cosine similarity (nearest-neighbour chain, O(n²)
 * time and memory), fully deterministic: ties go to the chain's previous element, then to the
 * smaller index. Returns every internal node of the dendrogram as a candidate group, so groups of
 * all sizes can be tested — on small data (tens of tasks) fixed-k clusters are too coarse.
 * Intended for n up to a few thousand (the similarity matrix is n² float32).
 */

export interface Dendrogram {
  /** Members (input indices, ascending) of each internal node, in merge order. */
  nodes: number[][];
}

export const MAX_AGGLOMERATIVE_N = 3000;

export function agglomerative(vectors: readonly ArrayLike<number>[]): Dendrogram {
  const n = vectors.length;
  if (n > MAX_AGGLOMERATIVE_N) throw new RangeError(`agglomerative clustering is limited to ${MAX_AGGLOMERATIVE_N} items, got ${n}`);
  if (n < 2) return { nodes: [] };
  const dim = vectors[0]!.length;
  const sim = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = vectors[i]!;
    for (let j = i + 1; j < n; j++) {
      const b = vectors[j]!;
      let s = 0;
      for (let d = 0; d < dim; d++) s += a[d]! * b[d]!;
      sim[i * n + j] = s;
      sim[j * n + i] = s;
    }
  }
  const size = new Int32Array(n).fill(1);
  const active = new Uint8Array(n).fill(1);
  const members: (number[] | null)[] = Array.from({ length: n }, (_, i) => [i]);
  const nodes: number[][] = [];
  const chain: number[] = [];
  let remaining = n;
  while (remaining > 1) {
    if (chain.length === 0) {
      let first = 0;
      while (!active[first]) first++;
      chain.push(first);
    }
    const a = chain[chain.length - 1]!;
    const prev = chain.length > 1 ? chain[chain.length - 2]! : -1;
    let best = prev;
    let bestS = prev >= 0 ? sim[a * n + prev]! : -Infinity;
    for (let x = 0; x < n; x++) {
      if (x === a || !active[x]) continue;
      const s = sim[a * n + x]!;
      if (s > bestS) {
        bestS = s;
        best = x;
      }
    }
    if (best !== prev) {
      chain.push(best);
      continue;
    }
    // a and prev are reciprocal nearest neighbours: merge prev into a (Lance–Williams, average).
    chain.length -= 2;
    const [keep, drop] = a < prev ? [a, prev] : [prev, a];
    const sk = size[keep]!;
    const sd = size[drop]!;
    for (let x = 0; x < n; x++) {
      if (!active[x] || x === keep || x === drop) continue;
      const s = (sk * sim[keep * n + x]! + sd * sim[drop * n + x]!) / (sk + sd);
      sim[keep * n + x] = s;
      sim[x * n + keep] = s;
    }
    active[drop] = 0;
    size[keep] = sk + sd;
    const merged = [...members[keep]!, ...members[drop]!].sort((p, q) => p - q);
    members[keep] = merged;
    members[drop] = null;
    nodes.push(merged);
    remaining--;
  }
  return { nodes };
}
