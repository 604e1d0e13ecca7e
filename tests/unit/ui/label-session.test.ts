import { dropDbs, newDb } from '../helpers/db';
import { until } from '../helpers/until';
import { afterEach, describe, expect, it } from 'vitest';
import { createInThreadClient, type Handlers } from '../../../src/rpc';
import { createImportHandlers } from '../../../src/app/import/handlers';
import { createLabelHandlers } from '../../../src/app/label/label';
import type { Dataset, Experience } from '../../../src/core/types';
import { LabelSession } from '../../../src/ui/label-session.svelte';
import { UiStorage } from '../../../src/ui/storage';
import type { DataApi } from '../../../src/ui/workers';
import { createSend, type Send } from '../../../src/ui/send';
import { StaleLabelError } from '../../../src/core/errors';
import { SUMS_DATASET } from '../helpers/records';

const DATASET: Dataset = SUMS_DATASET;
const judge = (taskId: string, toolId: string, score = 3): Experience => ({
  id: `d|${toolId}|${taskId}|judge`,
  datasetId: 'd',
  taskId,
  prompt: `prompt ${taskId}`,
  toolId,
  score,
  rater: 'judge',
  scoreSource: 'judge',
  categories: [],
  importId: 'i1',
  createdAt: 1,
});

afterEach(dropDbs);

/** A session over a fresh database: 3 tasks × 1 tool, each scored by a judge; "me" labels them. */
async function session() {
  const store = new UiStorage(newDb('label-session'));
  await store.repos.datasets.put(DATASET);
  for (const t of ['t1', 't2', 't3']) await store.repos.experiences.put(judge(t, 'a'));
  const worker = createInThreadClient<DataApi>({ ...createImportHandlers(store.repos), ...createLabelHandlers(store.repos) } as Handlers<DataApi>);
  const s = new LabelSession(store, store.repos, createSend({ data: () => worker }), () => 'me');
  await s.restore('d');
  return { s, store };
}

describe('LabelSession (the Score tab)', () => {
  it('starts on the first dataset with the items not labelled by me, and saves where it is', async () => {
    const { s, store } = await session();
    expect(s.ids).toEqual(['d|t1|a', 'd|t2|a', 'd|t3|a']);
    expect([s.total, s.done, s.position]).toEqual([3, 0, 0]);
    expect(s.shown?.item).toMatchObject({ id: 'd|t1|a', prompt: 'prompt t1' });
    expect(s.shown?.labels.map((l) => l.rater)).toEqual(['judge']);
    expect(await store.get('labelSession')).toMatchObject({ filter: { datasetIds: ['d'], mode: 'unlabelled-by-me', order: 'task' }, itemId: 'd|t1|a' });
    s.stop();
  });

  it('a score is written, counted and moves on; undo removes it and goes back, counting down', async () => {
    const { s, store } = await session();
    await s.score(4, '  right ');
    await s.score(2, '');
    expect([s.position, s.done, s.saved, s.canUndo]).toEqual([2, 2, 2, true]);
    expect(await store.repos.experiences.get('d|a|t1|me')).toMatchObject({ score: 4, feedback: 'right', scoreSource: 'human', importId: 'manual' });
    expect(await s.undo()).toEqual({ itemKey: 'd|t2|a', removed: true });
    expect(await store.repos.experiences.get('d|a|t2|me')).toBeUndefined();
    expect([s.position, s.done, s.saved]).toEqual([1, 1, 1]);
    expect(s.shown?.item.id).toBe('d|t2|a');
    s.stop();
  });

  it('the progress line reads the same after a reload: my labels among the selected items, not within the shrunken queue', async () => {
    const { s, store } = await session();
    await s.score(4, '');
    await s.score(2, '');
    expect([s.done, s.selected, s.ids.length]).toEqual([2, 3, 3]);
    s.stop();
    // A reload: a new session restores from the saved settings; its queue holds only t3 now.
    const worker = createInThreadClient<DataApi>({ ...createImportHandlers(store.repos), ...createLabelHandlers(store.repos) } as Handlers<DataApi>);
    const again = new LabelSession(store, store.repos, createSend({ data: () => worker }), () => 'me');
    await again.restore('d');
    expect(again.ids).toEqual(['d|t3|a']);
    expect([again.done, again.selected]).toEqual([2, 3]);
    again.stop();
  });

  it('changing a score keeps it one label: undo restores the earlier score and the count stays', async () => {
    const { s, store } = await session();
    await s.score(4, '');
    await s.show(0);
    await s.score(1, '');
    expect(s.done).toBe(1);
    expect(await s.undo()).toEqual({ itemKey: 'd|t1|a', removed: false });
    expect((await store.repos.experiences.get('d|a|t1|me'))?.score).toBe(4);
    expect([s.done, s.position]).toEqual([1, 0]);
    s.stop();
  });

  it('refuses a score off the scale with the scale in the message, and stays on the item', async () => {
    const { s } = await session();
    await expect(s.score(7, '')).rejects.toThrow("A score for 'Sums' must be a whole number from 1 to 5.");
    expect([s.position, s.done, s.canUndo]).toEqual([0, 0, false]);
    s.stop();
  });

  it('the item on screen is live: another rater’s label shows without a reload, and the queue does not move', async () => {
    const { s, store } = await session();
    await store.repos.experiences.put({ ...judge('t1', 'a', 5), id: 'd|a|t1|ana', rater: 'ana', scoreSource: 'human' });
    await until(() => (s.shown?.labels.length ?? 0) === 2);
    expect(s.shown?.labels.map((l) => l.rater).sort()).toEqual(['ana', 'judge']);
    expect([s.position, s.ids.length]).toEqual([0, 3]);
    s.stop();
  });

  it('an item whose dataset goes (another tab) leaves the queue', async () => {
    const { s, store } = await session();
    await store.repos.datasets.remove('d');
    await until(() => s.shown === null);
    expect(s.ids).toEqual([]);
  });

  describe('labels bound to what is shown (issue #35)', () => {
    /**
     * Two datasets, d (3 tasks) and e (2 tasks), and a `send` that holds back the answer of every
     * labelQueue call on d until `release()` — the slow queue of the dataset shown last time.
     * `honourCancel: false` hands the call on without its signal, so the late answer really arrives.
     */
    async function twoDatasets(honourCancel: boolean) {
      const store = new UiStorage(newDb('label-race'));
      await store.repos.datasets.put(DATASET);
      await store.repos.datasets.put({ ...DATASET, id: 'e', name: 'Other' });
      for (const t of ['t1', 't2', 't3']) await store.repos.experiences.put(judge(t, 'a'));
      for (const t of ['u1', 'u2']) await store.repos.experiences.put({ ...judge(t, 'a'), id: `e|a|${t}|judge`, datasetId: 'e' });
      const worker = createInThreadClient<DataApi>({ ...createImportHandlers(store.repos), ...createLabelHandlers(store.repos) } as Handlers<DataApi>);
      const inner = createSend({ data: () => worker });
      const held: { answer: Promise<unknown>; go: () => void }[] = [];
      const send: Send = (method, req, opts) => {
        const slow = method === 'labelQueue' && (req as { filter: { datasetIds: string[] } }).filter.datasetIds.includes('d');
        if (!slow) return inner(method, req, opts);
        const answer = inner(method, req, honourCancel ? opts : undefined);
        answer.catch(() => undefined);
        return new Promise((resolve, reject) => held.push({ answer, go: () => void answer.then(resolve, reject) }));
      };
      const s = new LabelSession(store, store.repos, send, () => 'me');
      return { s, store, worker, release: () => held.splice(0).forEach(({ go }) => go()), held };
    }

    for (const honourCancel of [true, false]) {
      it(`the dataset changed while the old queue loads: nothing is shown or labelled until the new queue's item is, and the late answer is dropped (${honourCancel ? 'cancelled' : 'answered late'})`, async () => {
        const { s, store, release, held } = await twoDatasets(honourCancel);
        const restoring = s.restore('d');
        await until(() => held.length === 1);
        // The worker has built the old queue already: only the page stands between its answer and the screen.
        await held[0]!.answer.catch(() => undefined);
        expect([s.loading, s.shown, s.ready, s.target()]).toEqual([true, null, false, null]);
        expect(await s.score(4, '')).toBeNull(); // a key while loading labels nothing
        await s.changeFilter({ datasetIds: ['e'] });
        expect(s.shown?.item.id).toBe('e|u1|a');
        expect(s.ready).toBe(true);
        release(); // the old queue's answer arrives after the new one is on screen
        await restoring;
        expect([s.ids, s.shown?.item.datasetId, s.filter.datasetIds]).toEqual([['e|u1|a', 'e|u2|a'], 'e', ['e']]);
        await s.score(4, '');
        await s.score(2, '');
        expect(s.canUndo).toBe(true);
        expect(await store.repos.experiences.count('d')).toBe(3); // the judge's three, no label of mine
        expect((await store.repos.experiences.byDataset('e')).filter((x) => x.rater === 'me').map((x) => [x.taskId, x.score])).toEqual([
          ['u1', 4],
          ['u2', 2],
        ]);
        s.stop();
      });
    }

    it('a new filter leaves the old queue’s undo steps behind: u acts on the queue on screen', async () => {
      const { s, store } = await twoDatasets(true);
      await s.restore('e');
      await s.score(4, '');
      expect(s.canUndo).toBe(true);
      await s.changeFilter({ mode: 'all' });
      expect([s.canUndo, await s.undo()]).toEqual([false, null]);
      expect(await store.repos.experiences.count('e')).toBe(3); // the label stays
      s.stop();
    });

    it('a label given on an item that is no longer on screen is refused, and nothing is written', async () => {
      const { s, store } = await twoDatasets(true);
      await s.restore('e');
      const target = s.target()!;
      await s.show(1);
      await expect(s.score(5, '', target)).rejects.toThrow(new StaleLabelError('Not saved: another item was on screen by the time the key was handled.'));
      expect(await store.repos.experiences.count('e')).toBe(2);
      s.stop();
    });

    it('the worker refuses a label on a queue it no longer has; the session builds the queue again and the next key works', async () => {
      const { s, store, worker } = await twoDatasets(true);
      await s.restore('e');
      const before = s.target()!.queue;
      // Another queue begins in the worker (as when a second build starts, or a restarted worker has none): the page's is stale.
      await worker.call('labelQueue', { filter: { datasetIds: ['e'], mode: 'all', order: 'task' }, me: 'me' });
      const refusal = s.score(3, '');
      await expect(refusal).rejects.toThrow(/^Not saved: the queue it was given in was replaced/);
      await expect(refusal).rejects.toBeInstanceOf(StaleLabelError);
      await until(() => s.ready && s.target()!.queue !== before);
      expect(s.shown?.item.id).toBe('e|u1|a');
      expect(await store.repos.experiences.count('e')).toBe(2);
      await s.score(3, '');
      expect(await store.repos.experiences.count('e')).toBe(3);
      s.stop();
    });

    it('stop() resolves a move still waiting for its item, so queued keys never wait for ever', async () => {
      const { s } = await twoDatasets(true);
      await s.restore('e');
      const moving = s.show(1);
      s.stop();
      await expect(moving).resolves.toBeUndefined();
    });
  });
});
