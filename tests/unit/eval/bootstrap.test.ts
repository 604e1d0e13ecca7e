import { describe, expect, it } from 'vitest';
import { bootstrapIntervals, percentile, percentileInterval, verdictOf } from '../../../src/core/eval/bootstrap';
import { evaluate, toJsonReport, type EvalReport, type PredictionMatrix, type ScoredPair } from '../../../src/core/eval';
import { createPredictor } from '../../../src/core/predict';
import type { ScoreScale } from '../../../src/core/types';

const NaN3 = [NaN, NaN];

/**
 * A hand-made one-seed report over 3 test tasks × tools A, B (the metrics only read `matrix`):
 *   truth      t0 A1 B3 · t1 A2 B2 · t2 A4 B1
 *   tool-mean  A2 B2 everywhere (constant: Pearson undefined, every pair predicted tied)
 *   x          t0 A1 B2 · t1 A3 B2 · t2 A4 B2
 */
function handReport(extra: Record<string, { pred: number[]; scored?: number }> = {}): EvalReport {
  const methods: Record<string, { pred: number[]; scored?: number }> = { 'tool-mean': { pred: [2, 2, 2, 2, 2, 2] }, x: { pred: [1, 2, 3, 2, 4, 2] }, ...extra };
  const matrix: PredictionMatrix = {
    taskIds: ['t0', 't1', 't2'],
    tools: ['A', 'B'],
    truth: Float64Array.from([1, 3, 2, 2, 4, 1]),
    predicted: new Map(Object.entries(methods).map(([id, m]) => [id, Float64Array.from(m.pred)])),
    scored: new Map(Object.entries(methods).map(([id, m]) => [id, m.scored ?? 3])),
  };
  const seed = {
    seed: 1,
    split: { seed: 1, train: [], test: matrix.taskIds },
    tools: ['A', 'B'],
    methods: {},
    matrix,
    baselines: { alwaysStronger: [], alwaysStrongerSelection: { tasks: 0, selected: NaN, random: NaN, oracle: NaN, gapCaptured: NaN }, trainMean: {} },
  };
  return { seeds: [seed], tools: ['A', 'B'], toolPairs: [['A', 'B']], methods: Object.keys(methods), sizes: { train: 0, test: 3 } };
}

/** Known resamples: b0 = t0 t0 t1, b1 = t2 t2 t2, b2 = t0 t1 t2, b3 = t1 t1 t2. */
const DRAWS = [
  [0, 0, 1],
  [2, 2, 2],
  [0, 1, 2],
  [1, 1, 2],
];
const draw = (_s: number, b: number) => DRAWS[b]!;

describe('percentiles and verdicts', () => {
  it('type-7 percentiles; undefined when fewer than half the resamples are finite', () => {
    expect(percentile([-1, -1 / 3, -1 / 6, 0], 0.025)).toBeCloseTo(-0.95, 12);
    expect(percentile([-1, -1 / 3, -1 / 6, 0], 0.975)).toBeCloseTo(-0.0125, 12);
    expect(percentileInterval(2, [1, NaN, 3])).toEqual({ mean: 2, lo: 1.05, hi: 2.95 });
    expect(percentileInterval(NaN, [1, NaN, NaN])).toEqual({ mean: null, lo: null, hi: null });
  });

  it('lower is better for MAE and RMSE; an interval touching 0 is no clear difference', () => {
    expect(verdictOf('mae', { mean: -0.2, lo: -0.3, hi: -0.1 })).toBe('better');
    expect(verdictOf('rmse', { mean: 0.2, lo: 0.1, hi: 0.3 })).toBe('worse');
    expect(verdictOf('pearson', { mean: 0.2, lo: 0.1, hi: 0.3 })).toBe('better');
    expect(verdictOf('pairAcc', { mean: -0.2, lo: -0.3, hi: -0.1 })).toBe('worse');
    expect(verdictOf('gapCaptured', { mean: 0, lo: 0, hi: 0.3 })).toBe('same');
    expect(verdictOf('mae', { mean: null, lo: null, hi: null })).toBe('same');
  });
});

describe('bootstrapIntervals: a hand-computed case', () => {
  it('intervals and differences from four known resamples', async () => {
    const r = await bootstrapIntervals(handReport(), { resamples: 4, draw });
    expect(r.baseline).toBe('tool-mean');
    const x = r.methods.x!;
    // x's MAE is (A + B)/2 = 0.5 on every one of the four resamples (and on the full set).
    expect(x.metrics.mae.mean).toBeCloseTo(0.5, 12);
    expect(x.metrics.mae.lo).toBeCloseTo(0.5, 12);
    expect(x.metrics.mae.hi).toBeCloseTo(0.5, 12);
    // tool-mean: full set A 1, B 2/3 → 5/6; resamples 2/3, 3/2, 5/6, 1/2.
    const tm = r.methods['tool-mean']!;
    expect(tm.metrics.mae.mean).toBeCloseTo(5 / 6, 12);
    expect(tm.metrics.mae.lo).toBeCloseTo(percentile([1 / 2, 2 / 3, 5 / 6, 3 / 2], 0.025), 12);
    expect(tm.vsBaseline).toBeUndefined();
    // Differences x − tool-mean per resample: −1/6, −1, −1/3, 0 → [−0.95, −0.0125]: clearly better.
    const d = x.vsBaseline!.mae;
    expect(d.diff.mean).toBeCloseTo(-1 / 3, 12);
    expect(d.diff.lo).toBeCloseTo(-0.95, 12);
    expect(d.diff.hi).toBeCloseTo(-0.0125, 12);
    expect(d.verdict).toBe('better');
    // RMSE on b1 (t2 three times): x A 0, B 1 → 0.5; on b3 (t1 t1 t2): A √(2/3), B √(1/3).
    expect(x.tools.A!.rmse.mean).toBeCloseTo(Math.sqrt(1 / 3), 12);
    // Pair A–B: t1 is a true tie (not counted); x orders t0 and t2 right, tool-mean predicts ties (wrong).
    expect(x.metrics.pairAcc).toEqual({ mean: 1, lo: 1, hi: 1 });
    expect(tm.metrics.pairAcc).toEqual({ mean: 0, lo: 0, hi: 0 });
    expect(x.vsBaseline!.pairAcc.verdict).toBe('better');
    // Gap captured: x picks the best tool on every task (1); tool-mean's tie is the random pick (0).
    expect(x.metrics.gapCaptured.mean).toBeCloseTo(1, 12);
    expect(tm.metrics.gapCaptured.mean).toBeCloseTo(0, 12);
    // Pearson: tool A r([1,3,4], [1,2,4]) = 39/42; B constant → undefined, so the mean is A's.
    expect(x.tools.A!.pearson.mean).toBeCloseTo(39 / 42, 12);
    expect(x.tools.B!.pearson).toEqual({ mean: null, lo: null, hi: null });
    expect(x.metrics.pearson.mean).toBeCloseTo(39 / 42, 12);
    expect(tm.metrics.pearson).toEqual({ mean: null, lo: null, hi: null });
    expect(x.vsBaseline!.pearson).toEqual({ diff: { mean: null, lo: null, hi: null }, verdict: 'same' });
  });

  it('a method scored on fewer tasks is compared with the baseline on those tasks only', async () => {
    // y = tool-mean's predictions, scored on t0 and t1 only: its difference is exactly 0 everywhere.
    const r = await bootstrapIntervals(handReport({ y: { pred: [2, 2, 2, 2, ...NaN3], scored: 2 } }), { resamples: 4, draw });
    const y = r.methods.y!;
    expect(y.metrics.mae.mean).toBeCloseTo(0.5, 12); // t0, t1: A (1 + 0)/2, B (1 + 0)/2
    for (const k of ['mae', 'rmse', 'pairAcc', 'gapCaptured'] as const) {
      expect(y.vsBaseline![k].diff).toEqual({ mean: 0, lo: 0, hi: 0 });
      expect(y.vsBaseline![k].verdict).toBe('same');
    }
  });
});

const scale: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: true };

/** 40 tasks × 3 tools with a word that makes a task hard for all, and noise. */
function synthetic(): ScoredPair[] {
  const out: ScoredPair[] = [];
  const words = ['cat', 'dog', 'car', 'tree', 'lamp', 'boat', 'bird', 'cup', 'book', 'chair'];
  for (let i = 0; i < 40; i++) {
    const hard = i % 2 === 1;
    const prompt = `a ${words[i % 10]} ${hard ? 'with no shadow' : 'in the sun'} ${i}`;
    for (const [toolId, bonus] of [
      ['A', 1],
      ['B', 0],
      ['C', ((i * 7) % 3) - 1],
    ] as const) {
      const score = Math.max(1, Math.min(5, (hard ? 2 : 4) + bonus + ((i * 13 + bonus * 5) % 3) - 1));
      out.push({ taskId: `t${i}`, prompt, toolId, score, ratings: [score], categories: [] });
    }
  }
  return out;
}

async function run(seeds: number[], methods = ['tool-mean', 'knn', 'knn-difficulty']): Promise<EvalReport> {
  return evaluate({
    data: synthetic(),
    scale,
    sizes: { train: 16, test: 24 },
    seeds,
    methods: methods.map((id) => ({ id, create: () => createPredictor((id === 'knn-copy' ? 'knn' : id) as 'knn', { k: 5 }) })),
  });
}

describe('bootstrapIntervals on an evaluation', () => {
  it('point estimates are the report means (over seeds); bounds bracket them', async () => {
    const report = await run([1, 2]);
    const json = toJsonReport(report);
    const r = await bootstrapIntervals(report, { resamples: 200 });
    for (const m of report.methods) {
      const i = r.methods[m]!;
      expect(i.metrics.mae.mean).toBeCloseTo(json.methods[m]!.mean.mae!, 5);
      expect(i.metrics.rmse.mean).toBeCloseTo(json.methods[m]!.mean.rmse!, 5);
      expect(i.metrics.gapCaptured.mean).toBeCloseTo(json.baselines.oracleGapCaptured[m]!, 5);
      const acc = report.seeds.map((s) => s.methods[m]!.pairs.reduce((a, p) => a + p.acc, 0) / s.methods[m]!.pairs.length);
      expect(i.metrics.pairAcc.mean).toBeCloseTo((acc[0]! + acc[1]!) / 2, 9);
      for (const t of ['A', 'B', 'C']) expect(i.tools[t]!.mae.mean).toBeCloseTo(json.methods[m]!.tools[t]!.mae!, 5);
      expect(i.metrics.mae.lo!).toBeLessThan(i.metrics.mae.hi!);
      expect(i.metrics.mae.lo!).toBeLessThanOrEqual(i.metrics.mae.mean! + 1e-9);
    }
    expect(r.methods.knn!.metrics.pearson.mean).toBeCloseTo(json.methods.knn!.mean.pearson!, 5);
  });

  it('is deterministic for a seed, and another seed gives other bounds', async () => {
    const report = await run([1]);
    const a = await bootstrapIntervals(report, { resamples: 300, seed: 7 });
    const b = await bootstrapIntervals(report, { resamples: 300, seed: 7 });
    const c = await bootstrapIntervals(report, { resamples: 300, seed: 8 });
    expect(b).toEqual(a);
    expect(c.methods.knn!.metrics.mae.lo).not.toBe(a.methods.knn!.metrics.mae.lo);
    expect(c.methods.knn!.metrics.mae.mean).toBe(a.methods.knn!.metrics.mae.mean);
  });

  it('is paired: two copies of one method differ by exactly 0 although each has a wide interval', async () => {
    const report = await run([1, 2], ['knn', 'knn-copy', 'tool-mean']);
    const r = await bootstrapIntervals(report, { resamples: 300, baseline: 'knn' });
    const copy = r.methods['knn-copy']!;
    expect(copy.metrics.mae.hi! - copy.metrics.mae.lo!).toBeGreaterThan(0.05);
    for (const k of ['mae', 'rmse', 'pearson', 'pairAcc', 'gapCaptured'] as const) {
      expect(copy.vsBaseline![k]).toEqual({ diff: { mean: 0, lo: 0, hi: 0 }, verdict: 'same' });
    }
  });

  it("draws each seed's resamples once, for all methods together", async () => {
    const report = await run([1, 2], ['knn', 'knn-copy', 'tool-mean']);
    const calls: string[] = [];
    const r = await bootstrapIntervals(report, {
      resamples: 3,
      draw: (s, b, n) => (calls.push(`${s}:${b}`), Array.from({ length: n }, (_, i) => (i * (b + 1)) % n)),
    });
    expect(calls).toEqual(['0:0', '0:1', '0:2', '1:0', '1:1', '1:2']);
    expect(r.methods.knn!.metrics.mae).toEqual(r.methods['knn-copy']!.metrics.mae);
  });

  it('refuses a baseline that did not run and a resample count below 1; honours a cancel', async () => {
    const report = await run([1]);
    await expect(bootstrapIntervals(report, { baseline: 'nope' })).rejects.toThrow(/baseline nope/);
    await expect(bootstrapIntervals(report, { resamples: 0 })).rejects.toThrow(/resamples/);
    const ctl = new AbortController();
    ctl.abort(new Error('stop'));
    await expect(bootstrapIntervals(report, { signal: ctl.signal })).rejects.toThrow('stop');
  });
});
