import { dropDbs, newDb } from '../helpers/db';
import { until } from '../helpers/until';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { experienceKey } from '../../../src/core/ids';
import type { Dataset, Experience } from '../../../src/core/types';
import { SUMS_DATASET } from '../helpers/records';

// AppState listens for online/offline on `window`; Node has neither.
beforeAll(() => {
  Object.assign(globalThis, { window: new EventTarget() });
});
const { AppState } = await import('../../../src/ui/app-state.svelte');

const DATASET: Dataset = SUMS_DATASET;
const row = (taskId: string, toolId: string): Experience => ({
  id: experienceKey('d', taskId, toolId, 'judge'),
  datasetId: 'd',
  taskId,
  prompt: 'p',
  toolId,
  score: 3,
  rater: 'judge',
  scoreSource: 'judge',
  categories: [],
  importId: 'i1',
  createdAt: 1,
});

const app = () => new AppState(newDb('app-state'));
afterEach(dropDbs);

describe('AppState (the summaries every page shows)', () => {
  it('reads the datasets with their per-tool counts, then follows every write by itself', async () => {
    const a = app();
    await a.store.repos.datasets.put(DATASET);
    for (const e of [row('t1', 'b'), row('t2', 'b'), row('t1', 'a')]) await a.store.repos.experiences.put(e);
    await a.refresh();
    expect([a.loaded, a.loadError]).toEqual([true, null]);
    expect(a.datasets.map((d) => [d.dataset.id, d.total, d.perTool])).toEqual([
      [
        'd',
        3,
        [
          { toolId: 'a', count: 1 },
          { toolId: 'b', count: 2 },
        ],
      ],
    ]);
    expect(a.totalExperiences).toBe(3);
    // A write from anywhere (here: straight to the store, as a worker would): no refresh asked for.
    await a.store.repos.experiences.put(row('t3', 'a'));
    await until(() => a.datasets[0]?.total === 4);
    expect(a.datasets[0]?.perTool).toEqual([
      { toolId: 'a', count: 2 },
      { toolId: 'b', count: 2 },
    ]);
    await a.store.repos.datasets.remove('d');
    await until(() => a.datasets.length === 0);
  });

  it('toasts stack with their own ids and go when dismissed; held ones stay', async () => {
    const a = app();
    a.toast('ok', 'Saved.', undefined, 10_000);
    a.toast('error', 'Could not save.', undefined, 10_000);
    expect(a.toasts.map((t) => [t.id, t.kind, t.text])).toEqual([
      [1, 'ok', 'Saved.'],
      [2, 'error', 'Could not save.'],
    ]);
    a.dismiss(1);
    expect(a.toasts.map((t) => t.id)).toEqual([2]);
    a.toast('info', 'Gone soon.', undefined, 1);
    await until(() => !a.toasts.some((t) => t.text === 'Gone soon.'));
    a.toast('info', 'Held.', undefined, 5);
    a.holdToast(4);
    await new Promise((r) => setTimeout(r, 30));
    expect(a.toasts.map((t) => t.text)).toEqual(['Could not save.', 'Held.']);
    a.dismiss(2);
    a.dismiss(4);
    expect(a.toasts).toEqual([]);
  });
});
