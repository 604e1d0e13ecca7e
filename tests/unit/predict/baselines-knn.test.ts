import { describe, expect, it } from 'vitest';
import { KnnDifficultyPredictor, KnnPredictor, ToolMeanPredictor, ToolMedianPredictor, createPredictor } from '../../../src/core/predict';
import { ex, set, v } from './helpers';

// Three training tasks with 2-D unit vectors; the query [1, 0] has cosine 1 with t1, 0 with t2,
// 0.6 with t3 (zero-similarity neighbours are not used).
const vec = { t1: v(1, 0), t2: v(0, 1), t3: v(0.6, 0.8) };
const A = { t1: 5, t2: 1, t3: 3 }; // mean 3, sd 2 → z = [1, −1, 0]
const B = { t1: 2, t2: 4, t3: 3 }; // mean 3, sd 1 → z = [−1, 1, 0]; difficulty D = [0, 0, 0]
const train = set((['t1', 't2', 't3'] as const).flatMap((t) => [ex(t, 'A', A[t], { vector: vec[t] }), ex(t, 'B', B[t], { vector: vec[t] })]));
const query = { taskId: 'q', prompt: 'prompt q', vector: v(1, 0) };

describe('tool-mean / tool-median', () => {
  it('predict the training mean / median of the tool, whatever the task', () => {
    const mean = new ToolMeanPredictor();
    mean.fit(set([ex('a', 'X', 1), ex('b', 'X', 2), ex('c', 'X', 5), ex('a', 'Y', 4)]));
    expect(mean.predict(query, 'X')).toEqual({ score: 8 / 3, clamped: false, evidence: [] });
    expect(mean.predict(query, 'unknown').score).toBe(3); // global mean of 1, 2, 5, 4
    const med = new ToolMedianPredictor();
    med.fit(set([ex('a', 'X', 1), ex('b', 'X', 2), ex('c', 'X', 5)]));
    expect(med.predict(query, 'X').score).toBe(2);
    expect(() => new ToolMeanPredictor().predict(query, 'X')).toThrow(/before fit/);
  });
});

describe('knn', () => {
  it('similarity-weighted mean of the nearest training tasks of the tool (hand-computed)', () => {
    const p = new KnnPredictor({ similarity: 'dense' });
    p.fit(train);
    const out = p.predict(query, 'A');
    expect(out.score).toBeCloseTo((1 * 5 + 0.6 * 3) / 1.6, 6); // 4.25
    expect(out.evidence.map((e) => e.id)).toEqual(['t1|A', 't3|A']);
    expect(out.evidence[1]!.similarity).toBeCloseTo(0.6, 6);
    const k1 = new KnnPredictor({ similarity: 'dense', k: 1 });
    k1.fit(train);
    expect(k1.predict(query, 'A').score).toBeCloseTo(5, 6);
    const k0 = new KnnPredictor({ similarity: 'dense', k: 0 });
    k0.fit(train);
    expect(k0.predict(query, 'A').score).toBe(3);
  });

  it('shrinks toward the tool mean', () => {
    const p = new KnnPredictor({ similarity: 'dense', shrink: 1.6 });
    p.fit(train);
    expect(p.predict(query, 'A').score).toBeCloseTo((6.8 + 1.6 * 3) / 3.2, 6);
  });

  it('knee cut keeps the head of the similarity curve', () => {
    const vecs = [v(1, 0), v(0.99, 0.141), v(0.98, 0.199), v(0.2, 0.98), v(0.1, 0.995)];
    const data = set(vecs.map((x, i) => ex(`t${i}`, 'A', i < 3 ? 5 : 1, { vector: x })));
    const knee = new KnnPredictor({ similarity: 'dense', cut: 'knee', k: 5 });
    knee.fit(data);
    expect(knee.predict(query, 'A').score).toBeCloseTo(5, 6); // only the 3 near tasks
    const fixed = new KnnPredictor({ similarity: 'dense', k: 5 });
    fixed.fit(data);
    expect(fixed.predict(query, 'A').score).toBeLessThan(4.9);
  });

  it('needs vectors for dense similarity', () => {
    const p = new KnnPredictor({ similarity: 'dense' });
    expect(() => p.fit(set([ex('a', 'X', 1)]))).toThrow(/vector/);
  });

  it('lexical similarity works from prompts alone (tfidf, bm25)', () => {
    const data = set([ex('a', 'X', 5, { prompt: 'red cube on a table' }), ex('b', 'X', 1, { prompt: 'blue sphere in water' })]);
    for (const similarity of ['tfidf', 'bm25'] as const) {
      const p = new KnnPredictor({ similarity });
      p.fit(data);
      expect(p.predict({ taskId: 'q', prompt: 'a red cube' }, 'X').score).toBe(5);
      expect(p.predict({ taskId: 'r', prompt: 'nothing shared' }, 'X').score).toBe(3); // no neighbour → mean
    }
  });
});

describe('knn-difficulty', () => {
  it('adds the shared difficulty and the tool’s own deviation, in sd units (hand-computed)', () => {
    const p = new KnnDifficultyPredictor({ similarity: 'dense', shrinkDifficulty: 0, shrinkOwn: 0 });
    p.fit(train);
    // d = 0; own_A = (1·1 + 0.6·0) / 1.6 = 0.625 → 3 + 2·0.625; own_B = −0.625 → 3 − 1·0.625
    expect(p.predict(query, 'A').score).toBeCloseTo(4.25, 6);
    expect(p.predict(query, 'B').score).toBeCloseTo(2.375, 6);
    const shrunk = new KnnDifficultyPredictor({ similarity: 'dense' }); // m_d = 1, m_o = 3
    shrunk.fit(train);
    expect(shrunk.predict(query, 'A').score).toBeCloseTo(3 + 2 * (1 / 4.6), 6);
    expect(shrunk.predict(query, 'B').score).toBeCloseTo(3 - 1 / 4.6, 6);
  });

  it('shared difficulty moves every tool (hand-computed)', () => {
    // Both tools follow the same pattern: z = [1, −1, 0] for A and B → D = [1, −1, 0], own = 0.
    const same = set(
      (['t1', 't2', 't3'] as const).flatMap((t) => [ex(t, 'A', A[t], { vector: vec[t] }), ex(t, 'B', A[t] - 1 > 0 ? A[t] - 1 : 1, { vector: vec[t] })]),
    );
    const p = new KnnDifficultyPredictor({ similarity: 'dense', shrinkDifficulty: 0, shrinkOwn: 0 });
    p.fit(same);
    // d = (1·1 + 0.6·0) / 1.6 = 0.625 → A: 3 + 2·0.625 = 4.25
    expect(p.predict(query, 'A').score).toBeCloseTo(4.25, 6);
  });

  it('clamps to the scale and says so', () => {
    const p = createPredictor('knn', { similarity: 'dense' });
    p.fit(set([ex('a', 'X', 5, { vector: v(1, 0) })], { min: 0, max: 4, direction: 'higher-better', integer: false }));
    expect(p.predict(query, 'X')).toMatchObject({ score: 4, clamped: true });
  });
});
