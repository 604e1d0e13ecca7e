/** Retrieval over memory entries and experiences: dense, lexical, hybrid, per level, knee cut. */
export * from './top-k';
export * from './vector-index';
export * from './knee';
export * from './per-level';
export * from './text-tokens';
export * from './bm25';
export * from './hybrid';
export { normalisedCopy, dotRow } from './vector-math';
