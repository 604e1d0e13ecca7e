import type { QueueFilter } from '../../core/label/queue';
import type { RaterPolicy } from '../../core/types';
import type { EditApi } from '../edit/api';

export interface QueueResult {
  /** The queue's number: labels name it (`LabelTarget.queue`), and only the latest queue's are written (label-queues.ts). */
  queue: number;
  /** Item ids (`datasetId|taskId|toolId`) in queue order. */
  ids: string[];
  /** Items before filtering (for "n of m"). */
  total: number;
  /** Items the filters select, whatever the mode ("not labelled by me" or not): the progress line's whole (core/label/queue `selectionProgress`). */
  selected: number;
  /** Of those, the items `me` has labelled: the same before and after a rebuild or a reload. */
  mine: number;
  categories: string[];
  tools: string[];
  /** Where to start: the `resume` item when the user was in the middle of this same queue, else 0 (core/label/queue `resumeAt`). */
  start: number;
}

export interface RaterStats {
  rater: string;
  n: number;
  /** Counts per bin, aligned with AgreementReport.bins. */
  histogram: number[];
  mean: number;
}

export interface AgreementReport {
  datasetId: string;
  bins: string[];
  raters: RaterStats[];
  /** Items (task × tool) rated by at least two raters. */
  units: number;
  exact: { share: number; pairs: number };
  alpha: { nominal: number; ordinal: number; interval: number };
  policy: RaterPolicy;
}

/** Labelling queries, and the hand edits of the data (edit-api.ts) served beside them. */
export interface LabelApi extends EditApi {
  labelQueue: { req: { filter: QueueFilter; me: string; resume?: { itemId: string; since?: number } }; res: QueueResult; progress: never };
  agreement: { req: { datasetId: string }; res: AgreementReport; progress: never };
  /** Makes (or makes again) `<dataset> · pairwise`: per task, each tool's share of its comparisons won, ties ½ — memory evidence. */
  pairwiseDataset: {
    req: { datasetId: string };
    res: { datasetId: string; name: string; experiences: number; tasks: number; judgements: number };
    progress: never;
  };
}
