/**
 * Dataset counts kept up to date on every write: how many experiences of each tool have each score,
 * how many each rater gave, how many each task has. The Data page's statistics
 * (core/stats/dataset-stats `statsFromCounts`), the per-tool totals and the drift check's tool means
 * read these few rows instead of every experience of a 200k-row dataset.
 *
 * A Dexie DBCore middleware maintains them, so no write path can forget to: every read-write
 * transaction that includes `experiences` also includes the count log, and every mutation of
 * `experiences` (add, put, delete, range delete, clear — imports, undo, labels, dataset deletion,
 * backup restore, the scale bench's seeder) appends its exact difference to it in the same
 * transaction (count-log.ts: the log, its fold and its compaction). The counts are derived data:
 * backups leave them out and restoring rebuilds them.
 */
import type { DBCore, DBCoreIndex, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie';
import type { Experience } from '../core/types';
import { abort, keepInStep, throwIfFailed } from './derived-tables';
import { COMPACT_AT, COUNT_LOG_TABLE, CountSum, fold, type CountKind, type CountLogRow } from './count-log';

export { readDatasetCounts, readDatasetSummary, forgetDatasetCounts } from './count-log';

/** Differences per dataset of one write. A Map: dataset ids come from data. */
type Deltas = Map<string, CountSum>;
function bump(deltas: Deltas, e: Experience, d: number) {
  let sum = deltas.get(e.datasetId);
  if (!sum) deltas.set(e.datasetId, (sum = new CountSum()));
  sum.experience(e, d);
}

const equal = (key: unknown[]) => ({ type: 1 /* Equal */ as const, lower: key, upper: key });

/**
 * Appends `deltas` to the log inside `trans`, with no read first. The rows and, in the same turn,
 * one count per (dataset, kind) written are issued together (IndexedDB runs a transaction's
 * requests in order, so each count includes the rows just added); a (dataset, kind) that reached
 * {@link COMPACT_AT} rows is folded into one.
 */
async function appendDeltas(log: DBCoreTable, byDataset: DBCoreIndex, trans: DBCoreTransaction, deltas: Deltas) {
  const rows = [...deltas].flatMap(([datasetId, sum]) => sum.rows(datasetId));
  if (!rows.length) return;
  const added = log.mutate({ type: 'add', trans, values: rows });
  const sizes = Promise.all(rows.map((r) => log.count({ trans, query: { index: byDataset, range: equal([r.datasetId, r.kind]) } })));
  throwIfFailed(await added, COUNT_LOG_TABLE);
  const n = await sizes;
  for (const [i, r] of rows.entries()) if (n[i]! >= COMPACT_AT) await compact(log, byDataset, trans, r.datasetId, r.kind);
}

/** Folds one (dataset, kind)'s log rows into one row (none when they sum to nothing). */
async function compact(log: DBCoreTable, byDataset: DBCoreIndex, trans: DBCoreTransaction, datasetId: string, kind: CountKind) {
  const stored = (await log.query({ trans, values: true, query: { index: byDataset, range: equal([datasetId, kind]) } })).result as CountLogRow[];
  const sum = fold(stored);
  throwIfFailed(await log.mutate({ type: 'delete', trans, keys: stored.map((r) => r.seq) }), COUNT_LOG_TABLE);
  const folded = sum.rows(datasetId, [kind]);
  if (folded.length) throwIfFailed(await log.mutate({ type: 'add', trans, values: folded }), COUNT_LOG_TABLE);
}

/**
 * An `add` of experiences (a fresh dataset's import batch, a backup restore, a label) writes rows
 * that did not exist: its difference is +1 for each, known before anything is written, so it is
 * appended in the same turn as the rows. A row whose `add` failed (its key was taken; only a bare
 * bulkAdd outside a transaction goes on after that) takes its +1 back in a second row.
 */
async function addWithCounts(
  table: DBCoreTable,
  log: DBCoreTable,
  byDataset: DBCoreIndex,
  req: DBCoreMutateRequest & { type: 'add' },
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  const values = req.values as Experience[];
  const deltas: Deltas = new Map();
  for (const v of values) bump(deltas, v, +1);
  const rowsDone = table.mutate(req);
  const countsDone = appendDeltas(log, byDataset, trans, deltas);
  let res: DBCoreMutateResponse;
  try {
    [res] = await Promise.all([rowsDone, countsDone]);
    if (res.numFailures) {
      const back: Deltas = new Map();
      values.forEach((v, i) => {
        if (res.failures[i] != null) bump(back, v, -1);
      });
      await appendDeltas(log, byDataset, trans, back);
    }
  } catch (err) {
    // Some rows or counts may be written already, and which is not known: nothing of this
    // transaction may commit.
    abort(trans);
    throw err;
  }
  return res;
}

/**
 * The writes to `experiences` of one transaction, one after another: each reads the rows it replaces
 * as the one before left them (and a compaction reads the log it wrote), so two writes issued
 * together in one transaction (Promise.all) cannot count one replaced row twice.
 */
const lastWrite = new WeakMap<object, Promise<unknown>>();
function inTurn<T>(trans: DBCoreTransaction, write: () => Promise<T>): Promise<T> {
  const before = lastWrite.get(trans);
  const mine = before ? before.then(write, write) : write();
  lastWrite.set(
    trans,
    mine.catch(() => undefined),
  );
  return mine;
}

/**
 * Rows a `put` is known to replace, read in its own transaction just before it: a re-import reads
 * every row it may replace (to compare and back up, experience-repo `writeImportBatch`), and the put's
 * count differences take them from here instead of reading each replaced row a second time. One use:
 * the next write to `experiences` in that transaction takes it, and only a put whose every key it
 * holds uses it (any other write reads as before).
 */
const knownBefore = new WeakMap<object, ReadonlyMap<string, Experience | undefined>>();
export function replacingRows(trans: object, rows: ReadonlyMap<string, Experience | undefined>): void {
  knownBefore.set(trans, rows);
}

export const datasetCountsMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'datasetCounts',
  create(down) {
    return keepInStep(down, COUNT_LOG_TABLE, (table, log) => {
      const byDataset = log.schema.getIndexByKeyPath(['datasetId', 'kind'])!;
      const pk = table.schema.primaryKey;
      const mutate = async (req: DBCoreMutateRequest): Promise<DBCoreMutateResponse> => {
        const { trans } = req;
        const known = knownBefore.get(trans);
        knownBefore.delete(trans);
        if (req.type === 'add') return addWithCounts(table, log, byDataset, req);
        if (req.type === 'deleteRange' && req.range.type === 3 /* Any: clear() */) {
          const res = await table.mutate(req);
          await log.mutate({ type: 'deleteRange', trans, range: req.range });
          return res;
        }
        const values = req.type === 'put' ? (req.values as Experience[]) : undefined;
        const keys: unknown[] = req.type === 'deleteRange' ? [] : req.type === 'delete' ? req.keys : (req.keys ?? values!.map((v) => pk.extractKey!(v)));
        const old =
          req.type === 'deleteRange'
            ? ((await table.query({ trans, values: true, query: { index: pk, range: req.range } })).result as Experience[])
            : req.type === 'put' && known && keys.every((k) => typeof k === 'string' && known.has(k))
              ? keys.map((k) => known.get(k as string))
              : ((await table.getMany({ trans, keys })) as (Experience | undefined)[]);
        const res = await table.mutate(req);
        try {
          const deltas: Deltas = new Map();
          if (req.type === 'deleteRange') for (const e of old) if (e) bump(deltas, e, -1);
          // Within one request a key may come twice: the second write replaces the first.
          const latest = new Map<unknown, Experience | undefined>();
          keys.forEach((key, i) => {
            if (res.failures[i] != null) return;
            const before = latest.has(key) ? latest.get(key) : old[i];
            const after = values?.[i];
            latest.set(key, after);
            if (before) bump(deltas, before, -1);
            if (after) bump(deltas, after, +1);
          });
          await appendDeltas(log, byDataset, trans, deltas);
        } catch (err) {
          abort(trans);
          throw err;
        }
        return res;
      };
      return { ...table, mutate: (req: DBCoreMutateRequest) => inTurn(req.trans, () => mutate(req)) };
    });
  },
};
