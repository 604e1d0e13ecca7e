import { liveQuery } from 'dexie';
import {
  ToolMemDB,
  createRepositories,
  exportBackup,
  getSetting,
  requestPersistence,
  setSetting,
  storageEstimate,
  type Settings,
  type StorageInfo,
} from '../db';
import type { Repositories } from '../core/repositories';

/**
 * The UI's one door to storage (issue #16): no other file under src/ui imports src/db or Dexie
 * (tests/unit/arch/ui-storage.test.ts counts them). Pages and state classes read through
 * `watch` (a Dexie liveQuery: the callback runs again whenever a table the query read changes,
 * in this tab, another tab or a worker), so no write is followed by a manual reload and nothing
 * polls. Data writes go through the workers' handlers (`send`, src/ui/send.ts: the hand edits of
 * app/edit/api.ts, the memory worker's reviseEntry/retireEntry, and the store-wide writes of
 * app/storage/api.ts — backup restore, reset, run recovery), one round trip each; settings
 * through `get`/`set` here. `repos` is for reading, and so is the backup export.
 */
export type { Settings, StorageInfo, ToolMemDB };

/** Settings as the UI state classes need them (a plain object can stand in for it in tests). */
export interface SettingsStore {
  get<K extends keyof Settings>(key: K): Promise<Settings[K]>;
  set<K extends keyof Settings>(key: K, value: Settings[K]): Promise<void>;
}

export class UiStorage implements SettingsStore {
  private readonly db: ToolMemDB;
  readonly repos: Repositories;

  /** An open connection to reuse, or the name of the database to open. */
  constructor(db: ToolMemDB | string = 'toolmem') {
    this.db = typeof db === 'string' ? new ToolMemDB(db) : db;
    this.repos = createRepositories(this.db);
  }

  get<K extends keyof Settings>(key: K): Promise<Settings[K]> {
    return getSetting(this.db, key);
  }

  set<K extends keyof Settings>(key: K, value: Settings[K]): Promise<void> {
    return setSetting(this.db, key, value);
  }

  /**
   * Runs `query` now and again after every change to what it read; returns the unsubscribe
   * function, so `$effect(() => storage.watch(...))` stops watching when the component goes.
   * The query must only await Dexie calls (repository methods are): any other await ends the
   * read tracking early.
   */
  watch<T>(query: () => Promise<T>, next: (value: T) => void, fail: (err: unknown) => void = () => {}): () => void {
    const sub = liveQuery(query).subscribe({ next, error: fail });
    return () => sub.unsubscribe();
  }

  /** How many runs are marked running (startup recovery looks only when some are). */
  runningRuns(): Promise<number> {
    return this.db.runs.where('state').equals('running').count();
  }

  exportBackup(): Promise<Blob> {
    return exportBackup(this.db);
  }

  requestPersistence(): Promise<boolean> {
    return requestPersistence();
  }

  storageEstimate(): Promise<StorageInfo | null> {
    return storageEstimate();
  }
}
