/** Score prediction and tool selection: offline predictors, the memory and LLM extension points. */
export * from './types';
export * from './stats';
export * from './text-features';
export * from './linalg';
export * from './kernel-ridge';
export * from './prompt-kernel';
export * from './training-table';
export * from './targets';
export * from './similarity';
export * from './baselines';
export * from './knn';
export * from './ridge';
export * from './order-guard';
export * from './ensemble';
export * from './memory';
export * from './select';
export * from './registry';
