import { withDb } from '../helpers/db';
import { describe, expect, it } from 'vitest';
import { createInThreadClient, type Client } from '../../../src/rpc';
import { createLabelHandlers } from '../../../src/services/label-service';
import type { LabelApi } from '../../../src/services/label-api';
import type { Repositories } from '../../../src/core/repositories';
import type { Experience } from '../../../src/core/types';

let repos: Repositories;
let client: Client<LabelApi>;

const exp = (taskId: string, toolId: string, rater: string, score: number): Experience => ({
  id: `d|${taskId}|${toolId}|${rater}`, datasetId: 'd', taskId, prompt: `prompt ${taskId}`, toolId, score, rater,
  scoreSource: 'human', categories: [], importId: 'manual', createdAt: 1,
});

withDb('label-svc', async (t) => {
  repos = t.repos;
  client = createInThreadClient(createLabelHandlers(repos));
  // 2 tasks × 2 tools = 4 items; "me" has labelled t1/a and t2/b, "other" has labelled t1/a and t1/b.
  for (const e of [exp('t1', 'a', 'me', 3), exp('t2', 'b', 'me', 4), exp('t1', 'a', 'other', 2), exp('t1', 'b', 'other', 5), exp('t2', 'a', 'judge', 1)]) await repos.experiences.put(e);
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
