import { describe, expect, it } from 'vitest';
import { createPredictor, toPrediction, type Predictor, type PredictTask, type TrainingSet } from '../../../src/core/predict';
import { bankSimilarities, residualBank, scoreRange, type ResidualBank } from '../../../src/core/predict/residuals';
import { TaskSimilarity } from '../../../src/core/predict/similarity';
import type { ScoreScale } from '../../../src/core/types';

const scale: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: true };

function set(scores: Record<string, number[]>): TrainingSet {
  const examples = Object.entries(scores).flatMap(([toolId, s]) => s.map((score, i) => ({ taskId: `t${i}`, prompt: `prompt number ${i}`, toolId, score })));
  return { scale, examples };
}

describe('residualBank', () => {
  it('tool-mean residuals are each task minus the mean of the OTHER tasks (out of fold)', async () => {
    const bank = (await residualBank(() => createPredictor('tool-mean'), set({ A: [1, 2, 3, 6] }), { folds: 5 }))!;
    expect(bank.folds).toBe(4); // never more folds than tasks
    const byTask = new Map(bank.tasks.map((t, i) => [t.taskId, bank.residuals[i]!]));
    // 12 in all: t0 1 − 11/3, t1 2 − 10/3, t2 3 − 9/3, t3 6 − 6/3.
    expect(byTask.get('t0')).toBeCloseTo(1 - 11 / 3, 12);
    expect(byTask.get('t1')).toBeCloseTo(2 - 10 / 3, 12);
    expect(byTask.get('t2')).toBeCloseTo(0, 12);
    expect(byTask.get('t3')).toBeCloseTo(4, 12);
  });

  it('no fold model predicts a task it was fitted on; training per fold is capped', async () => {
    const log: { trained: Set<string>; asked: Set<string> }[] = [];
    class Spy implements Predictor {
      readonly kind = 'sync' as const;
      readonly id = 'spy';
      readonly needs = {};
      entry = { trained: new Set<string>(), asked: new Set<string>() };
      fit(train: TrainingSet) {
        for (const e of train.examples) this.entry.trained.add(e.taskId);
        log.push(this.entry);
      }
      predict(task: PredictTask) {
        this.entry.asked.add(task.taskId);
        return toPrediction(3, scale);
      }
    }
    const scores = Array.from({ length: 30 }, (_, i) => 1 + (i % 5));
    const bank = (await residualBank(() => new Spy(), set({ A: scores, B: scores }), { folds: 5, maxTrain: 10, maxTasks: 20 }))!;
    expect(log).toHaveLength(5);
    expect(bank.tasks).toHaveLength(20);
    for (const f of log) {
      expect(f.trained.size).toBe(10);
      for (const id of f.asked) expect(f.trained.has(id)).toBe(false);
    }
    expect(new Set(log.flatMap((f) => [...f.asked])).size).toBe(20);
    expect(await residualBank(() => new Spy(), set({ A: [3] }))).toBeNull();
  });
});

/** A hand-made bank: 5 "red cat" tasks with residuals −2…2 and 5 "blue boat" tasks with residuals 0. */
function handBank(): ResidualBank {
  const tasks: PredictTask[] = [
    ...[0, 1, 2, 3, 4].map((i) => ({ taskId: `c${i}`, prompt: `a red cat number${i}` })),
    ...[0, 1, 2, 3, 4].map((i) => ({ taskId: `b${i}`, prompt: `a blue boat item${i}` })),
  ];
  const similarity = new TaskSimilarity({ kind: 'tfidf' });
  similarity.fit(tasks);
  return { tasks, tools: ['A'], residuals: Float64Array.from([-2, -1, 0, 1, 2, 0, 0, 0, 0, 0]), folds: 5, maxTrain: 400, allTasks: 10, similarity };
}

describe('scoreRange', () => {
  it('reads the 10% / 90% quantiles of the most similar tasks, else of all; clamps to the scale', () => {
    const bank = handBank();
    const sims = bankSimilarities(bank, { taskId: 'q', prompt: 'red cat' });
    // The five cat tasks are similar: residuals −2…2 → type-7 quantiles −1.6 and 1.6.
    const near = scoreRange(bank, sims, 'A', 3, scale, { k: 5, minSimilar: 5, minSimilarity: 0.1 })!;
    expect(near).toMatchObject({ source: 'similar', n: 5, level: 0.8 });
    expect(near.lo).toBeCloseTo(1.4, 12);
    expect(near.hi).toBeCloseTo(4.6, 12);
    // Asking for more similar tasks than there are: all ten residuals (−2, −1, 0 ×6, 1, 2) → −1.1 and 1.1.
    const all = scoreRange(bank, sims, 'A', 3, scale, { minSimilar: 6, minSimilarity: 0.1 })!;
    expect(all).toMatchObject({ source: 'overall', n: 10 });
    expect(all.lo).toBeCloseTo(1.9, 12);
    expect(all.hi).toBeCloseTo(4.1, 12);
    const high = scoreRange(bank, sims, 'A', 4.5, scale, { k: 5, minSimilar: 5, minSimilarity: 0.1 })!;
    expect(high.hi).toBe(5);
    expect(scoreRange(bank, sims, 'Z', 3, scale)).toBeNull();
  });
});
