import { withDb } from '../../helpers/db';
import { describe, expect, it } from 'vitest';
import { createInThreadClient } from '../../../../src/rpc';
import { createLabelHandlers } from '../../../../src/app/label/label';
import type { LabelApi } from '../../../../src/app/label/api';
import type { LabelTarget } from '../../../../src/app/edit/api';
import type { Dataset, Experience, LabelItem, Preference, Tool } from '../../../../src/core/types';
import { StaleLabelError, ValidationError } from '../../../../src/core/errors';
import type { Client } from '../../../../src/rpc';
import { SUMS_DATASET } from '../../helpers/records';

const DATASET: Dataset = SUMS_DATASET;
const TOOL: Tool = { id: 'a', name: 'a', modality: 'text→text', description: '', createdAt: 1 };
const label = (score: number, createdAt = 10): Experience => ({
  id: 'd|a|t1|me',
  datasetId: 'd',
  taskId: 't1',
  prompt: 'add 2 and 2',
  toolId: 'a',
  score,
  rater: 'me',
  scoreSource: 'human',
  categories: [],
  importId: 'manual',
  createdAt,
});
const ITEM: LabelItem = { id: 'd|t1|a', datasetId: 'd', taskId: 't1', toolId: 'a', prompt: 'add 2 and 2', categories: [], createdAt: 1 };

const t = withDb('edit-svc', async ({ repos }) => {
  await repos.datasets.put(DATASET);
  await repos.tools.ensure([TOOL]);
  await repos.labels.putItem(ITEM);
});
const client = () => createInThreadClient<LabelApi>(createLabelHandlers(t.repos));

/** Builds the queue of `datasetIds` for "me", as the Label page does; returns its target for item t1/a of d. */
async function queueOn(c: Client<LabelApi>, datasetIds = ['d']): Promise<LabelTarget> {
  const q = await c.call('labelQueue', { filter: { datasetIds, mode: 'all', order: 'task' }, me: 'me' });
  return { queue: q.queue, datasetId: 'd', taskId: 't1', toolId: 'a', rater: 'me' };
}

describe('hand edits through the data worker (edit-service)', () => {
  it('a label returns what it replaced; restoring that undoes it exactly', async () => {
    const c = client();
    const shown = await queueOn(c);
    expect(await c.call('saveLabel', { label: label(4), shown })).toEqual({ previous: null });
    // A changed score keeps the time the label was first given.
    const second = await c.call('saveLabel', { label: label(2, 99), shown });
    expect(second.previous?.score).toBe(4);
    expect(await t.repos.experiences.get('d|a|t1|me')).toMatchObject({ score: 2, createdAt: 10 });
    await c.call('restoreLabel', { id: 'd|a|t1|me', previous: second.previous });
    expect((await t.repos.experiences.get('d|a|t1|me'))?.score).toBe(4);
    await c.call('restoreLabel', { id: 'd|a|t1|me', previous: null });
    expect(await t.repos.experiences.get('d|a|t1|me')).toBeUndefined();
  });

  it('refuses a score off the dataset scale, naming the scale, and writes nothing', async () => {
    const c = client();
    const shown = await queueOn(c);
    await expect(c.call('saveLabel', { label: label(6), shown })).rejects.toThrow("A score for 'Sums' must be a whole number from 1 to 5.");
    await expect(c.call('saveLabel', { label: label(2.5), shown })).rejects.toThrow(/whole number/);
    expect(await t.repos.experiences.count('d')).toBe(0);
    await t.repos.datasets.remove('d');
    await expect(c.call('saveLabel', { label: label(3), shown })).rejects.toThrow("The dataset 'd' does not exist");
  });

  it('a pairwise choice returns the one it replaced; restore puts it back or removes it', async () => {
    const c = client();
    const p: Preference = { id: 'd|t1|a|b|me', datasetId: 'd', taskId: 't1', toolA: 'a', toolB: 'b', rater: 'me', shownLeft: 'a', winner: 'A', createdAt: 1 };
    // Task t1 has an output of a only: a choice against b is refused, and nothing is written (issue #35).
    const refused = c.call('savePreference', { preference: p });
    await expect(refused).rejects.toBeInstanceOf(StaleLabelError);
    await expect(refused).rejects.toThrow("Not saved: task 't1' of 'Sums' has no output of 'b'. Nothing was written.");
    expect(await t.repos.labels.preferences('d')).toEqual([]);
    await t.repos.labels.putItem({ ...ITEM, id: 'd|t1|b', toolId: 'b' });
    expect((await c.call('savePreference', { preference: p })).previous).toBeNull();
    const again = await c.call('savePreference', { preference: { ...p, winner: 'tie' } });
    expect(again.previous?.winner).toBe('A');
    await c.call('restorePreference', { id: p.id, previous: again.previous });
    expect((await t.repos.labels.preferences('d')).map((x) => x.winner)).toEqual(['A']);
    await c.call('restorePreference', { id: p.id, previous: null });
    expect(await t.repos.labels.preferences('d')).toEqual([]);
  });

  it('adds an item, creating its dataset and tool when new', async () => {
    const c = client();
    const fresh: Dataset = { ...DATASET, id: 'mine', name: 'Mine' };
    const item = {
      id: 'mine|t9|painter',
      datasetId: 'mine',
      taskId: 't9',
      toolId: 'painter',
      prompt: 'a red fox',
      categories: [],
      createdAt: 5,
      response: 'ok',
    };
    await c.call('addItem', { item, dataset: fresh, tool: { ...TOOL, id: 'painter', name: 'painter' } });
    expect((await t.repos.datasets.get('mine'))?.name).toBe('Mine');
    expect((await t.repos.tools.get('painter'))?.id).toBe('painter');
    expect((await t.repos.labels.items('mine')).map((i) => i.id)).toEqual(['mine|t9|painter']);
    await expect(c.call('addItem', { item: { ...item, datasetId: 'nowhere' }, tool: TOOL })).rejects.toThrow("The dataset 'nowhere' does not exist");
  });

  it('sets the rater policy, toggles a test case, deletes a dataset', async () => {
    const c = client();
    await c.call('setRaterPolicy', { datasetId: 'd', policy: { kind: 'rater', rater: 'me' } });
    expect((await t.repos.datasets.get('d'))?.raterPolicy).toEqual({ kind: 'rater', rater: 'me' });
    expect(await c.call('toggleTestCase', { toolId: 'a', datasetId: 'd', taskId: 't1' })).toEqual({ pinned: true });
    expect((await t.repos.tools.get('a'))?.testCases).toEqual([{ datasetId: 'd', taskId: 't1' }]);
    expect(await c.call('toggleTestCase', { toolId: 'a', datasetId: 'd', taskId: 't1' })).toEqual({ pinned: false });
    expect((await t.repos.tools.get('a'))?.testCases).toEqual([]);
    await expect(c.call('toggleTestCase', { toolId: 'nobody', datasetId: 'd', taskId: 't1' })).rejects.toThrow("There is no tool 'nobody'.");
    await c.call('saveLabel', { label: label(3), shown: await queueOn(c) });
    await c.call('removeDataset', { datasetId: 'd' });
    expect(await t.repos.datasets.get('d')).toBeUndefined();
    expect(await t.repos.experiences.count('d')).toBe(0);
  });

  it('saves a tool card and returns the one it replaced, so the same call undoes it', async () => {
    const c = client();
    const priced: Tool = { ...TOOL, price: { amount: 0.02, per: 'call' }, latencyMs: 900 };
    const { previous } = await c.call('saveTool', { tool: priced });
    expect(previous).toEqual(TOOL);
    expect(await t.repos.tools.get('a')).toEqual(priced);
    expect(await c.call('saveTool', { tool: previous })).toEqual({ previous: priced });
    expect(await t.repos.tools.get('a')).toEqual(TOOL);
    await expect(c.call('saveTool', { tool: { ...TOOL, id: 'gone' } })).rejects.toThrow("There is no tool 'gone' (deleted in another tab?).");
    expect(await t.repos.tools.get('gone')).toBeUndefined();
  });

  it('gives example prices only to listed tools that exist and have no price', async () => {
    const c = client();
    await t.repos.tools.ensure([{ ...TOOL, id: 'b', name: 'b' }]);
    await t.repos.tools.put({ ...TOOL, id: 'b', name: 'b', price: { amount: 1, per: 'call' } });
    expect(
      await c.call('setExamplePrices', {
        prices: [
          ['a', 0.04],
          ['b', 0.05],
          ['nobody', 0.01],
        ],
      }),
    ).toEqual({ set: 1 });
    expect((await t.repos.tools.get('a'))?.price).toEqual({ amount: 0.04, per: 'call', example: true });
    expect((await t.repos.tools.get('b'))?.price).toEqual({ amount: 1, per: 'call' });
    await expect(c.call('setExamplePrices', { prices: [['a', -1]] })).rejects.toThrow("An example price must be a number of at least 0, not '-1'.");
  });

  it('refuses a label whose queue is no longer the current one, or whose item is not in it, and writes nothing (issue #35)', async () => {
    const c = client();
    await t.repos.datasets.put({ ...DATASET, id: 'e', name: 'Other' });
    await t.repos.labels.putItem({ ...ITEM, id: 'e|t1|a', datasetId: 'e' });
    const old = await queueOn(c, ['d']);
    // The page changes the dataset: the new queue is the current one from the call on.
    const fresh = await c.call('labelQueue', { filter: { datasetIds: ['e'], mode: 'all', order: 'task' }, me: 'me' });
    const refused = c.call('saveLabel', { label: label(4), shown: old });
    await expect(refused).rejects.toBeInstanceOf(StaleLabelError);
    await expect(refused).rejects.toThrow(
      'Not saved: the queue it was given in was replaced (the dataset or a filter changed) before the label arrived. Nothing was written;',
    );
    // The new queue's number with an item of the old dataset: not the selected dataset.
    await expect(c.call('saveLabel', { label: label(4), shown: { ...old, queue: fresh.queue } })).rejects.toThrow(
      "Not saved: the item belongs to 'Sums', not to the selected 'Other'.",
    );
    // An item of the selected dataset that is not in the queue (filtered out, or added since).
    const absent = { ...label(4), id: 'e|b|t1|me', datasetId: 'e', toolId: 'b' };
    await expect(c.call('saveLabel', { label: absent, shown: { ...old, queue: fresh.queue, datasetId: 'e', toolId: 'b' } })).rejects.toThrow(
      "Not saved: task 't1' of 'b' is no longer in the selected queue.",
    );
    // Another rater than the queue's.
    const ann = { ...label(4), id: 'e|a|t1|ann', datasetId: 'e', rater: 'ann' };
    await expect(c.call('saveLabel', { label: ann, shown: { ...old, queue: fresh.queue, datasetId: 'e', rater: 'ann' } })).rejects.toThrow(
      "the queue was built for rater 'me', not 'ann'",
    );
    expect(await t.repos.experiences.count('d')).toBe(0);
    expect(await t.repos.experiences.count('e')).toBe(0);
    // The item on screen of the current queue is written.
    const ok = { ...label(4), id: 'e|a|t1|me', datasetId: 'e' };
    expect(await c.call('saveLabel', { label: ok, shown: { ...old, queue: fresh.queue, datasetId: 'e' } })).toEqual({ previous: null });
    expect(await t.repos.experiences.count('e')).toBe(1);
  });

  it('refuses a label that is not the named item’s label by the named rater', async () => {
    const c = client();
    const shown = await queueOn(c);
    await expect(c.call('saveLabel', { label: { ...label(4), taskId: 't2' }, shown })).rejects.toThrow(
      "The label's taskId 't2' is not the taskId of the item on screen ('t1').",
    );
    // An id that points at another row (an imported judge's label) would overwrite it.
    const err = await c.call('saveLabel', { label: { ...label(4), id: 'd|a|t1|judge' }, shown }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe("The label's id 'd|a|t1|judge' is not the id of its item and rater ('d|a|t1|me').");
    expect(await t.repos.experiences.count('d')).toBe(0);
  });

  it('a queue that a newer one overtakes while it reads is cancelled and never becomes current', async () => {
    const c = client();
    const slow = c.call('labelQueue', { filter: { datasetIds: ['d'], mode: 'all', order: 'task' }, me: 'me' }).catch((e: unknown) => e);
    const fresh = await c.call('labelQueue', { filter: { datasetIds: ['d'], mode: 'all', order: 'task' }, me: 'me' });
    expect(await slow).toMatchObject({ name: 'CancelledError', message: 'A newer queue was asked for.' });
    const shown = { queue: fresh.queue, datasetId: 'd', taskId: 't1', toolId: 'a', rater: 'me' };
    expect(await c.call('saveLabel', { label: label(5), shown })).toEqual({ previous: null });
  });
});
