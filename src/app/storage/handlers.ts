/**
 * Handlers of `StorageApi` (storage-api.ts). The database-wide steps (restore, empty) come from the
 * host (workers/data.worker.ts gives the Dexie ones of src/db/backup.ts), so this table, like the
 * others, is written against interfaces and runs in Node tests over fake-indexeddb.
 */
import type { Repositories } from '../../core/repositories';
import type { Handlers } from '../../rpc';
import type { LockManagerLike } from '../../platform/locks';
import { recoverInterruptedRuns } from './run-recovery';
import type { StorageApi } from './api';

export interface StorageServiceDeps {
  repos: Pick<Repositories, 'runs'>;
  /** Replaces every table with the backup's rows (one transaction); throws, changing nothing, on a bad file. */
  restore(text: string): Promise<Record<string, number>>;
  /** Empties every table in one transaction. */
  clear(): Promise<void>;
  /** Web Locks: a run another tab is doing holds its lock and is left alone. */
  locks: LockManagerLike | null;
}

export function createStorageHandlers(deps: StorageServiceDeps): Handlers<StorageApi> {
  return {
    restoreBackup: ({ text }) => deps.restore(text),
    async resetData() {
      await deps.clear();
      return null;
    },
    async recoverRuns({ graceMs = 0 }) {
      return { runs: (await recoverInterruptedRuns(deps.repos, deps.locks, ['eval'], Date.now(), graceMs)).length };
    },
  };
}
