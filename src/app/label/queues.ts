/**
 * The data worker's record of the labelling queue the page has on screen, so that a hand label can
 * be checked against it before it is written (issue #35: labels landed in a dataset the labeller no
 * longer had selected, when the previous dataset's queue answered after the new one was chosen).
 *
 * Each `labelQueue` call begins a queue and gets a number; the latest call to begin is the current
 * one, even while it is still reading (a slower, older call that finishes later never becomes
 * current again). A label names the queue and the item it was given on (`LabelTarget`); it is
 * refused unless that queue is still the current one, has finished building, was built for the
 * same rater, selects the item's dataset and holds the item.
 *
 * One record per worker, so per tab: each tab has its own data worker and its own Label page. A
 * worker that was restarted holds no queue, and every label is refused until the page builds one
 * again (the page rebuilds it when a label is refused).
 */
import { experienceKey } from '../../core/ids';
import { itemId } from '../../core/label/queue';
import { quote } from '../../core/text/quote';
import type { Experience } from '../../core/types';
import type { LabelTarget } from '../edit/api';

interface Queue {
  id: number;
  me: string;
  datasetIds: ReadonlySet<string>;
  /** The queue's item ids; null while it is still being built. */
  items: ReadonlySet<string> | null;
}

export class LabelQueues {
  #seq = 0;
  #current: Queue | null = null;

  /** A new queue for `datasetIds` and rater `me`; it is the current one from now on. */
  begin(datasetIds: readonly string[], me: string): number {
    const id = ++this.#seq;
    this.#current = { id, me, datasetIds: new Set(datasetIds), items: null };
    return id;
  }

  /** Stores the built queue's items; false when a newer queue began meanwhile (this one is stale). */
  settle(id: number, ids: readonly string[]): boolean {
    if (this.#current?.id !== id) return false;
    this.#current = { ...this.#current, items: new Set(ids) };
    return true;
  }

  /** True while `id` is the current queue (a stale build can stop reading). */
  isCurrent(id: number): boolean {
    return this.#current?.id === id;
  }

  /**
   * Why a label given on `target` must not be written now; null when it may. Nothing here waits,
   * so the check and the write's first step see the same current queue.
   */
  problem(target: LabelTarget): StaleProblem | null {
    const q = this.#current;
    if (!q || q.id !== target.queue) return { kind: 'replaced' };
    if (!q.items) return { kind: 'building' };
    if (q.me !== target.rater) return { kind: 'rater', queueRater: q.me };
    if (!q.datasetIds.has(target.datasetId)) return { kind: 'dataset', selected: [...q.datasetIds] };
    if (!q.items.has(itemId(target.datasetId, target.taskId, target.toolId))) return { kind: 'item' };
    return null;
  }
}

export type StaleProblem =
  { kind: 'replaced' } | { kind: 'building' } | { kind: 'rater'; queueRater: string } | { kind: 'dataset'; selected: string[] } | { kind: 'item' };

/** Why, in words, for the refusal's message; `name` gives a dataset's name (its id when it has none). */
function reason(p: StaleProblem, target: LabelTarget, name: (datasetId: string) => string): string {
  switch (p.kind) {
    case 'replaced':
      return 'the queue it was given in was replaced (the dataset or a filter changed) before the label arrived';
    case 'building':
      return 'the queue is still being built';
    case 'rater':
      return `the queue was built for rater ${quote(p.queueRater)}, not ${quote(target.rater)}`;
    case 'dataset':
      return `the item belongs to ${quote(name(target.datasetId))}, not to the selected ${p.selected.map((d) => quote(name(d))).join(', ')}`;
    case 'item':
      return `task ${quote(target.taskId)} of ${quote(target.toolId)} is no longer in the selected queue`;
  }
}

/** The refusal's message: what happened, that nothing was written, and what the page does next. */
export function describeStale(p: StaleProblem, target: LabelTarget, name: (datasetId: string) => string): string {
  return `Not saved: ${reason(p, target, name)}. Nothing was written; the queue is built again for what is selected now.`;
}

/** Why `label` does not match the item it names (`target`), or null: a label is stored under its item and rater only. */
export function labelMismatch(label: Experience, target: LabelTarget): string | null {
  const fields = ['datasetId', 'taskId', 'toolId', 'rater'] as const;
  const wrong = fields.find((f) => label[f] !== target[f]);
  if (wrong) return `The label's ${wrong} ${quote(label[wrong])} is not the ${wrong} of the item on screen (${quote(target[wrong])}).`;
  const id = experienceKey(target.datasetId, target.taskId, target.toolId, target.rater);
  return label.id === id ? null : `The label's id ${quote(label.id)} is not the id of its item and rater (${quote(id)}).`;
}
