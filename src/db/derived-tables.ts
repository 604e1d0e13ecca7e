/**
 * A DBCore whose read-write transactions on `experiences` also take the table `derived`, and whose
 * `experiences` table is wrapped by `wrap`: how a middleware keeps a derived table (the count log,
 * the import key lists) in step with every write, in the writer's own transaction.
 */
import type { DBCore, DBCoreMutateResponse, DBCoreTable, DBCoreTransaction } from 'dexie';

export function keepInStep(down: DBCore, derived: string, wrap: (experiences: DBCoreTable, derivedTable: DBCoreTable) => DBCoreTable): DBCore {
  return {
    ...down,
    transaction(stores, mode, options) {
      const scope = mode === 'readwrite' && stores.includes('experiences') && !stores.includes(derived) ? [...stores, derived] : stores;
      return down.transaction(scope, mode, options);
    },
    table(name) {
      const table = down.table(name);
      // Before the version that made `derived` (a step of an older version's upgrade) there is
      // nothing to keep: that version's own upgrade builds it from the rows (migrate-v7.ts).
      if (name !== 'experiences' || !down.schema.tables.some((t) => t.name === derived)) return table;
      return wrap(table, down.table(derived));
    },
  };
}

/** Throws the first failure of a write to a derived table (the caller aborts): it never goes wrong silently. */
export function throwIfFailed(res: DBCoreMutateResponse, table: string): void {
  if (!res.numFailures) return;
  const first = Object.values(res.failures).find((f) => f != null);
  throw first instanceof Error ? first : new Error(`${table}: ${res.numFailures} writes failed`);
}

/**
 * Aborts the writer's transaction: rows of `experiences` may be written already when their derived
 * rows fail, and nothing of that transaction may commit (even if its caller catches the error).
 */
export function abort(trans: DBCoreTransaction): void {
  try {
    // Dexie's DBCore transaction is the IndexedDB transaction itself, which its type does not show.
    const abortTx: unknown = Reflect.get(trans, 'abort');
    if (typeof abortTx === 'function') abortTx.call(trans);
  } catch {
    // already finished or aborted
  }
}
