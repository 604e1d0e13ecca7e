import { StaleLabelError } from '../core/errors';
import { experienceKey } from '../core/ids';
import type { QueueFilter } from '../core/label/queue';
import type { Repositories } from '../core/repositories';
import type { Dataset, Experience, LabelItem } from '../core/types';
import type { LabelTarget } from '../app/edit/api';
import type { SettingsStore, UiStorage } from './storage';
import type { Send } from './send';

export interface ShownItem {
  item: LabelItem;
  dataset: Dataset;
  /** Every label given to this output so far (all raters). */
  labels: Experience[];
  /** The queue (the worker's number) and the position it was shown at: the session's `ready` compares them with the current ones. */
  queue: number;
  at: number;
}

interface UndoStep {
  /** The label's experience id (core/ids `experienceKey`). */
  id: string;
  /** The label item it was given on: kept, not parsed back from the experience id (whose parts may hold `|`). */
  itemKey: string;
  previous: Experience | null;
  position: number;
}

/**
 * Scoring session: the queue (ids from the worker), the item on screen and an undo stack.
 * Every label is written the moment it is given, through the data worker (one round trip); the
 * queue position is saved too, so a reload or a crash loses nothing.
 *
 * The item on screen is a live read: a label given to it elsewhere (another rater's tab, an
 * import) shows at once. The queue itself is a snapshot, built when the filter changes: a live
 * queue would reorder under the labeller's keys, so the position never moves by itself.
 *
 * Labels are bound to what is shown (issue #35). A label is given on a `target()`: the item on
 * screen with the queue it came from, and only while that item is `ready` (shown, at the current
 * position, of the current queue, no save in flight). A new filter clears the item and cancels the
 * previous queue's load; its answer, should it still come, is dropped (a generation number), so a
 * key does nothing until the new queue's first item is shown. The data worker checks the target
 * again and refuses a label whose queue is no longer its current one (`StaleLabelError`).
 */
export class LabelSession {
  #filter = $state<QueueFilter>({ datasetIds: [], mode: 'unlabelled-by-me', order: 'task' });
  #ids = $state.raw<string[]>([]);
  #total = $state(0);
  #categories = $state<string[]>([]);
  #tools = $state<string[]>([]);
  #position = $state(0);
  // Raw: its objects are written to IndexedDB as they are (a deep $state proxy cannot be cloned).
  #shown = $state.raw<ShownItem | null>(null);
  #loading = $state(false);
  /** The worker's number for the queue on screen (0: none yet). */
  #queue = $state(0);
  /** A label of the item on screen is being written: keys wait for the next item. */
  #saving = $state(false);
  /** Counts builds: an answer for an older build is dropped. */
  #gen = 0;
  #abort: AbortController | null = null;
  #saved = $state(0);
  /** Items I have labelled among those the filters select (set when the queue is built, then kept live). */
  #done = $state(0);
  /** Items the filters select, whatever the mode: the progress line's whole, the same after a reload. */
  #selected = $state(0);
  #undo: UndoStep[] = [];
  /** When the queue on screen was built: saved with the position, so a restore can tell it is the same queue. */
  #builtAt = 0;
  #canUndo = $state(false);
  // Read from outside through getters; changed only by this class's methods.
  get filter() {
    return this.#filter;
  }
  get ids() {
    return this.#ids;
  }
  get total() {
    return this.#total;
  }
  get categories() {
    return this.#categories;
  }
  get tools() {
    return this.#tools;
  }
  get position() {
    return this.#position;
  }
  get shown() {
    return this.#shown;
  }
  get loading() {
    return this.#loading;
  }
  get saved() {
    return this.#saved;
  }
  get done() {
    return this.#done;
  }
  get selected() {
    return this.#selected;
  }
  get canUndo() {
    return this.#canUndo;
  }
  /** The item on screen is the current queue's item at the current position, and no label of it is being saved: keys may act on it. */
  get ready(): boolean {
    const s = this.#shown;
    return !!s && !this.#saving && s.queue === this.#queue && s.at === this.#position && this.#ids[this.#position] === s.item.id;
  }

  #unwatch: (() => void) | null = null;
  /** Resolves the `show` that is still waiting for its item (see `stop`). */
  #settle: (() => void) | null = null;

  constructor(
    private readonly settings: SettingsStore & Pick<UiStorage, 'watch'>,
    private readonly repos: Repositories,
    private readonly send: Send,
    private readonly me: () => string,
  ) {}

  /** Restores the saved filter and position, or starts on the first dataset. */
  async restore(defaultDatasetId: string | undefined): Promise<void> {
    const saved = await this.settings.get('labelSession');
    const datasets = (await this.repos.datasets.list()).map((d) => d.id);
    if (saved && saved.filter.datasetIds.every((d) => datasets.includes(d)) && saved.filter.datasetIds.length) {
      this.#filter = saved.filter;
      await this.build(saved.itemId ? { itemId: saved.itemId, ...(saved.builtAt !== undefined ? { since: saved.builtAt } : {}) } : undefined);
    } else if (defaultDatasetId) {
      this.#filter = { datasetIds: [defaultDatasetId], mode: 'unlabelled-by-me', order: 'task' };
      await this.reload(null);
    }
  }

  /**
   * A new filter from the page's controls, then the queue for it from its first item. The undo steps
   * go with the old queue: `u` acts on the queue on screen, never on an item of one left behind.
   */
  async changeFilter(patch: Partial<QueueFilter>): Promise<void> {
    this.#filter = { ...this.#filter, ...patch };
    this.#undo = [];
    this.#canUndo = false;
    await this.reload(null);
  }

  /** Rebuilds the queue (after a filter change) and shows `itemId` if still there, else the first item. */
  async reload(itemId: string | null = this.#shown?.item.id ?? null): Promise<void> {
    // The session's own queue, rebuilt: its items may stay where they are (since = now).
    await this.build(itemId ? { itemId, since: Date.now() } : undefined);
  }

  /**
   * Builds the queue; it starts where the worker says (the `resume` item when it is still that queue,
   * else the first). The item on screen goes at once, and the previous build is cancelled: until
   * this queue's first item is shown there is nothing a key can label.
   */
  private async build(resume: { itemId: string; since?: number } | undefined): Promise<void> {
    const gen = ++this.#gen;
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    this.stop();
    this.#shown = null;
    this.#loading = true;
    try {
      const builtAt = Date.now();
      const req = { filter: $state.snapshot(this.#filter), me: this.me(), ...(resume ? { resume } : {}) };
      const q = await this.send('labelQueue', req, { signal: abort.signal });
      if (gen !== this.#gen) return; // a newer build is on its way: its queue is the one to show
      this.#queue = q.queue;
      this.#builtAt = builtAt;
      this.#ids = q.ids;
      this.#done = q.mine;
      this.#selected = q.selected;
      this.#total = q.total;
      this.#categories = q.categories;
      this.#tools = q.tools;
      await this.show(q.start);
    } catch (err) {
      if (gen !== this.#gen) return; // cancelled or overtaken: the newer build reports its own errors
      throw err;
    } finally {
      if (gen === this.#gen) this.#loading = false;
    }
  }

  /**
   * Shows the item at `position` (clamped; past the end: nothing left) and keeps it live until the
   * next `show` or `stop`. Resolves once the item is on screen.
   */
  show(position: number): Promise<void> {
    this.stop();
    this.#position = Math.max(0, Math.min(position, this.#ids.length));
    const id = this.#ids[this.#position];
    if (!id) {
      this.#shown = null;
      return this.persist();
    }
    const [datasetId, taskId, toolId] = id.split('|') as [string, string, string];
    const [queue, at] = [this.#queue, this.#position];
    // The restore point moves with the position, before the item is read: a reload right after a
    // key press (or an undo) resumes on the item the counter already shows.
    const saving = this.persist(id);
    saving.catch(() => undefined); // awaited below once the item is on screen; not unhandled if the read fails first
    return new Promise<void>((resolve, reject) => {
      let first = true;
      const settle = (): void => {
        if (this.#settle === settle) this.#settle = null;
        resolve();
      };
      this.#settle = settle;
      const stop = this.settings.watch(
        () => Promise.all([this.repos.datasets.get(datasetId), this.repos.experiences.byTask(datasetId, taskId), this.repos.labels.items(datasetId)]),
        ([dataset, rows, created]) => {
          if (this.#unwatch !== stop) return; // another item is on screen by now
          const shown = shownItem(id, toolId, dataset, rows, created, { queue, at });
          if (!shown) {
            // The item vanished (dataset deleted in another tab): drop it from the queue.
            this.#ids = this.#ids.filter((x) => x !== id);
            this.#settle = null; // this promise settles with the next item's
            void this.show(this.#position).then(resolve, reject);
            return;
          }
          this.#shown = shown;
          if (!first) return;
          first = false;
          void saving.then(settle, reject);
        },
        (err) => (first ? reject(err) : undefined),
      );
      this.#unwatch = stop;
    });
  }

  /**
   * Stops the live read of the item on screen (the page is left, another item or queue comes). A
   * `show` still waiting for its item resolves: it was overtaken, and whoever awaits it (a queued
   * key's action) must not wait for ever.
   */
  stop(): void {
    this.#unwatch?.();
    this.#unwatch = null;
    const settle = this.#settle;
    this.#settle = null;
    settle?.();
  }

  mine(): Experience | undefined {
    return this.#shown?.labels.find((l) => l.rater === this.me());
  }

  /** The item on screen as a label names it (the queue it came from, dataset, task, tool, rater); null unless `ready`. */
  target(): LabelTarget | null {
    const s = this.#shown;
    if (!s || !this.ready) return null;
    return { queue: s.queue, datasetId: s.item.datasetId, taskId: s.item.taskId, toolId: s.item.toolId, rater: this.me() };
  }

  /**
   * Saves my score (and feedback) for `target`, the item that was on screen when the key was pressed,
   * then moves on. Refused (StaleLabelError, nothing written) when another item is on screen by now;
   * when the worker refuses it, the queue is built again for the filter on screen. Returns the item
   * and whether the label is a new experience (not a changed score), for the live counts.
   */
  async score(value: number, feedback: string, target: LabelTarget | null = this.target()): Promise<{ item: LabelItem; added: boolean } | null> {
    if (!target) return null;
    const shown = this.#shown;
    const now = this.target();
    if (!shown || !now || !sameTarget(now, target)) throw new StaleLabelError('Not saved: another item was on screen by the time the key was handled.');
    const { item } = shown;
    const rater = target.rater;
    const id = experienceKey(item.datasetId, item.taskId, item.toolId, rater);
    const text = feedback.trim();
    const label: Experience = {
      id,
      datasetId: item.datasetId,
      taskId: item.taskId,
      prompt: item.prompt,
      toolId: item.toolId,
      score: value,
      rater,
      scoreSource: 'human',
      categories: item.categories,
      importId: 'manual',
      createdAt: Date.now(),
      ...(item.response !== undefined ? { response: item.response } : {}),
      ...(item.imageId !== undefined ? { imageId: item.imageId } : {}),
      ...(item.rubric !== undefined ? { rubric: item.rubric } : {}),
      ...(text ? { feedback: text } : {}),
    };
    // One round trip: the worker checks the target and the score, writes, and returns what it replaced.
    this.#saving = true;
    let previous: Experience | null;
    try {
      ({ previous } = await this.send('saveLabel', { label, shown: target }));
    } catch (err) {
      this.#saving = false;
      // The worker has another queue (it was restarted, or a build began): build the one on screen again.
      if (err instanceof StaleLabelError && target.queue === this.#queue) void this.reload().catch(() => undefined);
      throw err;
    }
    this.#undo.push({ id, itemKey: item.id, previous, position: this.#position });
    this.#canUndo = true;
    this.#saved++;
    if (target.queue !== this.#queue) {
      // Written on the item it was given on; the queue changed meanwhile (a new filter): do not move in the new one.
      this.#saving = false;
      return { item, added: !previous };
    }
    if (!previous && this.#ids.includes(item.id)) this.#done++;
    // The same step: the position moves (so `ready` waits for the next item) as the save flag drops.
    this.#saving = false;
    await this.show(this.#position + 1);
    return { item, added: !previous };
  }

  /**
   * Reverts the last label (restores the earlier score, or removes it) and shows that item again.
   * Returns the item's id and whether an experience was removed (not just a score restored).
   */
  async undo(): Promise<{ itemKey: string; removed: boolean } | null> {
    const step = this.#undo.pop();
    this.#canUndo = this.#undo.length > 0;
    if (!step) return null;
    await this.send('restoreLabel', { id: step.id, previous: step.previous });
    this.#saved = Math.max(0, this.#saved - 1);
    const { itemKey } = step;
    const at = this.#ids.indexOf(itemKey);
    if (!step.previous && at >= 0) this.#done = Math.max(0, this.#done - 1);
    await this.show(at >= 0 ? at : step.position);
    return { itemKey, removed: !step.previous };
  }

  async persist(itemId: string | null = this.#shown?.item.id ?? null): Promise<void> {
    await this.settings.set('labelSession', { filter: $state.snapshot(this.#filter), itemId, builtAt: this.#builtAt });
  }
}

const sameTarget = (a: LabelTarget, b: LabelTarget): boolean =>
  a.queue === b.queue && a.datasetId === b.datasetId && a.taskId === b.taskId && a.toolId === b.toolId && a.rater === b.rater;

/** The item `id` as the session shows it, from one read of its task; null when it is gone. */
function shownItem(
  id: string,
  toolId: string,
  dataset: Dataset | undefined,
  rows: Experience[],
  created: LabelItem[],
  where: { queue: number; at: number },
): ShownItem | null {
  const labels = rows.filter((r) => r.toolId === toolId);
  const first = labels[0];
  const item: LabelItem | undefined =
    created.find((i) => i.id === id) ??
    (first && {
      id,
      datasetId: first.datasetId,
      taskId: first.taskId,
      toolId,
      prompt: first.prompt,
      categories: first.categories,
      createdAt: first.createdAt,
      ...(first.response !== undefined ? { response: first.response } : {}),
      ...(first.imageId !== undefined ? { imageId: first.imageId } : {}),
      ...(first.rubric !== undefined ? { rubric: first.rubric } : {}),
    });
  return dataset && item ? { item, dataset, labels, ...where } : null;
}
