/**
 * Capability memory: induction from scored experiences (LLM-refined updates, critiques) and from
 * statistics alone (evidence clusters), the resumable build job, undo, and the JSON file format.
 */
export * from './repository';
export * from './plan';
export * from './operations';
export * from './dedup';
export * from './entry-index';
export * from './ask';
export * from './induce';
export * from './update-context';
export * from './clusters';
export * from './cluster-text';
export * from './agglomerative';
export * from './kmeans';
export * from './stat-tests';
export * from './training';
export * from './job';
export * from './runner';
export * from './undo';
export * from './memory-file';
export * from './drift';
export * from './test-cases';
