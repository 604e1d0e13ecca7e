/**
 * Exact top-k selection without sorting everything: a size-k min-heap over candidate indices,
 * O(n log k). Order is fixed for reproducibility: higher score first, then smaller id (string
 * order) — every retriever here uses this same rule, so rankings can be compared exactly.
 */

export interface Scored {
  id: string;
  score: number;
}

/** Negative when `a` ranks before `b`. */
export function compareScored(a: Scored, b: Scored): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Indices of the k best of `n` candidates, best first. `scoreAt(i)` and `idAt(i)` describe
 * candidate i; NaN scores are treated as −Infinity.
 */
export function topKIndices(n: number, k: number, scoreAt: (i: number) => number, idAt: (i: number) => string): number[] {
  const size = Math.max(0, Math.min(Math.floor(k), n));
  if (size === 0) return [];
  const score = (i: number) => {
    const s = scoreAt(i);
    return Number.isNaN(s) ? -Infinity : s;
  };
  // `worse(a, b)`: candidate a ranks after candidate b.
  const worse = (a: number, b: number) => {
    const sa = score(a);
    const sb = score(b);
    if (sa !== sb) return sa < sb;
    return idAt(a) > idAt(b);
  };
  const heap: number[] = [];
  const siftUp = (pos: number) => {
    while (pos > 0) {
      const parent = (pos - 1) >> 1;
      if (!worse(heap[pos]!, heap[parent]!)) break;
      [heap[pos], heap[parent]] = [heap[parent]!, heap[pos]!];
      pos = parent;
    }
  };
  const siftDown = (pos: number) => {
    for (;;) {
      const l = 2 * pos + 1;
      const r = l + 1;
      let w = pos;
      if (l < heap.length && worse(heap[l]!, heap[w]!)) w = l;
      if (r < heap.length && worse(heap[r]!, heap[w]!)) w = r;
      if (w === pos) return;
      [heap[pos], heap[w]] = [heap[w]!, heap[pos]!];
      pos = w;
    }
  };
  for (let i = 0; i < n; i++) {
    if (heap.length < size) {
      heap.push(i);
      siftUp(heap.length - 1);
    } else if (worse(heap[0]!, i)) {
      // The root is the worst kept candidate; i beats it.
      heap[0] = i;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/** Top k of already-materialised scored items (same order rule). */
export function topK<T extends Scored>(items: readonly T[], k: number): T[] {
  return topKIndices(
    items.length,
    k,
    (i) => items[i]!.score,
    (i) => items[i]!.id,
  ).map((i) => items[i]!);
}
