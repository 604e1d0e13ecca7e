import { describe, expect, it } from 'vitest';
import { createRng, shuffled } from '../../../src/core/eval/rng';
import { splitByTask, splitSizes } from '../../../src/core/eval/split';
import { getPreset } from '../../../src/core/import/presets';
import { groundTruth, GroundTruthBuilder } from '../../../src/core/eval/ground-truth';
import type { Experience } from '../../../src/core/types';

const ids = Array.from({ length: 10 }, (_, i) => `t${i}`);

describe('seeded RNG', () => {
  it('is deterministic and uniform-ish in [0, 1)', () => {
    const a = createRng(7);
    const b = createRng(7);
    const xs = Array.from({ length: 1000 }, () => a.next());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b.next()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 1);
    expect(createRng(8).next()).not.toBe(createRng(7).next());
  });
  it('shuffles into a permutation', () => {
    const s = shuffled(ids, createRng(1));
    expect([...s].sort()).toEqual([...ids].sort());
    expect(s).not.toEqual(ids);
  });
});

describe('splitByTask', () => {
  it('splits task ids: disjoint, sized, deterministic, independent of input order', () => {
    const s = splitByTask(ids, { train: 3, test: 5 }, 1);
    expect(s.train).toHaveLength(3);
    expect(s.test).toHaveLength(5);
    expect(s.train.filter((t) => s.test.includes(t))).toEqual([]);
    expect(splitByTask([...ids].reverse(), { train: 3, test: 5 }, 1)).toEqual(s);
    expect(splitByTask(ids, { train: 3, test: 5 }, 2)).not.toEqual(s);
  });
  it('keeps every tool of a task on the same side (ids repeat once per tool)', () => {
    const perTool = ids.flatMap((t) => [t, t, t]);
    const s = splitByTask(perTool, { train: 4, test: 6 }, 3);
    expect(new Set([...s.train, ...s.test]).size).toBe(10);
  });
  it('rejects sizes larger than the data', () => {
    expect(() => splitByTask(ids, { train: 6, test: 5 }, 1)).toThrow(RangeError);
  });
});

describe('splitSizes', () => {
  it('uses the preset protocol when the data is big enough, else half / half', () => {
    expect(getPreset('genai-bench').split).toEqual({ train: 200, test: 800 });
    expect(splitSizes(1600, { preset: 'genai-bench' })).toEqual({ train: 200, test: 800 });
    expect(splitSizes(800, { preset: 'biggen' })).toEqual({ train: 211, test: 485 });
    expect(splitSizes(695, { preset: 'biggen' })).toEqual({ train: 211, test: 484 });
    expect(splitSizes(20, { preset: 'genai-bench' })).toEqual({ train: 10, test: 10 });
    expect(splitSizes(805, { preset: 'alpaca-eval' })).toEqual({ train: 402, test: 403 });
  });
  it('explicit sizes win; a missing one takes the rest', () => {
    expect(splitSizes(100, { preset: 'genai-bench', train: 30 })).toEqual({ train: 30, test: 70 });
    expect(splitSizes(100, { test: 10 })).toEqual({ train: 90, test: 10 });
    expect(() => splitSizes(10, { train: 8, test: 8 })).toThrow(RangeError);
    expect(() => splitSizes(10, { train: 0 })).toThrow(RangeError);
  });
});

describe('groundTruth', () => {
  const exp = (taskId: string, toolId: string, rater: string, score: number): Experience => ({
    id: `d|${taskId}|${toolId}|${rater}`,
    datasetId: 'd',
    taskId,
    prompt: `prompt ${taskId}`,
    toolId,
    score,
    rater,
    scoreSource: 'human',
    categories: [],
    importId: 'i',
    createdAt: 0,
  });
  const rows = [
    exp('t1', 'A', 'rater1', 4),
    exp('t1', 'A', 'rater2', 2),
    exp('t1', 'A', 'rater3', 3),
    exp('t1', 'B', 'rater2', 5),
    exp('t1', 'B', 'rater3', 2),
  ];
  it('one named rater: pairs that rater did not score are left out', () => {
    const gt = groundTruth(rows, { kind: 'rater', rater: 'rater1' });
    expect(gt).toHaveLength(1);
    expect(gt[0]).toMatchObject({ taskId: 't1', toolId: 'A', score: 4, ratings: [4, 2, 3] });
  });
  it('mean and median of the raters', () => {
    expect(groundTruth(rows, { kind: 'mean' }).map((p) => p.score)).toEqual([3, 3.5]);
    expect(groundTruth(rows, { kind: 'median' }).map((p) => p.score)).toEqual([3, 3.5]);
  });
  it('a rater scoring a pair twice counts once, the later score; rows without a finite score are left out', () => {
    const again = [
      ...rows,
      exp('t1', 'A', 'rater1', 1),
      exp('t2', 'A', 'rater1', Number.NaN),
      { ...exp('t0', 'B', 'rater1', 5), categories: ['x'], rubric: 'r' },
    ];
    expect(groundTruth(again, { kind: 'mean' })).toEqual([
      { taskId: 't0', prompt: 'prompt t0', toolId: 'B', score: 5, ratings: [5], categories: ['x'], rubric: 'r' },
      { taskId: 't1', prompt: 'prompt t1', toolId: 'A', score: 2, ratings: [1, 2, 3], categories: [] },
      { taskId: 't1', prompt: 'prompt t1', toolId: 'B', score: 3.5, ratings: [5, 2], categories: [] },
    ]);
  });
  it('built from pages in any order it gives the same pairs, and pairs share one copy of equal category lists', () => {
    const many: Experience[] = [];
    for (let t = 0; t < 30; t++)
      for (const tool of ['A', 'B', 'C'])
        for (const r of ['r1', 'r2']) many.push({ ...exp(`t${t}`, tool, r, 1 + ((t * 7 + r.length + tool.charCodeAt(0)) % 5)), categories: [`c${t % 3}`] });
    const order = shuffled(many, createRng(3));
    const b = new GroundTruthBuilder();
    for (let i = 0; i < order.length; i += 40) for (const e of order.slice(i, i + 40).map((x) => structuredClone(x))) b.add(e);
    const pairs = b.finish({ kind: 'median' });
    expect(pairs).toEqual(groundTruth(many, { kind: 'median' }));
    expect(pairs).toHaveLength(90);
    const byCategory = new Map<string, string[]>();
    for (const p of pairs) expect(byCategory.get(p.categories[0]!) ?? (byCategory.set(p.categories[0]!, p.categories), p.categories)).toBe(p.categories);
    expect(byCategory.size).toBe(3);
  });
});
