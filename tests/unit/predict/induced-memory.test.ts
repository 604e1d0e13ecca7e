/** The `memory` method of evaluations: a memory induced from the training split, then scored. */
import { describe, expect, it } from 'vitest';
import { evaluate, type ScoredPair } from '../../../src/core/eval';
import { induceClusterMemory, InducedMemoryPredictor } from '../../../src/core/predict';
import { ex, SCALE, set } from './helpers';

/** 40 tasks in two topics: A scores 5 on topic X (first axis), 2 on topic Y (second axis); B is flat. */
function twoTopics() {
  const examples = [];
  for (let i = 0; i < 40; i++) {
    const x = i % 2 === 0;
    const jitter = ((i * 7) % 11) / 100; // deterministic spread inside a topic
    const vec = Float32Array.from(x ? [1, jitter, 0.05] : [jitter, 1, 0.05]);
    const norm = Math.hypot(...vec);
    const vector = vec.map((c) => c / norm);
    const taskId = `t${String(i).padStart(2, '0')}`;
    examples.push(ex(taskId, 'A', x ? 5 - (i % 4 === 0 ? 0 : 1) : 2 - (i % 3 === 0 ? 1 : 0), { vector }));
    examples.push(ex(taskId, 'B', 3 + (i % 5 === 0 ? 1 : 0), { vector }));
  }
  return set(examples);
}

describe('induceClusterMemory', () => {
  it('finds the better and the worse topic of a tool, with centroid vectors and deterministic ids', () => {
    const memory = induceClusterMemory(twoTopics());
    const a = memory.entries.filter((e) => e.toolId === 'A');
    expect(a.length).toBeGreaterThanOrEqual(2);
    for (const e of a) {
      const v = memory.vectors.get(e.id)!;
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
      // Positive entries point at topic X, negative ones at topic Y.
      if (e.value > 0) expect(v[0]!).toBeGreaterThan(v[1]!);
      else expect(v[1]!).toBeGreaterThan(v[0]!);
      expect(e.id).toMatch(/^induced:A:c\.\d+$/);
      expect(e.origin).toBe('stats');
    }
    expect(a.some((e) => e.value > 0) && a.some((e) => e.value < 0)).toBe(true);
    expect(induceClusterMemory(twoTopics())).toEqual(memory);
  });
});

describe('InducedMemoryPredictor', () => {
  it('predicts above the tool mean on the strong topic and below on the weak one', () => {
    const p = new InducedMemoryPredictor();
    p.fit(twoTopics());
    const onX = p.predict({ taskId: 'qx', prompt: 'x', vector: Float32Array.from([1, 0, 0]) }, 'A');
    const onY = p.predict({ taskId: 'qy', prompt: 'y', vector: Float32Array.from([0, 1, 0]) }, 'A');
    const mean = (5 * 10 + 4 * 10 + 1 * 7 + 2 * 13) / 40; // A's training mean: 3.075
    expect(onX.score).toBeGreaterThan(mean);
    expect(onY.score).toBeLessThan(mean);
    expect(onX.evidence[0]).toMatchObject({ kind: 'entry' });
  });

  it('refuses to run without prompt vectors, with a clear message', () => {
    const p = new InducedMemoryPredictor();
    expect(() => p.fit(set([ex('a', 'A', 3), ex('b', 'A', 4)]))).toThrow(/needs a prompt vector/);
  });

  it('runs in the evaluation harness with a memory per seed (vectors by task id)', async () => {
    const train = twoTopics();
    const data: ScoredPair[] = train.examples.map((e) => ({
      taskId: e.taskId,
      prompt: e.prompt,
      toolId: e.toolId,
      score: e.score,
      ratings: [e.score],
      categories: [],
    }));
    const vectors = new Map(train.examples.map((e) => [e.taskId, e.vector!]));
    const report = await evaluate({
      data,
      scale: SCALE,
      sizes: { train: 30, test: 10 },
      seeds: [1, 2],
      vectors,
      methods: [{ id: 'memory', create: () => new InducedMemoryPredictor() }],
    });
    for (const s of report.seeds) expect(s.methods.memory!.tools.A!.pearson).toBeGreaterThan(0.5);
  });
});
