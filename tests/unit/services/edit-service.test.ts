import { withDb } from '../helpers/db';
import { describe, expect, it } from 'vitest';
import { createInThreadClient } from '../../../src/rpc';
import { createLabelHandlers } from '../../../src/services/label-service';
import type { LabelApi } from '../../../src/services/label-api';
import type { Dataset, Experience, Preference, Tool } from '../../../src/core/types';

const DATASET: Dataset = { id: 'd', name: 'Sums', source: 'manual', preset: 'manual', createdAt: 1, scale: { min: 1, max: 5, direction: 'higher-better', integer: true }, raterPolicy: { kind: 'mean' } };
const TOOL: Tool = { id: 'a', name: 'a', modality: 'text→text', description: '', createdAt: 1 };
const label = (score: number, createdAt = 10): Experience => ({
  id: 'd|t1|a|me', datasetId: 'd', taskId: 't1', prompt: 'add 2 and 2', toolId: 'a', score, rater: 'me',
  scoreSource: 'human', categories: [], importId: 'manual', createdAt,
});

const t = withDb('edit-svc', async ({ repos }) => {
  await repos.datasets.put(DATASET);
  await repos.tools.ensure([TOOL]);
});
const client = () => createInThreadClient<LabelApi>(createLabelHandlers(t.repos));

describe('hand edits through the data worker (edit-service)', () => {
  it('a label returns what it replaced; restoring that undoes it exactly', async () => {
    const c = client();
    expect(await c.call('saveLabel', { label: label(4) })).toEqual({ previous: null });
    // A changed score keeps the time the label was first given.
    const second = await c.call('saveLabel', { label: label(2, 99) });
    expect(second.previous?.score).toBe(4);
    expect(await t.repos.experiences.get('d|t1|a|me')).toMatchObject({ score: 2, createdAt: 10 });
    await c.call('restoreLabel', { id: 'd|t1|a|me', previous: second.previous });
    expect((await t.repos.experiences.get('d|t1|a|me'))?.score).toBe(4);
    await c.call('restoreLabel', { id: 'd|t1|a|me', previous: null });
    expect(await t.repos.experiences.get('d|t1|a|me')).toBeUndefined();
  });

  it('refuses a score off the dataset scale, naming the scale, and writes nothing', async () => {
    const c = client();
    await expect(c.call('saveLabel', { label: label(6) })).rejects.toThrow("A score for 'Sums' must be a whole number from 1 to 5.");
    await expect(c.call('saveLabel', { label: label(2.5) })).rejects.toThrow(/whole number/);
    expect(await t.repos.experiences.count('d')).toBe(0);
    await expect(c.call('saveLabel', { label: { ...label(3), datasetId: 'gone' } })).rejects.toThrow("The dataset 'gone' does not exist");
  });

  it('a pairwise choice returns the one it replaced; restore puts it back or removes it', async () => {
    const c = client();
    const p: Preference = { id: 'd|t1|a|b|me', datasetId: 'd', taskId: 't1', toolA: 'a', toolB: 'b', rater: 'me', shownLeft: 'a', winner: 'A', createdAt: 1 };
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
    const item = { id: 'mine|t9|painter', datasetId: 'mine', taskId: 't9', toolId: 'painter', prompt: 'a red fox', categories: [], createdAt: 5, response: 'ok' };
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
    await c.call('saveLabel', { label: label(3) });
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
    expect(await c.call('setExamplePrices', { prices: [['a', 0.04], ['b', 0.05], ['nobody', 0.01]] })).toEqual({ set: 1 });
    expect((await t.repos.tools.get('a'))?.price).toEqual({ amount: 0.04, per: 'call', example: true });
    expect((await t.repos.tools.get('b'))?.price).toEqual({ amount: 1, per: 'call' });
    await expect(c.call('setExamplePrices', { prices: [['a', -1]] })).rejects.toThrow("An example price must be a number of at least 0, not '-1'.");
  });
});
