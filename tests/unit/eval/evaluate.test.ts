import { describe, expect, it } from 'vitest';
import { evaluate, toJsonReport, topKAblation, type ScoredPair } from '../../../src/core/eval';
import { createPredictor, toPrediction, type Predictor, type PredictTask, type TrainingSet } from '../../../src/core/predict';
import type { ScoreScale } from '../../../src/core/types';

const scale: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: true };

/** 24 tasks × 3 tools; "no" makes a prompt hard for every tool; tool A is the strongest. */
function synthetic(): ScoredPair[] {
  const subjects = ['cat', 'dog', 'car', 'tree', 'lamp', 'boat', 'bird', 'cup', 'book', 'chair', 'moon', 'ship'];
  const out: ScoredPair[] = [];
  subjects.forEach((s, i) => {
    for (const hard of [false, true]) {
      const taskId = `t${String(i * 2 + (hard ? 1 : 0)).padStart(2, '0')}`;
      const prompt = hard ? `a ${s} with no shadow` : `a ${s} in the sun`;
      const base = hard ? 2 : 4;
      for (const [toolId, bonus] of [
        ['A', 1],
        ['B', 0],
        ['C', (i % 3) - 1],
      ] as const) {
        const score = Math.max(1, Math.min(5, base + bonus));
        out.push({ taskId, prompt, toolId, score, ratings: [score], categories: [] });
      }
    }
  });
  return out;
}

class Spy implements Predictor {
  readonly kind = 'sync' as const;
  readonly id = 'spy';
  readonly needs = {};
  trained = new Set<string>();
  asked = new Set<string>();
  fit(train: TrainingSet) {
    for (const e of train.examples) this.trained.add(e.taskId);
  }
  predict(task: PredictTask) {
    this.asked.add(task.taskId);
    return toPrediction(9, scale); // clamped to 5
  }
}

describe('evaluate', () => {
  const data = synthetic();
  it('fits on training tasks only and predicts only test tasks', async () => {
    const spies: Spy[] = [];
    const report = await evaluate({
      data,
      scale,
      sizes: { train: 10, test: 14 },
      seeds: [1, 2],
      methods: [{ id: 'spy', create: () => (spies.push(new Spy()), spies[spies.length - 1]!) }],
    });
    report.seeds.forEach((s, i) => {
      expect([...spies[i]!.trained].sort()).toEqual([...s.split.train].sort());
      expect([...spies[i]!.asked].sort()).toEqual([...s.split.test].sort());
      expect(s.methods.spy!.clamped).toBe(14 * 3);
      expect(s.methods.spy!.predictions).toBe(14 * 3);
    });
  });

  it('is deterministic: same seeds, same numbers', async () => {
    const run = () =>
      evaluate({
        data,
        scale,
        sizes: { train: 10, test: 14 },
        seeds: [1, 2, 3],
        methods: ['tool-mean', 'knn', 'knn-difficulty', 'ridge', 'ensemble'].map((id) => ({ id, create: () => createPredictor(id as never) })),
      });
    const [a, b] = await Promise.all([run(), run()]);
    expect(toJsonReport(a)).toEqual(toJsonReport(b));
  });

  it('learns the shared difficulty and reports the JSON shape', async () => {
    const report = await evaluate({
      data,
      scale,
      sizes: { train: 12, test: 12 },
      seeds: [1, 2],
      methods: ['tool-mean', 'knn-difficulty', 'ensemble'].map((id) => ({ id, create: () => createPredictor(id as never) })),
      toolPairs: [['A', 'B']],
    });
    const json = toJsonReport(report);
    expect(Object.keys(json)).toEqual(['methods', 'pairs', 'baselines']);
    expect(Object.keys(json.methods)).toEqual(['tool-mean', 'knn-difficulty', 'ensemble']);
    expect(Object.keys(json.methods.ensemble!.tools)).toEqual(['A', 'B', 'C']);
    expect(Object.keys(json.methods.ensemble!.tools.A!)).toEqual(['mae', 'rmse', 'pearson', 'n']);
    expect(Object.keys(json.methods.ensemble!.mean)).toEqual(['mae', 'rmse', 'pearson']);
    expect(Object.keys(json.pairs.ensemble![0]!)).toEqual(['a', 'b', 'nUnequal', 'acc', 'f1Less', 'f1Greater']);
    expect(Object.keys(json.baselines)).toEqual(['alwaysStronger', 'oracleGapCaptured']);
    expect(Object.keys(json.baselines.alwaysStronger[0]!)).toEqual(['a', 'b', 'acc']);
    expect(json.methods['tool-mean']!.mean.pearson).toBeNull(); // constant predictions: undefined r
    // "no" predicts difficulty: the learned methods beat the constant one clearly.
    expect(json.methods.ensemble!.mean.rmse!).toBeLessThan(json.methods['tool-mean']!.mean.rmse! - 0.3);
    expect(json.methods['knn-difficulty']!.mean.pearson!).toBeGreaterThan(0.8);
    // A beats B on every task: always-stronger and the order-guarded ensemble are always right.
    expect(json.baselines.alwaysStronger[0]!.acc).toBe(1);
    expect(json.pairs.ensemble![0]!.acc).toBe(1);
    expect(json.methods.ensemble!.tools.A!.n).toBe(12);
  });

  it('top-k ablation: k = 0 is the tool mean; knee never keeps more than k', async () => {
    const rows = await topKAblation({
      data,
      scale,
      sizes: { train: 12, test: 12 },
      seeds: [1],
      methods: ['knn'],
      ks: [0, 1, 4],
      make: (m, k, cut) => createPredictor(m as 'knn', { k, cut }),
    });
    expect(rows.map((r) => `${r.cut}:${r.k}`)).toEqual(['fixed:0', 'fixed:1', 'fixed:4', 'knee:0', 'knee:1', 'knee:4']);
    const mean = await evaluate({
      data,
      scale,
      sizes: { train: 12, test: 12 },
      seeds: [1],
      methods: [{ id: 'm', create: () => createPredictor('tool-mean') }],
    });
    expect(rows[0]!.mae).toBeCloseTo(mean.seeds[0]!.methods.m!.mean.mae, 12);
    expect(rows[3]!.mae).toBeCloseTo(rows[0]!.mae, 12);
  });
});
