/**
 * Which experiences each import wrote, without an index on `experiences.importId` (schema v7).
 *
 * An IndexedDB index costs every stored row one more record for the backend to write: on a fresh
 * 100k-row import the `importId` index was the largest single cost left above the raw Papa Parse +
 * `bulkPut` floor (docs/reliability.md, "Fifth pass"). Its only readers are an import's undo or
 * rollback and the drift check's per-import reads, which are rare. So instead every write request
 * to `experiences` adds **one** `importKeys` row per import id it carries, listing the keys it
 * wrote: one small record per 10,000-row batch instead of 10,000 index entries.
 *
 * The lists only ever grow (a row deleted or re-imported by another import stays listed), so they
 * are a superset: a reader takes the listed rows and keeps those whose `importId` still is the one
 * asked for ({@link ImportKeyLists.rowsOf}). Exact because every row reaches `experiences` through
 * an `add` or `put` request (imports, undo, labels, restore; the v7 upgrade lists the rows stored
 * before), and this middleware lists each one in the same transaction. The lists are derived data:
 * backups leave them out and a restore rebuilds them (its rows pass through here).
 */
import type Dexie from 'dexie';
import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, Middleware } from 'dexie';
import type { Experience } from '../core/types';
import { abort, keepInStep, throwIfFailed } from './derived-tables';
import { done } from './idb-request';

export const IMPORT_KEYS_TABLE = 'importKeys';

/** One write request's keys of one import (`seq`: auto-increment, so a list never needs a read first). */
export interface ImportKeysRow {
  seq?: number;
  importId: string;
  keys: string[];
}

/** The rows of each import id in one request. A Map: import ids come from data. */
function listsOf(values: readonly Experience[], keys: readonly unknown[]): ImportKeysRow[] {
  const byImport = new Map<string, string[]>();
  values.forEach((v, i) => {
    const key = keys[i];
    if (typeof v.importId !== 'string' || typeof key !== 'string') return;
    let list = byImport.get(v.importId);
    if (!list) byImport.set(v.importId, (list = []));
    list.push(key);
  });
  return [...byImport].map(([importId, list]) => ({ importId, keys: list }));
}

export const importKeysMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'importKeys',
  create(down) {
    return keepInStep(down, IMPORT_KEYS_TABLE, (table, lists) => {
      const pk = table.schema.primaryKey;
      return {
        ...table,
        mutate: async (req: DBCoreMutateRequest): Promise<DBCoreMutateResponse> => {
          const { trans } = req;
          if (req.type === 'deleteRange' && req.range.type === 3 /* Any: clear() */) {
            const res = await table.mutate(req);
            await lists.mutate({ type: 'deleteRange', trans, range: req.range });
            return res;
          }
          if (req.type !== 'add' && req.type !== 'put') return table.mutate(req);
          const values = req.values as Experience[];
          const rows = listsOf(values, req.keys ?? values.map((v) => pk.extractKey!(v)));
          // Both issued in this turn: the backend writes them in order, without a round trip between.
          const listed = rows.length ? lists.mutate({ type: 'add', trans, values: rows }) : undefined;
          const res = await table.mutate(req);
          const added = await listed;
          if (added?.numFailures) {
            // A row without its list would be missed by its import's undo: nothing of this may commit.
            abort(trans);
            throwIfFailed(added, IMPORT_KEYS_TABLE);
          }
          return res;
        },
      };
    });
  },
};

/** Keys read per `bulkGet` when a list's rows are checked (one short request each, bounded memory). */
const CHECK_CHUNK = 10_000;

/** Reads of the lists; inside a caller's transaction when there is one (Dexie's zone). */
export class ImportKeyLists {
  constructor(private readonly db: Dexie) {}

  private get lists() {
    return this.db.table<ImportKeysRow, number>(IMPORT_KEYS_TABLE);
  }

  /** Every import id that has written rows (some may all be gone since: {@link rowsOf} answers none). */
  async importIds(): Promise<string[]> {
    return (await this.lists.orderBy('importId').uniqueKeys()) as string[];
  }

  /** The listed keys of `importId`, each once, in the order written. */
  async keysOf(importId: string): Promise<string[]> {
    const seen = new Set<string>();
    for (const row of await this.lists.where('importId').equals(importId).toArray()) for (const k of row.keys) seen.add(k);
    return [...seen];
  }

  /**
   * Calls `each` with the stored rows whose `importId` is `importId`, a chunk at a time (the lists
   * are a superset: see the header). `between` runs before each chunk (a cancellation check).
   */
  async rowsOf(importId: string, each: (rows: Experience[], keys: string[]) => void, between?: () => void, chunkSize = CHECK_CHUNK): Promise<void> {
    const keys = await this.keysOf(importId);
    const experiences = this.db.table<Experience, string>('experiences');
    for (let start = 0; start < keys.length; start += chunkSize) {
      between?.();
      const chunk = keys.slice(start, start + chunkSize);
      const rows = await experiences.bulkGet(chunk);
      const own: Experience[] = [];
      const ownKeys: string[] = [];
      rows.forEach((row, i) => {
        if (row?.importId !== importId) return;
        own.push(row);
        ownKeys.push(chunk[i]!);
      });
      if (own.length) each(own, ownKeys);
    }
  }

  /**
   * Rewrites the lists of `importId` as the keys of its rows that are still its own (in lists of at
   * most {@link CHECK_CHUNK} keys): for ids without an import record (labels, `manual`), whose lists
   * no undo or dataset deletion drops, once a dataset's rows are gone.
   */
  async prune(importId: string): Promise<void> {
    const own: string[] = [];
    await this.rowsOf(importId, (_, keys) => own.push(...keys));
    await this.forget([importId]);
    const rows: ImportKeysRow[] = [];
    for (let start = 0; start < own.length; start += CHECK_CHUNK) rows.push({ importId, keys: own.slice(start, start + CHECK_CHUNK) });
    await this.lists.bulkAdd(rows);
  }

  /** Drops the lists of these imports (their rows are gone: the import was undone, its dataset deleted). */
  async forget(importIds: readonly string[]): Promise<void> {
    if (importIds.length)
      await this.lists
        .where('importId')
        .anyOf([...importIds])
        .delete();
  }
}

/** Rows read per page by the v7 upgrade, and the most keys in one list it writes. */
const UPGRADE_PAGE = 10_000;

/**
 * Schema v7's upgrade (in the version-change transaction, on the raw stores): lists every stored
 * experience under its import id, as the middleware would have. Returns how many rows it listed.
 */
export async function listStoredImportKeys(trans: IDBTransaction): Promise<number> {
  const experiences = trans.objectStore('experiences');
  const lists = trans.objectStore(IMPORT_KEYS_TABLE);
  const pending = new Map<string, string[]>();
  const writes: Promise<unknown>[] = [];
  const flush = (importId: string, keys: string[]) => writes.push(done(lists.add({ importId, keys } satisfies ImportKeysRow)));
  let listed = 0;
  let lower: IDBKeyRange | undefined;
  for (;;) {
    const page = (await done(experiences.getAll(lower, UPGRADE_PAGE))) as Experience[];
    if (!page.length) break;
    for (const e of page) {
      if (typeof e.importId !== 'string') continue;
      let keys = pending.get(e.importId);
      if (!keys) pending.set(e.importId, (keys = []));
      keys.push(e.id);
      listed++;
      if (keys.length >= UPGRADE_PAGE) {
        flush(e.importId, keys);
        pending.delete(e.importId);
      }
    }
    lower = IDBKeyRange.lowerBound(page[page.length - 1]!.id, true);
  }
  for (const [importId, keys] of pending) flush(importId, keys);
  await Promise.all(writes);
  return listed;
}
