/**
 * Retrieval the way the method uses it: for one tool, the k most similar entries of EACH level
 * (proficient / good / bad / weak), so that a level with many near-duplicates cannot crowd out the
 * others; or, instead of a fixed k, a cut at the knee of the similarity curve.
 */
import { dict } from '../data-keys';
import { LEVELS, type Level } from '../types';
import { kneeCut, type KneeBounds } from './knee';
import type { VectorHit, VectorIndex } from './vector-index';

/**
 * Top k per level for `tool`. `levels` defaults to the four memory levels (pass your own when the
 * index groups by other labels). Every requested level is present in the result, possibly empty.
 */
export function topKPerLevel<L extends string = Level>(
  index: VectorIndex<L>,
  query: ArrayLike<number>,
  tool: string,
  k: number,
  // The default is the app's levels, for L = Level; other level sets pass their own.
  levels: readonly L[] = LEVELS as readonly L[],
): Record<L, VectorHit<L>[]> {
  const out = dict<VectorHit<L>[]>() as Record<L, VectorHit<L>[]>;
  for (const level of levels) out[level] = index.search(query, { tool, level, k });
  return out;
}

/** `max` defaults to 12 here (the paper's k at test time), `min` to 1. */
export interface KneeTopNOptions<L extends string = Level> extends KneeBounds {
  tool: string;
  level?: L;
  /**
   * How many best candidates the curve is drawn from (default max(4·max, 32)). Kneedle on the whole
   * tail of a large memory would find the knee of the tail, not of the relevant head.
   */
  window?: number;
}

/** The best entries up to the knee of their similarity curve, within [min, max]. */
export function kneeTopN<L extends string = Level>(index: VectorIndex<L>, query: ArrayLike<number>, opts: KneeTopNOptions<L>): VectorHit<L>[] {
  const max = opts.max ?? 12;
  const window = Math.max(opts.window ?? Math.max(4 * max, 32), max);
  const hits = index.search(query, { tool: opts.tool, level: opts.level, k: window });
  const n = kneeCut(
    hits.map((h) => h.score),
    { min: opts.min ?? 1, max },
  );
  return hits.slice(0, n);
}

/** `kneeTopN` for each level separately. */
export function kneeTopNPerLevel<L extends string = Level>(
  index: VectorIndex<L>,
  query: ArrayLike<number>,
  tool: string,
  bounds: KneeBounds & { window?: number } = {},
  // The default is the app's levels, for L = Level; other level sets pass their own.
  levels: readonly L[] = LEVELS as readonly L[],
): Record<L, VectorHit<L>[]> {
  const out = dict<VectorHit<L>[]>() as Record<L, VectorHit<L>[]>;
  for (const level of levels) out[level] = kneeTopN(index, query, { ...bounds, tool, level });
  return out;
}
