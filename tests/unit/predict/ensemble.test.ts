import { describe, expect, it } from 'vitest';
import { EnsemblePredictor, guardOrder, isotonic, RidgePredictor, type TrainingExample } from '../../../src/core/predict';
import { SCALE, set } from './helpers';

/** 30 tasks, 3 tools: "no" makes a prompt hard for everyone (−2); A is the strongest tool. */
function synthetic(): TrainingExample[] {
  const subjects = ['cat', 'dog', 'car', 'tree', 'lamp', 'boat', 'bird', 'cup', 'book', 'chair', 'moon', 'ship', 'kite', 'fish', 'shoe'];
  return subjects.flatMap((s, i) =>
    [false, true].flatMap((hard) => {
      const taskId = `t${i}${hard ? 'h' : 'e'}`;
      const prompt = hard ? `a ${s} with no shadow` : `a ${s} in the sun`;
      return [
        ['A', 4.5],
        ['B', 3.5],
        ['C', 3],
      ].map(([toolId, base]) => {
        const r = (base as number) - (hard ? 2 : 0) + ((i % 3) - 1) * 0.5;
        const ratings = [Math.round(r), Math.round(r + 0.4), Math.round(r - 0.4)].map((x) => Math.min(5, Math.max(1, x)));
        return { taskId, prompt, toolId: toolId as string, score: ratings[0]!, ratings };
      });
    }),
  );
}

describe('order guard', () => {
  it('isotonic regression by pool adjacent violators (hand examples)', () => {
    expect(isotonic([1, 3, 2, 4])).toEqual([1, 2.5, 2.5, 4]);
    expect(isotonic([3, 1, 2])).toEqual([2, 2, 2]);
    expect(isotonic([1, 2, 3])).toEqual([1, 2, 3]);
  });
  it('separates pooled tools by a small step, inside the scale', () => {
    const g = guardOrder([3, 1, 2], 1, 5, 0.01);
    expect(g[0]).toBeCloseTo(1.99, 12);
    expect(g[1]).toBeCloseTo(2, 12);
    expect(g[2]).toBeCloseTo(2.01, 12);
    expect(guardOrder([9, 5], 1, 5, 0.01).map((x) => +x.toFixed(6))).toEqual([4.99, 5]); // clamped, then separated
    expect(guardOrder([0, 1], 1, 5, 0.01).map((x) => +x.toFixed(6))).toEqual([1, 1.01]);
  });
});

describe('ensemble', () => {
  const train = set(synthetic());
  const hard = { taskId: 'new-hard', prompt: 'a horse with no saddle' };
  const easy = { taskId: 'new-easy', prompt: 'a horse in the sun' };

  it('learns the shared difficulty, keeps the tools in training order, cites evidence', () => {
    const p = new EnsemblePredictor();
    p.fit(train);
    const s = (task: typeof hard, tool: string) => p.predict(task, tool).score;
    for (const tool of ['A', 'B', 'C']) expect(s(hard, tool)).toBeLessThan(s(easy, tool) - 1);
    expect(s(hard, 'A')).toBeGreaterThan(s(hard, 'B'));
    expect(s(hard, 'B')).toBeGreaterThan(s(hard, 'C'));
    const out = p.predict(hard, 'A');
    expect(out.score).toBeGreaterThanOrEqual(SCALE.min);
    expect(out.score).toBeLessThanOrEqual(SCALE.max);
    expect(out.evidence).toHaveLength(5);
    expect(out.evidence[0]!.kind).toBe('experience');
    expect(out.evidence[0]!.id).toMatch(/h\|A$/); // the most similar training tasks are the hard ones
    expect(p.choice).toMatchObject({ features: 'factor', orderGuard: true });
    expect(p.predict(hard, 'unknown').score).toBeCloseTo(3.2, 0);
  });

  it('is deterministic', () => {
    const a = new EnsemblePredictor();
    const b = new EnsemblePredictor();
    a.fit(train);
    b.fit(train);
    for (const tool of ['A', 'B', 'C']) expect(a.predict(hard, tool).score).toBe(b.predict(hard, tool).score);
  });

  it('uses dense vectors when every training task has one, and then needs them', () => {
    const withVec = set(synthetic().map((e) => ({ ...e, vector: Float32Array.from([e.prompt.includes(' no ') ? 1 : 0, 1]) })));
    const p = new EnsemblePredictor();
    p.fit(withVec);
    expect(() => p.predict(hard, 'A')).toThrow(/vector/);
    expect(p.predict({ ...hard, vector: Float32Array.from([1, 1]) }, 'A').score).toBeLessThan(
      p.predict({ ...easy, vector: Float32Array.from([0, 1]) }, 'A').score,
    );
  });

  it('works with tiny training sets and tools missing on some tasks', () => {
    const p = new EnsemblePredictor();
    p.fit(
      set([
        { taskId: 'a', prompt: 'x', toolId: 'A', score: 4 },
        { taskId: 'b', prompt: 'y', toolId: 'B', score: 2 },
      ]),
    );
    expect(p.predict(easy, 'A').score).toBeCloseTo(4, 6);
    expect(p.predict(easy, 'B').score).toBeCloseTo(2, 6);
  });
});

describe('ridge', () => {
  it('learns word effects blended with the all-tool difficulty', () => {
    const p = new RidgePredictor();
    p.fit(set(synthetic()));
    expect(p.predict({ taskId: 'q', prompt: 'a horse with no saddle' }, 'B').score).toBeLessThan(
      p.predict({ taskId: 'r', prompt: 'a horse in the sun' }, 'B').score - 1,
    );
  });
});
