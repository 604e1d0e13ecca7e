/**
 * Schema v7's upgrade, in the version-change transaction on the raw stores (all or nothing: a
 * failure leaves the v6 database): the experiences lose their last index, so their keys are
 * listed per import (import-keys.ts); and the v1–v6 count rows (one per (tool, score), rater and
 * task) become one log row of each kind per dataset (count-log.ts), after which Dexie drops
 * `datasetCounts`. The experiences themselves do not change.
 */
import { CountSum, COUNT_LOG_TABLE } from './count-log';
import { listStoredImportKeys } from './import-keys';
import { done } from './idb-request';

/** A count row of schemas v1–v6 (`key` = tool id for `score`, rater or task id otherwise; a score NaN is 'NaN'). */
interface LegacyCountRow {
  datasetId: string;
  kind: 'score' | 'rater' | 'task';
  key: string;
  score: number | string;
  n: number;
}

/** The v6 count rows as log rows: the same counts, one `summary` and one `tasks` row per dataset. */
async function convertCountRows(trans: IDBTransaction): Promise<number> {
  const rows = (await done(trans.objectStore('datasetCounts').getAll())) as LegacyCountRow[];
  const sums = new Map<string, CountSum>();
  for (const r of rows) {
    let sum = sums.get(r.datasetId);
    if (!sum) sums.set(r.datasetId, (sum = new CountSum()));
    if (r.kind === 'score') sum.row({ datasetId: r.datasetId, kind: 'summary', tools: [r.key], scores: [r.score], n: [r.n], raters: [], raterN: [] });
    else if (r.kind === 'rater') sum.row({ datasetId: r.datasetId, kind: 'summary', tools: [], scores: [], n: [], raters: [r.key], raterN: [r.n] });
    else sum.row({ datasetId: r.datasetId, kind: 'tasks', tasks: [r.key], n: [r.n] });
  }
  const log = trans.objectStore(COUNT_LOG_TABLE);
  await Promise.all([...sums].flatMap(([datasetId, sum]) => sum.rows(datasetId).map((row) => done(log.add(row)))));
  return rows.length;
}

export async function upgradeToV7(trans: IDBTransaction): Promise<{ listed: number; countRows: number }> {
  const listed = await listStoredImportKeys(trans);
  const countRows = await convertCountRows(trans);
  return { listed, countRows };
}
