/**
 * A DBCore whose read-write transactions on `experiences` also take the table `derived`, and whose
 * `experiences` table is wrapped by `wrap`: how a middleware keeps a derived table (the count log,
 * the import key lists) in step with every write, in the writer's own transaction.
 */
import type { DBCore, DBCoreTable } from 'dexie';

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
