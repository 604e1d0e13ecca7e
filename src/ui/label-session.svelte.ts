import { experienceKey } from '../core/ids';
import type { QueueFilter } from '../core/label/queue';
import type { Repositories } from '../core/repositories';
import type { Dataset, Experience, LabelItem } from '../core/types';
import type { SettingsStore } from './storage';
import type { Client } from '../rpc';
import type { DataApi } from './workers';

export interface ShownItem {
  item: LabelItem;
  dataset: Dataset;
  /** Every label given to this output so far (all raters). */
  labels: Experience[];
}

interface UndoStep {
  id: string;
  previous: Experience | null;
  position: number;
}

/**
 * Scoring session: the queue (ids from the worker), the item on screen and an undo stack.
 * Every label is written the moment it is given; the queue position is saved too, so a reload
 * or a crash loses nothing.
 */
export class LabelSession {
  filter = $state<QueueFilter>({ datasetIds: [], mode: 'unlabelled-by-me', order: 'task' });
  ids = $state.raw<string[]>([]);
  total = $state(0);
  categories = $state<string[]>([]);
  tools = $state<string[]>([]);
  position = $state(0);
  // Raw: its objects are written to IndexedDB as they are (a deep $state proxy cannot be cloned).
  shown = $state.raw<ShownItem | null>(null);
  loading = $state(false);
  saved = $state(0);
  /** Queue items I have labelled: the progress bar's count (set when the queue is built, then kept live). */
  done = $state(0);
  #undo: UndoStep[] = [];
  canUndo = $state(false);

  constructor(
    private readonly settings: SettingsStore,
    private readonly repos: Repositories,
    private readonly worker: Client<DataApi>,
    private readonly me: () => string,
  ) {}

  /** Restores the saved filter and position, or starts on the first dataset. */
  async restore(defaultDatasetId: string | undefined): Promise<void> {
    const saved = await this.settings.get('labelSession');
    const datasets = (await this.repos.datasets.list()).map((d) => d.id);
    if (saved && saved.filter.datasetIds.every((d) => datasets.includes(d)) && saved.filter.datasetIds.length) {
      this.filter = saved.filter;
      await this.reload(saved.itemId);
    } else if (defaultDatasetId) {
      this.filter = { datasetIds: [defaultDatasetId], mode: 'unlabelled-by-me', order: 'task' };
      await this.reload(null);
    }
  }

  /** Rebuilds the queue (after a filter change) and shows `itemId` if still there, else the first item. */
  async reload(itemId: string | null = this.shown?.item.id ?? null): Promise<void> {
    this.loading = true;
    try {
      const q = await this.worker.call('labelQueue', { filter: $state.snapshot(this.filter), me: this.me() });
      this.ids = q.ids;
      this.done = q.mine;
      this.total = q.total;
      this.categories = q.categories;
      this.tools = q.tools;
      const at = itemId ? q.ids.indexOf(itemId) : -1;
      await this.show(at >= 0 ? at : 0);
    } finally {
      this.loading = false;
    }
  }

  async show(position: number): Promise<void> {
    this.position = Math.max(0, Math.min(position, this.ids.length));
    const id = this.ids[this.position];
    if (!id) {
      this.shown = null;
      await this.persist();
      return;
    }
    const [datasetId, taskId, toolId] = id.split('|') as [string, string, string];
    const [dataset, rows, created] = await Promise.all([
      this.repos.datasets.get(datasetId),
      this.repos.experiences.byTask(datasetId, taskId),
      this.repos.labels.items(datasetId),
    ]);
    const labels = rows.filter((r) => r.toolId === toolId);
    const first = labels[0];
    const item =
      created.find((i) => i.id === id) ??
      (first && {
        id, datasetId, taskId, toolId, prompt: first.prompt, categories: first.categories, createdAt: first.createdAt,
        ...(first.response !== undefined ? { response: first.response } : {}),
        ...(first.imageId !== undefined ? { imageId: first.imageId } : {}),
        ...(first.rubric !== undefined ? { rubric: first.rubric } : {}),
      });
    if (!dataset || !item) {
      // The item vanished (dataset deleted in another tab): drop it from the queue.
      this.ids = this.ids.filter((x) => x !== id);
      return this.show(this.position);
    }
    this.shown = { item, dataset, labels };
    await this.persist();
  }

  mine(): Experience | undefined {
    return this.shown?.labels.find((l) => l.rater === this.me());
  }

  /**
   * Saves my score (and feedback) for the item on screen, then moves on. Returns the item and
   * whether the label is a new experience (not a changed score), for the live counts.
   */
  async score(value: number, feedback: string): Promise<{ item: LabelItem; added: boolean } | null> {
    const shown = this.shown;
    if (!shown) return null;
    const { item, dataset } = shown;
    const { min, max, integer } = dataset.scale;
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      throw new RangeError(`A score for ${dataset.name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}.`);
    }
    const rater = this.me();
    const id = experienceKey(item.datasetId, item.taskId, item.toolId, rater);
    const previous = (await this.repos.experiences.get(id)) ?? null;
    const text = feedback.trim();
    const label: Experience = {
      id, datasetId: item.datasetId, taskId: item.taskId, prompt: item.prompt, toolId: item.toolId, score: value, rater,
      scoreSource: 'human', categories: item.categories, importId: 'manual', createdAt: previous?.createdAt ?? Date.now(),
      ...(item.response !== undefined ? { response: item.response } : {}),
      ...(item.imageId !== undefined ? { imageId: item.imageId } : {}),
      ...(item.rubric !== undefined ? { rubric: item.rubric } : {}),
      ...(text ? { feedback: text } : {}),
    };
    await this.repos.experiences.put(label);
    this.#undo.push({ id, previous, position: this.position });
    this.canUndo = true;
    this.saved++;
    if (!previous && this.ids.includes(item.id)) this.done++;
    await this.show(this.position + 1);
    return { item, added: !previous };
  }

  /**
   * Reverts the last label (restores the earlier score, or removes it) and shows that item again.
   * Returns the item's id and whether an experience was removed (not just a score restored).
   */
  async undo(): Promise<{ itemKey: string; removed: boolean } | null> {
    const step = this.#undo.pop();
    this.canUndo = this.#undo.length > 0;
    if (!step) return null;
    if (step.previous) await this.repos.experiences.put(step.previous);
    else await this.repos.experiences.remove(step.id);
    this.saved = Math.max(0, this.saved - 1);
    const [datasetId, taskId, toolId] = step.id.split('|');
    const itemKey = `${datasetId}|${taskId}|${toolId}`;
    const at = this.ids.indexOf(itemKey);
    if (!step.previous && at >= 0) this.done = Math.max(0, this.done - 1);
    await this.show(at >= 0 ? at : step.position);
    return { itemKey, removed: !step.previous };
  }

  async persist(): Promise<void> {
    await this.settings.set('labelSession', { filter: $state.snapshot(this.filter), itemId: this.shown?.item.id ?? null });
  }
}
