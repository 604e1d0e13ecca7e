/**
 * Hand edits of the data (issue #16: the UI writes only through handlers): labels and pairwise
 * choices with their undo, items added by hand, a dataset's rater policy, deleting a dataset,
 * pinning a task as a tool's test case, a tool card's price and latency. Served by the data worker beside the labelling queries
 * (src/app/label/label.ts spreads these handlers), so each write is one round trip from the page.
 */
import type { Dataset, Experience, LabelItem, Preference, RaterPolicy, StoredImage, Tool } from '../../core/types';

/**
 * The item a label is given on, as the page shows it: the queue it came from (the number
 * `labelQueue` returned) and the dataset, task, tool and rater it names.
 */
export interface LabelTarget {
  queue: number;
  datasetId: string;
  taskId: string;
  toolId: string;
  rater: string;
}

export interface EditApi {
  /**
   * Writes one human label (score range checked against its dataset); returns the label it replaced,
   * for undo. Refused with `StaleLabelError`, nothing written, unless `shown` is an item of the
   * worker's current queue (label-queues.ts); refused with `ValidationError` unless `label` is
   * that item's label by that rater.
   */
  saveLabel: { req: { label: Experience; shown: LabelTarget }; res: { previous: Experience | null }; progress: never };
  /** Undo of a label: puts `previous` back, or removes the label `id` when there was none. */
  restoreLabel: { req: { id: string; previous: Experience | null }; res: null; progress: never };
  /** Writes one pairwise choice; returns the choice it replaced, for undo. */
  savePreference: { req: { preference: Preference }; res: { previous: Preference | null }; progress: never };
  /** Undo of a choice: puts `previous` back, or removes the choice `id`. */
  restorePreference: { req: { id: string; previous: Preference | null }; res: null; progress: never };
  /** Adds an item to label; `dataset` is created when it does not exist yet, `tool` when it is new. */
  addItem: { req: { item: LabelItem; tool: Tool; dataset?: Dataset; image?: StoredImage }; res: null; progress: never };
  /** Sets how a dataset's ground truth combines its raters' scores. */
  setRaterPolicy: { req: { datasetId: string; policy: RaterPolicy }; res: null; progress: never };
  /** Deletes a dataset with its experiences, images and labels. */
  removeDataset: { req: { datasetId: string }; res: null; progress: never };
  /**
   * Replaces an existing tool's card (price, latency, input schema…) with `tool`; returns the card it
   * replaced, so the page's Undo hands that back to this same call.
   */
  saveTool: { req: { tool: Tool }; res: { previous: Tool }; progress: never };
  /** Gives each listed tool that exists and has no price yet its example price per call; returns how many. */
  setExamplePrices: { req: { prices: readonly (readonly [toolId: string, amount: number])[] }; res: { set: number }; progress: never };
  /** Adds the task to the tool's test cases, or removes it; `pinned` tells which. */
  toggleTestCase: { req: { toolId: string; datasetId: string; taskId: string }; res: { pinned: boolean }; progress: never };
}
