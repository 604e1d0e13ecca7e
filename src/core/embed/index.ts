/** Text embeddings: the host-independent contract and the cache logic. */
export * from './embedder';
export * from './embedding-cache';
export { sha256Hex } from './sha256';
export * from './load-progress';
export * from './static-model';
