/** A hand-made EvalResult for the Evaluate page's helpers: two tools (A, B), tool-mean and knn, optional intervals. */
import type { EvalIntervals, EvalResult, Interval, MethodIntervals } from '../../../src/app/evaluate/api';

export const iv = (mean: number | null, lo: number | null, hi: number | null): Interval => ({ mean, lo, hi });

/** Two tools (A, B), two methods; tool-mean predicts A's training mean 3.9 and B's 3.4. */
export function result(over: Partial<EvalResult> = {}): EvalResult {
  return {
    report: {
      methods: {
        'tool-mean': {
          tools: { A: { mae: 1, rmse: 1.2, pearson: null, n: 800 }, B: { mae: 1.016, rmse: 1.17, pearson: null, n: 800 } },
          mean: { mae: 1.008, rmse: 1.185, pearson: null },
        },
        knn: {
          tools: { A: { mae: 0.94, rmse: 1.13, pearson: 0.3, n: 800 }, B: { mae: 0.96, rmse: 1.15, pearson: 0.26, n: 800 } },
          mean: { mae: 0.95, rmse: 1.14, pearson: 0.28 },
        },
      },
      pairs: {
        'tool-mean': [{ a: 'A', b: 'B', nUnequal: 394.666667, acc: 0.6, f1Less: 0.3, f1Greater: 0.7 }],
        knn: [{ a: 'A', b: 'B', nUnequal: 394.666667, acc: 0.7, f1Less: 0.4, f1Greater: 0.8 }],
      },
      baselines: { alwaysStronger: [{ a: 'A', b: 'B', acc: 0.6 }], oracleGapCaptured: { 'tool-mean': 0.46, knn: 0.43 } },
    },
    spread: {
      'tool-mean': { mae: 1.008, rmse: 1.185, pearson: NaN, maeSd: 0.0226, rmseSd: 0.0104, pearsonSd: NaN },
      knn: { mae: 0.95, rmse: 1.14, pearson: 0.28, maeSd: 0.0077, rmseSd: 0.0043, pearsonSd: 0.0247 },
    },
    toolSpread: {
      'tool-mean': { A: { mae: [1, 0.02], rmse: [1.2, 0.01], pearson: [NaN, NaN] }, B: { mae: [1.016, 0.03], rmse: [1.17, 0.01], pearson: [NaN, NaN] } },
      knn: { A: { mae: [0.94, 0.01], rmse: [1.13, 0.01], pearson: [0.3, 0.02] }, B: { mae: [0.96, 0.01], rmse: [1.15, 0.01], pearson: [0.26, 0.02] } },
    },
    points: {
      'tool-mean': [
        { taskId: 't1', toolId: 'A', predicted: 3.9, actual: 5 },
        { taskId: 't1', toolId: 'B', predicted: 3.4, actual: 3 },
        { taskId: 't2', toolId: 'A', predicted: 3.9, actual: 4 },
        { taskId: 't2', toolId: 'B', predicted: 3.4, actual: 1 },
      ],
      knn: [
        { taskId: 't1', toolId: 'A', predicted: 4.5, actual: 5 },
        { taskId: 't1', toolId: 'B', predicted: 3, actual: 3 },
        { taskId: 't2', toolId: 'A', predicted: 3, actual: 4 },
        { taskId: 't2', toolId: 'B', predicted: 2.2, actual: 1 },
      ],
    },
    selection: { 'tool-mean': 3.79, knn: 3.76 },
    alwaysStrongerSelection: 3.79,
    sizes: { train: 200, test: 800 },
    scale: { min: 1, max: 5, integer: true },
    ...over,
  };
}

const methodIv = (mae: Interval, gap: Interval, vs?: MethodIntervals['vsBaseline']): MethodIntervals => ({
  metrics: { mae, rmse: iv(1.1, 1.05, 1.15), pearson: iv(0.3, 0.25, 0.35), pairAcc: iv(0.65, 0.6, 0.7), gapCaptured: gap },
  ...(vs ? { vsBaseline: vs } : {}),
  tools: { A: { mae: iv(0.94, 0.9, 0.98), rmse: iv(1.13, 1.1, 1.16), pearson: iv(0.3, 0.2, 0.4) } },
});
const same = { diff: iv(0, -0.01, 0.01), verdict: 'same' as const };
export function intervals(knnVsMae: { diff: Interval; verdict: 'better' | 'same' | 'worse' }, knnGap = same): EvalIntervals {
  return {
    baseline: 'tool-mean',
    resamples: 1000,
    seed: 1,
    level: 0.95,
    methods: {
      'tool-mean': methodIv(iv(1.008, 0.993, 1.023), iv(0.46, 0.43, 0.49)),
      knn: methodIv(iv(0.953, 0.937, 0.969), iv(0.47, 0.44, 0.5), { mae: knnVsMae, rmse: same, pearson: same, pairAcc: same, gapCaptured: knnGap }),
    },
  };
}
