/**
 * Dataset counts kept up to date on every write: how many experiences of each tool have each score,
 * how many each rater gave, how many each task has. The Data page's statistics
 * (core/stats/dataset-stats `statsFromCounts`), the per-tool totals and the drift check's tool means
 * read these few rows instead of every experience of a 200k-row dataset.
 *
 * A Dexie DBCore middleware maintains them, so no write path can forget to: every read-write
 * transaction that includes `experiences` also includes `datasetCounts`, and every mutation of
 * `experiences` (add, put, delete, range delete, clear — imports, undo, labels, dataset deletion,
 * backup restore, the scale bench's seeder) applies its exact difference to the counts in the same
 * transaction. The counts are derived data: backups leave them out and restoring rebuilds them.
 */
import Dexie, { type DBCore, type DBCoreMutateRequest, type DBCoreMutateResponse, type DBCoreTable, type DBCoreTransaction, type Middleware } from 'dexie';
import type { DatasetCounts } from '../core/stats/dataset-stats';
import type { Experience } from '../core/types';

export const COUNTS_TABLE = 'datasetCounts';

/** `score`: one (tool, score) pair, `key` = tool id; `rater` and `task`: `key` = rater / task id, `score` = 0. */
export interface DatasetCountRow {
  datasetId: string;
  kind: 'score' | 'rater' | 'task';
  key: string;
  /** A score, or 'NaN' (NaN is no IndexedDB key). */
  score: number | string;
  n: number;
}

type CountKey = [string, DatasetCountRow['kind'], string, number | string];

const scoreKey = (s: number): number | string => (Number.isNaN(s) ? 'NaN' : s);
const scoreOf = (k: number | string): number => (typeof k === 'number' ? k : NaN);

function keysOf(e: Experience): CountKey[] {
  return [
    [e.datasetId, 'score', e.toolId, scoreKey(e.score)],
    [e.datasetId, 'rater', e.rater, 0],
    [e.datasetId, 'task', e.taskId, 0],
  ];
}

/** The count rows one write changes: key (as JSON) → key and difference. A Map: keys come from data. */
type Delta = Map<string, { key: CountKey; d: number }>;

function bump(delta: Delta, e: Experience, d: number) {
  for (const key of keysOf(e)) {
    const id = JSON.stringify(key);
    const cur = delta.get(id);
    if (cur) cur.d += d;
    else delta.set(id, { key, d });
  }
}

const rowOf = (key: CountKey, n: number): DatasetCountRow => ({ datasetId: key[0], kind: key[1], key: key[2], score: key[3], n });

/** Throws the first failure of a count write (the caller aborts the transaction): counts never go wrong silently. */
function throwIfFailed(res: DBCoreMutateResponse) {
  if (!res.numFailures) return;
  const first = Object.values(res.failures).find((f) => f != null);
  throw first instanceof Error ? first : new Error(`datasetCounts: ${res.numFailures} count writes failed`);
}

/**
 * Applies `delta` to the stored counts, inside `trans`: one `getMany` of the changed count rows, then
 * one `put` (n > 0) and one `delete` (n reaches 0) request batch. Whatever else happened in `trans`
 * before is seen: the read is in the same transaction.
 */
async function applyDelta(counts: DBCoreTable, trans: DBCoreTransaction, delta: Delta) {
  const todo = [...delta.values()].filter((x) => x.d !== 0);
  if (!todo.length) return;
  const stored = (await counts.getMany({ trans, keys: todo.map((x) => x.key) })) as (DatasetCountRow | undefined)[];
  const puts: DatasetCountRow[] = [];
  const deletes: CountKey[] = [];
  todo.forEach(({ key, d }, i) => {
    const n = (stored[i]?.n ?? 0) + d;
    if (n > 0) puts.push(rowOf(key, n));
    else if (stored[i]) deletes.push(key);
  });
  if (puts.length) throwIfFailed(await counts.mutate({ type: 'put', trans, values: puts }));
  if (deletes.length) throwIfFailed(await counts.mutate({ type: 'delete', trans, keys: deletes }));
}

/**
 * An `add` of experiences (a fresh dataset's import batch, a backup restore) writes rows that did not
 * exist, and most of their count rows (above all one per task) do not exist either. Reading each of
 * them first (a `get` per count row: about 2,000 per 10,000-row batch, then as many `put`s) was most
 * of the counts' cost on imports (docs/reliability.md, "Import throughput"). So the count rows are
 * `add`ed with n = the batch's difference, without a read, sent in the same turn as the rows
 * themselves (IndexedDB runs a transaction's requests in order, so the backend goes on to them
 * without waiting for this worker). Exact whatever exists: a count row that does exist (written by an
 * earlier batch, another import, an earlier write in this transaction) fails its `add` with a
 * ConstraintError — Dexie's DBCore cancels that request's error event, so the transaction goes on —
 * and takes the read path with its whole difference; an experience whose `add` failed (its key was
 * taken) takes back its +1 there too.
 */
async function addWithCounts(table: DBCoreTable, counts: DBCoreTable, req: DBCoreMutateRequest & { type: 'add' }): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  const values = req.values as Experience[];
  const delta: Delta = new Map();
  for (const v of values) bump(delta, v, +1);
  const todo = [...delta.values()];
  const rowsDone = table.mutate(req);
  // Issued before the rows' requests complete, awaited after them.
  const countsDone = counts.mutate({ type: 'add', trans, values: todo.map(({ key, d }) => rowOf(key, d)) });
  let res: DBCoreMutateResponse;
  let added: DBCoreMutateResponse;
  try {
    [res, added] = await Promise.all([rowsDone, countsDone]);
  } catch (err) {
    // Some rows or counts may be written already, and which is not known: nothing of this
    // transaction may commit.
    abort(trans);
    throw err;
  }
  try {
    const rest: Delta = new Map();
    todo.forEach((x, i) => {
      const failure = added.failures[i];
      if (failure == null) return;
      if ((failure as { name?: string }).name !== 'ConstraintError') throw failure;
      rest.set(JSON.stringify(x.key), { key: x.key, d: x.d });
    });
    values.forEach((v, i) => {
      if (res.failures[i] != null) bump(rest, v, -1);
    });
    await applyDelta(counts, trans, rest);
  } catch (err) {
    abort(trans);
    throw err;
  }
  return res;
}

function abort(trans: DBCoreTransaction) {
  try {
    // Dexie's DBCore transaction is the IndexedDB transaction itself, which its type does not show.
    const abortTx: unknown = Reflect.get(trans, 'abort');
    if (typeof abortTx === 'function') abortTx.call(trans);
  } catch {
    // already finished or aborted
  }
}

/**
 * The writes to `experiences` of one transaction, one after another: each reads the count rows (and
 * the rows it replaces) that the one before has written, so two writes issued together in one
 * transaction (Promise.all) cannot lose each other's differences.
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
    return {
      ...down,
      transaction(stores, mode, options) {
        const scope = mode === 'readwrite' && stores.includes('experiences') && !stores.includes(COUNTS_TABLE) ? [...stores, COUNTS_TABLE] : stores;
        return down.transaction(scope, mode, options);
      },
      table(name) {
        const table = down.table(name);
        if (name !== 'experiences') return table;
        const counts = down.table(COUNTS_TABLE);
        const pk = table.schema.primaryKey;
        const mutate = async (req: DBCoreMutateRequest): Promise<DBCoreMutateResponse> => {
          const { trans } = req;
          const known = knownBefore.get(trans);
          knownBefore.delete(trans);
          if (req.type === 'add') return addWithCounts(table, counts, req);
          if (req.type === 'deleteRange') {
            if (req.range.type === 3 /* Any: clear() */) {
              const res = await table.mutate(req);
              await counts.mutate({ type: 'deleteRange', trans, range: req.range });
              return res;
            }
            const before = (await table.query({ trans, values: true, query: { index: pk, range: req.range } })).result as Experience[];
            const res = await table.mutate(req);
            try {
              const delta: Delta = new Map();
              for (const e of before) bump(delta, e, -1);
              await applyDelta(counts, trans, delta);
            } catch (err) {
              abort(trans);
              throw err;
            }
            return res;
          }
          const values = req.type === 'delete' ? undefined : (req.values as Experience[]);
          const keys: unknown[] = req.type === 'delete' ? req.keys : (req.keys ?? values!.map((v) => pk.extractKey!(v)));
          const old =
            req.type === 'put' && known && keys.every((k) => typeof k === 'string' && known.has(k))
              ? keys.map((k) => known.get(k as string))
              : ((await table.getMany({ trans, keys })) as (Experience | undefined)[]);
          const res = await table.mutate(req);
          try {
            // Within one request a key may come twice: the second write replaces the first.
            const latest = new Map<unknown, Experience | undefined>();
            const delta: Delta = new Map();
            keys.forEach((key, i) => {
              if (res.failures[i] != null) return;
              const before = latest.has(key) ? latest.get(key) : old[i];
              const after = values?.[i];
              latest.set(key, after);
              if (before) bump(delta, before, -1);
              if (after) bump(delta, after, +1);
            });
            await applyDelta(counts, trans, delta);
          } catch (err) {
            abort(trans);
            throw err;
          }
          return res;
        };
        return { ...table, mutate: (req: DBCoreMutateRequest) => inTurn(req.trans, () => mutate(req)) };
      },
    };
  },
};

/** The stored counts of one dataset (one short read transaction; a handful of rows plus one count). */
export async function readDatasetCounts(db: Dexie, datasetId: string): Promise<DatasetCounts> {
  const table = db.table<DatasetCountRow, CountKey>(COUNTS_TABLE);
  const range = (kind: DatasetCountRow['kind']) =>
    // [datasetId, kind] sorts before every key it prefixes; [datasetId, kind, maxKey] after them.
    table.where('[datasetId+kind+key+score]').between([datasetId, kind], [datasetId, kind, Dexie.maxKey]);
  return db.transaction('r', table, async () => {
    const [scores, raters, tasks] = await Promise.all([range('score').toArray(), range('rater').toArray(), range('task').count()]);
    return {
      scores: scores.map((r) => ({ toolId: r.key, score: scoreOf(r.score), n: r.n })),
      raters: raters.map((r) => ({ rater: r.key, n: r.n })),
      tasks,
    };
  });
}
