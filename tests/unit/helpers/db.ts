/**
 * The one fake-IndexedDB set-up of the unit tests: a fresh app database (ToolMemDB over
 * fake-indexeddb) and its repositories, under a name no other test of the file uses, closed and
 * deleted afterwards so no test sees another's rows.
 *
 * Import this module BEFORE anything from src/db: Dexie reads `indexedDB` from the global scope
 * once, when its module is evaluated, so the fake must be installed by then (the first import
 * below does it; ES modules run in import order).
 */
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Repositories } from '../../../src/core/repositories';
import type { Experience } from '../../../src/core/types';
import { ToolMemDB, createRepositories } from '../../../src/db';

export interface TestDb {
  db: ToolMemDB;
  repos: Repositories;
}

/**
 * The released version-4 schema (src/db/schema.ts): experiences keyed dataset|task|tool|rater with
 * the [datasetId+toolId] index, and the embedding cache's one-row-per-vector table. Upgrade tests
 * write a database with it (`new Dexie(name).version(4).stores(SCHEMA_V4)`), then open it as today's.
 */
export const SCHEMA_V4 = {
  tools: 'id, name',
  datasets: 'id, name, createdAt',
  experiences: 'id, importId, [datasetId+toolId]',
  imports: 'id, datasetId, startedAt',
  importBackups: '[importId+experienceId], importId',
  images: 'id, datasetId',
  memories: 'id, updatedAt',
  entries: 'id, memoryId, [memoryId+toolId], [memoryId+toolId+level], [memoryId+validFrom], supersededBy',
  runs: 'id, kind, state, startedAt',
  settings: 'key',
  embeddings: '[model+hash]',
  items: 'id, datasetId',
  preferences: 'id, datasetId, [datasetId+taskId]',
  datasetCounts: '[datasetId+kind+key+score]',
};

/**
 * The count rows schemas v1–v6 kept in `datasetCounts` (one per (tool, score), rater and task), as
 * that version's middleware wrote them: upgrade tests seed an old database's counts with them.
 */
export function legacyCountRows(experiences: readonly Experience[]) {
  const rows = new Map<string, { datasetId: string; kind: 'score' | 'rater' | 'task'; key: string; score: number | string; n: number }>();
  const bump = (datasetId: string, kind: 'score' | 'rater' | 'task', key: string, score: number | string) => {
    const id = JSON.stringify([datasetId, kind, key, score]);
    const row = rows.get(id);
    if (row) row.n++;
    else rows.set(id, { datasetId, kind, key, score, n: 1 });
  };
  for (const e of experiences) {
    bump(e.datasetId, 'score', e.toolId, Number.isNaN(e.score) ? 'NaN' : e.score);
    bump(e.datasetId, 'rater', e.rater, 0);
    bump(e.datasetId, 'task', e.taskId, 0);
  }
  return [...rows.values()];
}

let serial = 0;
const opened = new Set<ToolMemDB>();

/**
 * A database named `<prefix>-<n>` (n counts up per test file), not opened yet — Dexie opens it on
 * first use — for code that takes a ToolMemDB synchronously (the UI's storage and state classes).
 */
export function newDb(prefix = 'test'): ToolMemDB {
  const db = new ToolMemDB(`${prefix}-${++serial}`);
  opened.add(db);
  return db;
}

/** An opened database named as {@link newDb} names it, and its repositories. */
export async function freshDb(prefix = 'test'): Promise<TestDb> {
  const db = newDb(prefix);
  await db.open();
  return { db, repos: createRepositories(db) };
}

/**
 * Closes and deletes every database {@link newDb} or {@link freshDb} made in this test file that is
 * still there (all of them: a file that keeps one database for all its tests drops it after all).
 */
export async function dropDbs(): Promise<void> {
  const all = [...opened];
  opened.clear();
  for (const db of all) {
    db.close();
    await db.delete();
  }
}

/**
 * Registers the hooks of a test file (or of the `describe` it is called in): a fresh database
 * before each test — or, with `scope: 'file'`, one for all of them — then `setup` (rows every test
 * starts from; what it returns, e.g. `{ client }`, is added to the holder), and every database the
 * tests opened dropped after. Returns the holder the tests read `db`, `repos` and those extras
 * from; it is filled once the hook has run, so read it inside tests and hooks, not at module level.
 */
export function withDb<X extends object = object>(
  prefix: string,
  setup?: (t: TestDb) => X | void | Promise<X | void>,
  opts: { scope?: 'test' | 'file' } = {},
): TestDb & X {
  const holder = {} as TestDb & X;
  const file = opts.scope === 'file';
  (file ? beforeAll : beforeEach)(async () => {
    Object.assign(holder, await freshDb(prefix));
    Object.assign(holder, await setup?.(holder));
  });
  (file ? afterAll : afterEach)(dropDbs);
  return holder;
}
