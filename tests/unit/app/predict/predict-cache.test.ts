import { withDb } from '../../helpers/db';
import { describe, expect, it } from 'vitest';
import { createInThreadClient } from '../../../../src/rpc';
import { createEvalHandlers } from '../../../../src/app/evaluate/evaluate';
import type { EvalApi } from '../../../../src/app/evaluate/api';
import type { Dataset, Experience } from '../../../../src/core/types';
import { experienceKey } from '../../../../src/core/ids';
import { fitFingerprint } from '../../../../src/core/eval/fingerprint';
import { groundTruth } from '../../../../src/core/eval/ground-truth';
import { SUMS_DATASET } from '../../helpers/records';

/**
 * Issue #35: the Predict page keeps fitted models between calls, and must refit when the data they
 * were fitted on changes — also when the number of rows does not (a relabel of an existing experience).
 */
const DATASET: Dataset = SUMS_DATASET;
const row = (taskId: string, toolId: string, rater: string, score: number): Experience => ({
  id: experienceKey('d', taskId, toolId, rater),
  datasetId: 'd',
  taskId,
  prompt: `add ${taskId}`,
  toolId,
  score,
  rater,
  scoreSource: 'human',
  categories: [],
  importId: 'i1',
  createdAt: 1,
});
// Tool a: 2, 4, 3, 5 (mean 3.5); tool b: 1, 1, 2, 2 (mean 1.5); one rater, so the mean policy is the score.
const ROWS = [
  ...['t1', 't2', 't3', 't4'].map((t, i) => row(t, 'a', 'ann', [2, 4, 3, 5][i]!)),
  ...['t1', 't2', 't3', 't4'].map((t, i) => row(t, 'b', 'ann', [1, 1, 2, 2][i]!)),
];

const t = withDb('predict-cache', async ({ repos }) => {
  await repos.datasets.put(DATASET);
  for (const r of ROWS) await repos.experiences.put(r);
});
const client = () => createInThreadClient<EvalApi>(createEvalHandlers({ repos: t.repos, embedder: async () => null }));
const predictA = async (c: ReturnType<typeof client>, method = 'tool-mean') =>
  (await c.call('predict', { datasetId: 'd', method, prompt: 'add 7 and 8' })).predictions.find((p) => p.toolId === 'a')!.score;

describe('the Predict cache follows the data it was fitted on', () => {
  it('a relabel of one existing experience (same count) moves the prediction by exactly its share', async () => {
    const c = client();
    expect(await predictA(c)).toBeCloseTo(3.5, 12);
    // ann changes her score for t1 / a from 2 to 4: still 8 experiences, the mean of a is 16 / 4 = 4.
    await t.repos.experiences.put(row('t1', 'a', 'ann', 4));
    expect(await t.repos.experiences.count('d')).toBe(8);
    expect(await predictA(c)).toBeCloseTo(4, 12);
    // The same data again: the same model (and answer).
    expect(await predictA(c)).toBeCloseTo(4, 12);
  });

  it('a second rater on an item and then a changed rater policy move it too (the count of pairs stays)', async () => {
    const c = client();
    expect(await predictA(c, 'tool-median')).toBeCloseTo(3.5, 12); // median of 2, 3, 4, 5
    await t.repos.experiences.put(row('t4', 'a', 'bob', 1)); // t4 / a: mean of 5 and 1 = 3
    expect(await predictA(c, 'tool-median')).toBeCloseTo(3, 12); // median of 2, 3, 3, 4
    await t.repos.datasets.put({ ...DATASET, raterPolicy: { kind: 'rater', rater: 'ann' } }); // only the dataset row changes
    expect(await predictA(c, 'tool-median')).toBeCloseTo(3.5, 12);
  });

  it('the fingerprint changes with any field a method trains on, and only then', () => {
    const base = groundTruth(ROWS, DATASET.raterPolicy);
    const stamp = fitFingerprint(base);
    expect(fitFingerprint(groundTruth([...ROWS].reverse(), DATASET.raterPolicy))).toBe(stamp); // the rows' order is not data
    const changed = [
      base.map((p, i) => (i === 0 ? { ...p, score: p.score + 1 } : p)),
      base.map((p, i) => (i === 0 ? { ...p, ratings: [...p.ratings, 3] } : p)),
      base.map((p, i) => (i === 0 ? { ...p, prompt: `${p.prompt}!` } : p)),
      base.map((p, i) => (i === 0 ? { ...p, categories: ['math'] } : p)),
      base.map((p, i) => (i === 0 ? { ...p, rubric: 'exact sum' } : p)),
      base.map((p, i) => (i === 0 ? { ...p, taskId: 't1 ' } : p)),
      // Fields that run together must not collide: "t1" + "a" against "t1a" + "".
      base.map((p, i) => (i === 0 ? { ...p, taskId: 't1a', toolId: '' } : p)),
      base.slice(1),
    ];
    for (const data of changed) expect(fitFingerprint(data)).not.toBe(stamp);
    expect(stamp).toMatch(/^8:[0-9a-f]{16}$/);
  });
});
