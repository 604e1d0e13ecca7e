import { withDb } from '../../helpers/db';
import { describe, expect, it } from 'vitest';
import { createInThreadClient, type Client } from '../../../../src/rpc';
import { createLabelHandlers } from '../../../../src/app/label/label';
import type { LabelApi } from '../../../../src/app/label/api';
import type { Repositories } from '../../../../src/core/repositories';
import type { Experience } from '../../../../src/core/types';

let repos: Repositories;
let client: Client<LabelApi>;

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
  importId: 'manual',
  createdAt: 1,
});

withDb('label-svc', async (t) => {
  repos = t.repos;
  client = createInThreadClient(createLabelHandlers(repos));
  // 2 tasks × 2 tools = 4 items; "me" has labelled t1/a and t2/b, "other" has labelled t1/a and t1/b.
  for (const e of [exp('t1', 'a', 'me', 3), exp('t2', 'b', 'me', 4), exp('t1', 'a', 'other', 2), exp('t1', 'b', 'other', 5), exp('t2', 'a', 'judge', 1)])
    await repos.experiences.put(e);
});

describe('labelQueue', () => {
  it('counts my labels over the whole selection, whatever the mode: the progress line means the same after a reload', async () => {
    const all = await client.call('labelQueue', { filter: { datasetIds: ['d'], mode: 'all', order: 'task' }, me: 'me' });
    expect(all.ids).toEqual(['d|t1|a', 'd|t1|b', 'd|t2|a', 'd|t2|b']);
    expect([all.mine, all.selected]).toEqual([2, 4]);
    const open = await client.call('labelQueue', { filter: { datasetIds: ['d'], mode: 'unlabelled-by-me', order: 'task' }, me: 'me' });
    expect(open.ids).toEqual(['d|t1|b', 'd|t2|a']);
    // The queue holds only the 2 open items, but the progress still counts 2 of the 4 selected (not "0 of 2").
    expect([open.mine, open.selected]).toEqual([2, 4]);
    const toolB = await client.call('labelQueue', { filter: { datasetIds: ['d'], toolIds: ['b'], mode: 'unlabelled-by-me', order: 'task' }, me: 'me' });
    expect(toolB.ids).toEqual(['d|t1|b']);
    expect([toolB.mine, toolB.selected]).toEqual([1, 2]);
    // Items with fewer than 2 raters: t1/b (other), t2/a (judge), t2/b (me) — one of them mine.
    const thin = await client.call('labelQueue', { filter: { datasetIds: ['d'], mode: 'fewer-raters', minRaters: 2, order: 'task' }, me: 'me' });
    expect(thin.ids).toEqual(['d|t1|b', 'd|t2|a', 'd|t2|b']);
    expect([thin.mine, thin.selected]).toEqual([2, 4]);
  });
});

describe('pairwiseDataset: judgements as memory evidence', () => {
  const pref = (taskId: string, toolA: string, toolB: string, winner: 'A' | 'B' | 'tie', rater: string) => ({
    id: `d|${taskId}|${toolA}|${toolB}|${rater}`,
    datasetId: 'd',
    taskId,
    toolA,
    toolB,
    winner,
    rater,
    shownLeft: toolA,
    createdAt: 1,
  });

  it('makes "<name> · pairwise" from every judgement, makes it again without the undone ones, and refuses a dataset without any', async () => {
    await repos.datasets.put({
      id: 'd',
      name: 'D',
      source: 'x',
      preset: 'generic',
      scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
      raterPolicy: { kind: 'mean' },
      createdAt: 1,
    });
    await expect(client.call('pairwiseDataset', { datasetId: 'd' })).rejects.toThrow(
      "'D' has no pairwise judgements yet: compare pairs on the Label page first.",
    );
    await repos.labels.putPreference(pref('t1', 'a', 'b', 'A', 'me'));
    await repos.labels.putPreference(pref('t2', 'a', 'b', 'tie', 'me'));
    await repos.labels.putPreference(pref('t2', 'a', 'b', 'B', 'other'));
    expect(await client.call('pairwiseDataset', { datasetId: 'd' })).toEqual({
      datasetId: 'd-pairwise',
      name: 'D · pairwise',
      experiences: 4,
      tasks: 2,
      judgements: 3,
    });
    const rows = await repos.experiences.byDataset('d-pairwise');
    // t1: a won its one; t2: a tied and lost (½/2), b tied and won (1½/2).
    expect(rows.map((r) => [r.taskId, r.toolId, r.score]).sort()).toEqual([
      ['t1', 'a', 1],
      ['t1', 'b', 0],
      ['t2', 'a', 0.25],
      ['t2', 'b', 0.75],
    ]);
    expect((await repos.datasets.get('d-pairwise'))?.scale).toEqual({ min: 0, max: 1, direction: 'higher-better', integer: false });
    await repos.labels.removePreference('d|t1|a|b|me');
    expect((await client.call('pairwiseDataset', { datasetId: 'd' })).experiences).toBe(2);
    expect((await repos.experiences.byDataset('d-pairwise')).map((r) => r.taskId)).toEqual(['t2', 't2']);
    // The source keeps every stored row.
    expect(await repos.experiences.byDataset('d')).toHaveLength(5);
    await expect(client.call('pairwiseDataset', { datasetId: 'd-pairwise' })).rejects.toThrow("'D · pairwise' is already made from pairwise judgements.");
  });
});
