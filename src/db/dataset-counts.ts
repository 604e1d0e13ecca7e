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

/** Applies the row changes (before → after; undefined = absent) to the counts, inside `trans`. */
async function applyChanges(counts: DBCoreTable, trans: DBCoreTransaction, changes: [Experience | undefined, Experience | undefined][]) {
  const delta = new Map<string, { key: CountKey; d: number }>();
  const bump = (e: Experience, d: number) => {
    for (const key of keysOf(e)) {
      const id = JSON.stringify(key);
      const cur = delta.get(id);
      if (cur) cur.d += d;
      else delta.set(id, { key, d });
    }
  };
  for (const [before, after] of changes) {
    if (before) bump(before, -1);
    if (after) bump(after, +1);
  }
  const todo = [...delta.values()].filter((x) => x.d !== 0);
  if (!todo.length) return;
  const stored = (await counts.getMany({ trans, keys: todo.map((x) => x.key) })) as (DatasetCountRow | undefined)[];
  const puts: DatasetCountRow[] = [];
  const deletes: CountKey[] = [];
  todo.forEach(({ key, d }, i) => {
    const n = (stored[i]?.n ?? 0) + d;
    if (n > 0) puts.push({ datasetId: key[0], kind: key[1], key: key[2], score: key[3], n });
    else if (stored[i]) deletes.push(key);
  });
  if (puts.length) await counts.mutate({ type: 'put', trans, values: puts });
  if (deletes.length) await counts.mutate({ type: 'delete', trans, keys: deletes });
}

function abort(trans: DBCoreTransaction) {
  try {
    (trans as unknown as IDBTransaction).abort();
  } catch {
    // already finished or aborted
  }
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
        return {
          ...table,
          async mutate(req: DBCoreMutateRequest): Promise<DBCoreMutateResponse> {
            const { trans } = req;
            if (req.type === 'deleteRange') {
              if (req.range.type === 3 /* Any: clear() */) {
                const res = await table.mutate(req);
                await counts.mutate({ type: 'deleteRange', trans, range: req.range });
                return res;
              }
              const before = (await table.query({ trans, values: true, query: { index: pk, range: req.range } })).result as Experience[];
              const res = await table.mutate(req);
              try {
                await applyChanges(counts, trans, before.map((e) => [e, undefined]));
              } catch (err) {
                abort(trans);
                throw err;
              }
              return res;
            }
            const values = req.type === 'delete' ? undefined : (req.values as Experience[]);
            const keys: unknown[] = req.type === 'delete' ? req.keys : (req.keys ?? values!.map((v) => pk.extractKey!(v)));
            const old = req.type === 'add' ? [] : ((await table.getMany({ trans, keys })) as (Experience | undefined)[]);
            const res = await table.mutate(req);
            try {
              // Within one request a key may come twice: the second write replaces the first.
              const latest = new Map<unknown, Experience | undefined>();
              const changes: [Experience | undefined, Experience | undefined][] = [];
              keys.forEach((key, i) => {
                if (res.failures[i] != null) return;
                const before = latest.has(key) ? latest.get(key) : old[i];
                const after = values?.[i];
                latest.set(key, after);
                changes.push([before, after]);
              });
              await applyChanges(counts, trans, changes);
            } catch (err) {
              abort(trans);
              throw err;
            }
            return res;
          },
        };
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
