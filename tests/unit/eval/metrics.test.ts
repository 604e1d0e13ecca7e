import { describe, expect, it } from 'vitest';
import { alwaysStrongerAccuracy, mae, meanSd, pairMetrics, pearson, ranks, regressionMetrics, rmse, spearman } from '../../../src/core/eval/metrics';

// Golden values computed by hand (see comments).
describe('regression metrics', () => {
  const pred = [1, 2, 3, 4];
  const truth = [2, 2, 5, 3];
  it('MAE, RMSE', () => {
    // errors −1, 0, −2, 1
    expect(mae(pred, truth)).toBe(1); // (1+0+2+1)/4
    expect(rmse(pred, truth)).toBeCloseTo(Math.sqrt(1.5), 12); // sqrt((1+0+4+1)/4)
  });
  it('Pearson', () => {
    // dx = [−1.5, −0.5, 0.5, 1.5], dy = [−1, −1, 2, 0]: sxy = 3, sxx = 5, syy = 6
    expect(pearson(pred, truth)).toBeCloseTo(3 / Math.sqrt(30), 12);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(pearson([1], [1])).toBeNaN();
  });
  it('Spearman uses average ranks for ties', () => {
    expect(ranks([2, 2, 5, 3])).toEqual([1.5, 1.5, 4, 3]);
    // ranks y = [1.5, 1.5, 4, 3]: sxy = 3.5, sxx = 5, syy = 4.5
    expect(spearman(pred, truth)).toBeCloseTo(3.5 / Math.sqrt(22.5), 12);
  });
  it('bundles them with n', () => {
    expect(regressionMetrics(pred, truth)).toMatchObject({ mae: 1, n: 4 });
    expect(() => mae([1], [1, 2])).toThrow(RangeError);
    expect(mae([], [])).toBeNaN();
  });
});

describe('pair metrics (method.md definitions)', () => {
  const obs = [
    { trueA: 3, trueB: 3, predA: 1, predB: 2 }, // true tie: not in D
    { trueA: 2, trueB: 4, predA: 2, predB: 3 }, // <, predicted <  → TP<
    { trueA: 5, trueB: 1, predA: 4, predB: 3 }, // >, predicted >  → TP>
    { trueA: 1, trueB: 2, predA: 3, predB: 3 }, // <, predicted tie → wrong
    { trueA: 4, trueB: 2, predA: 2, predB: 3.5 }, // >, predicted <  → wrong
    { trueA: 2, trueB: 5, predA: 4, predB: 1 }, // <, predicted >  → wrong
  ];
  it('counts, F1 and accuracy with the tie rule', () => {
    const m = pairMetrics(obs);
    expect(m).toMatchObject({ nUnequal: 5, tpLess: 1, predLess: 2, trueLess: 3, tpGreater: 1, predGreater: 2, trueGreater: 2, predTies: 1 });
    expect(m.f1Less).toBeCloseTo(0.4, 12); // 2·1 / (2 + 3)
    expect(m.f1Greater).toBeCloseTo(0.5, 12); // 2·1 / (2 + 2)
    expect(m.acc).toBeCloseTo(0.4, 12); // (1 + 1) / 5
  });
  it('a predictor that always ties gets accuracy 0', () => {
    expect(pairMetrics(obs.map((o) => ({ ...o, predA: 3, predB: 3 }))).acc).toBe(0);
  });
  it('empty D: accuracy NaN, F1 0', () => {
    const m = pairMetrics([{ trueA: 1, trueB: 1, predA: 1, predB: 2 }]);
    expect(m.acc).toBeNaN();
    expect(m.f1Less).toBe(0);
  });
  it('always-stronger on D, equal training means count as wrong', () => {
    // A stronger (3.5 > 3): right on (5,1) and (4,2) of the 5 unequal tasks.
    expect(alwaysStrongerAccuracy(3.5, 3, obs)).toEqual({ acc: 0.4, nUnequal: 5 });
    expect(alwaysStrongerAccuracy(3, 3.5, obs).acc).toBeCloseTo(0.6, 12);
    expect(alwaysStrongerAccuracy(3, 3, obs).acc).toBe(0);
  });
});

describe('meanSd', () => {
  it('sample sd, NaNs skipped', () => {
    expect(meanSd([1, 2, 3, NaN])).toEqual({ mean: 2, sd: 1, n: 3 });
    expect(meanSd([4])).toEqual({ mean: 4, sd: 0, n: 1 });
    expect(meanSd([]).mean).toBeNaN();
  });
});
