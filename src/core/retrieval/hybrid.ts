/**
 * Hybrid retrieval: dense cosine and BM25, each min-max normalised over the candidates of the
 * query's scope, mixed as  alpha·dense + (1 − alpha)·lexical.  The method notes found lexical
 * features beat averaged word vectors on GenAI-Bench, so the mix is learned per dataset with
 * `chooseAlpha` rather than fixed.
 */
import { CancelledError } from '../errors';
import type { Level } from '../types';
import { Bm25Index, type Bm25Options } from './bm25';
import { topK } from './top-k';
import { VectorIndex, type VectorScope } from './vector-index';

export interface HybridDoc<L extends string = Level> {
  id: string;
  tool: string;
  level: L;
  text: string;
  vector: ArrayLike<number>;
}

export interface HybridQuery {
  text: string;
  vector: ArrayLike<number>;
}

export interface HybridHit<L extends string = Level> {
  id: string;
  tool: string;
  level: L;
  /** Mixed score in [0, 1]. */
  score: number;
  /** Raw cosine and raw BM25 behind it. */
  dense: number;
  lexical: number;
}

export interface HybridSearchOptions<L extends string = Level> extends VectorScope<L> {
  k: number;
  /** Weight of the dense score, 0…1 (default 0.5). */
  alpha?: number;
}

/** (x − min)/(max − min); all zeros when every value is equal (the term then cannot rank). */
export function minMaxNormalise(values: readonly number[]): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const range = hi - lo;
  return values.map((v) => (range > 0 ? (v - lo) / range : 0));
}

export class HybridRetriever<L extends string = Level> {
  readonly vectors: VectorIndex<L>;
  readonly lexical: Bm25Index;

  constructor(dim: number, bm25?: Bm25Options) {
    this.vectors = new VectorIndex<L>(dim);
    this.lexical = new Bm25Index(bm25);
  }

  get size(): number {
    return this.vectors.size;
  }

  /** Adds or replaces (same id) a document in both indexes. */
  add(doc: HybridDoc<L>): void {
    this.vectors.add(doc);
    this.lexical.add(doc.id, doc.text);
  }

  remove(id: string): boolean {
    const a = this.vectors.remove(id);
    const b = this.lexical.remove(id);
    return a || b;
  }

  search(query: HybridQuery, opts: HybridSearchOptions<L>): HybridHit<L>[] {
    const alpha = opts.alpha ?? 0.5;
    if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`alpha must be in [0, 1], got ${alpha}`);
    // Candidates: every document in scope (both scores are needed for each to normalise them).
    const dense = this.vectors.scoreAll(query.vector, { tool: opts.tool, level: opts.level });
    const lexAll = this.lexical.scores(query.text);
    const lexical = dense.map((h) => lexAll.get(h.id) ?? 0);
    const dn = minMaxNormalise(dense.map((h) => h.score));
    const ln = minMaxNormalise(lexical);
    const mixed = dense.map((h, i) => ({
      id: h.id,
      tool: h.tool,
      level: h.level,
      score: alpha * dn[i]! + (1 - alpha) * ln[i]!,
      dense: h.score,
      lexical: lexical[i]!,
    }));
    return topK(mixed, opts.k);
  }
}

export interface AlphaChoice {
  alpha: number;
  score: number;
  /** Objective at every grid point, in grid order. */
  table: { alpha: number; score: number }[];
}

/** 0, 0.1, …, 1 (computed as i/10, so values are exact decimals, not accumulated sums). */
export const ALPHA_GRID: readonly number[] = Array.from({ length: 11 }, (_, i) => i / 10);

/**
 * Picks alpha on training data: evaluates `objective(alpha)` (higher is better, e.g. MRR of the
 * relevant entries) on every grid point and returns the best; ties go to the earlier grid point.
 * NaN objectives never win.
 */
export async function chooseAlpha(
  objective: (alpha: number) => number | Promise<number>,
  opts: { grid?: readonly number[]; signal?: AbortSignal } = {},
): Promise<AlphaChoice> {
  const grid = opts.grid ?? ALPHA_GRID;
  if (grid.length === 0) throw new RangeError('empty alpha grid');
  const table: { alpha: number; score: number }[] = [];
  let best = { alpha: grid[0]!, score: -Infinity };
  for (const alpha of grid) {
    if (opts.signal?.aborted) throw new CancelledError();
    const score = await objective(alpha);
    table.push({ alpha, score });
    if (score > best.score) best = { alpha, score };
  }
  return { ...best, table };
}

export interface RetrievalExample<L extends string = Level> extends VectorScope<L> {
  query: HybridQuery;
  /** Ids that count as correct answers. */
  relevant: readonly string[];
}

/** A ready objective for `chooseAlpha`: mean reciprocal rank of the first relevant id in the top k. */
export function mrrObjective<L extends string = Level>(
  retriever: HybridRetriever<L>,
  examples: readonly RetrievalExample<L>[],
  k = 10,
): (alpha: number) => number {
  return (alpha) => {
    if (examples.length === 0) return 0;
    let sum = 0;
    for (const ex of examples) {
      const hits = retriever.search(ex.query, { tool: ex.tool, level: ex.level, k, alpha });
      const rank = hits.findIndex((h) => ex.relevant.includes(h.id));
      if (rank >= 0) sum += 1 / (rank + 1);
    }
    return sum / examples.length;
  };
}
