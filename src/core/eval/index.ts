/** Evaluation: ground truth, seeded task splits, metrics, the harness, ablations and reports. */
export * from './rng';
export * from './ground-truth';
export * from './split';
export * from './metrics';
export * from './selection';
export * from './evaluate';
export * from './ablation';
export * from './report';
export * from './bootstrap';
export * from './interval-report';
