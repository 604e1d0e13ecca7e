/**
 * The evaluation pieces `toolmem eval` and the predictors worker share (src/app/evaluate/eval-run.ts): prompt
 * vectors, the bootstrap intervals under a stop signal, and a run stopped part-way.
 */
import { describe, expect, it } from 'vitest';
import { evalIntervals, evaluateStoppable, promptVectors } from '../../../src/app/evaluate/eval-run';
import { evaluateMethods } from '../../../src/app/evaluate/methods';
import type { Embedder } from '../../../src/core/embed';
import type { ScoredPair } from '../../../src/core/eval';
import type { ScoreScale } from '../../../src/core/types';

const scale: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: true };
const pair = (taskId: string, toolId: string, score: number): ScoredPair => ({
  taskId,
  toolId,
  prompt: `prompt of ${taskId}`,
  score,
  ratings: [score],
  categories: [],
});
// Six tasks, two tools: A scores 4 on every task, B scores 2 on even and 3 on odd tasks.
const data = Array.from({ length: 6 }, (_, i) => [pair(`t${i}`, 'A', 4), pair(`t${i}`, 'B', i % 2 ? 3 : 2)]).flat();
const input = {
  data,
  scale,
  sizes: { train: 4, test: 2 },
  seeds: [1, 2],
  methods: ['tool-mean', 'tool-median'] as const,
  toolPairs: [['A', 'B']] as [string, string][],
};

describe('promptVectors', () => {
  it('embeds each task prompt once, in data order, and slices the batch per task', async () => {
    const calls: string[][] = [];
    const embedder: Embedder = {
      id: 'fake',
      dim: 2,
      async embed(texts) {
        calls.push([...texts]);
        return { dim: 2, count: texts.length, data: Float32Array.from(texts.flatMap((_, i) => [i + 1, -(i + 1)])) };
      },
    };
    const vectors = await promptVectors(embedder, [pair('x', 'A', 1), pair('y', 'A', 2), pair('x', 'B', 3)]);
    expect(calls).toEqual([['prompt of x', 'prompt of y']]);
    expect([...vectors.keys()]).toEqual(['x', 'y']);
    expect([...vectors.get('x')!]).toEqual([1, -1]);
    expect([...vectors.get('y')!]).toEqual([2, -2]);
  });
});

describe('evaluateStoppable', () => {
  it('returns the full report of a run that is not stopped, the same as evaluateMethods', async () => {
    const outcome = await evaluateStoppable({ ...input, methods: [...input.methods], signal: new AbortController().signal });
    const direct = await evaluateMethods({ ...input, methods: [...input.methods] });
    // The same metrics seed by seed (timings aside); tool A always scores 4, so its MAE is 0 on every seed.
    const metrics = (r: typeof direct) => r.seeds.map((s) => r.methods.map((m) => s.methods[m]!.mean));
    expect(outcome.report?.seeds.map((s) => s.seed)).toEqual([1, 2]);
    expect(metrics(outcome.report!)).toEqual(metrics(direct));
    for (const s of outcome.report!.seeds) expect(s.methods['tool-mean']!.tools['A']!.mae).toBe(0);
    expect('partial' in outcome).toBe(false);
  });

  it('keeps the finished methods of the first seed when stopped inside it', async () => {
    const stop = new AbortController();
    const outcome = await evaluateStoppable({ ...input, methods: [...input.methods], signal: stop.signal, onMethodDone: () => stop.abort() });
    expect(outcome.report?.methods).toEqual(['tool-mean']);
    expect(outcome.report?.seeds.map((s) => s.seed)).toEqual([1]);
    expect('partial' in outcome && outcome.partial).toBe('seed 1 only, methods tool-mean (the others did not finish)');
  });

  it('has nothing to report when stopped before any method finished', async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await evaluateStoppable({ ...input, methods: [...input.methods], signal: stop.signal })).toEqual({ report: null });
  });
});

describe('evalIntervals', () => {
  it('skips the intervals on a stop only when asked to, else rethrows', async () => {
    const report = await evaluateMethods({ ...input, methods: [...input.methods] });
    expect((await evalIntervals(report))?.methods).toBeDefined();
    const stop = new AbortController();
    stop.abort();
    expect(await evalIntervals(report, { signal: stop.signal, skipOnStop: true })).toBeNull();
    await expect(evalIntervals(report, { signal: stop.signal })).rejects.toThrow();
  });
});
