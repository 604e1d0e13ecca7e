/** Storage full: how a QuotaExceededError, however wrapped, becomes a StorageFullError that leaves nothing behind. */
import { withDb } from '../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StorageFullError } from '../../../src/core/errors';
import { ToolMemDB, createRepositories, isQuotaError, storageFullMessage, withQuotaCheck } from '../../../src/db';
import { createInThreadClient } from '../../../src/rpc';
import { createImportHandlers } from '../../../src/app/import/handlers';
import type { ImportApi } from '../../../src/app/import/api';
import { importErrorMessage } from '../../../src/ui/import-flow.svelte';
import type { Experience } from '../../../src/core/types';

const quota = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');
const exp = (task: string): Experience => ({
  id: `d|${task}|T|r`,
  datasetId: 'd',
  taskId: task,
  prompt: `p ${task}`,
  toolId: 'T',
  score: 3,
  rater: 'r',
  scoreSource: 'human',
  categories: [],
  importId: 'i',
  createdAt: 1,
});

describe('isQuotaError', () => {
  it('recognises the DOMException, Dexie wrappers (inner) and cause chains, and nothing else', () => {
    expect(isQuotaError(quota())).toBe(true);
    expect(isQuotaError({ name: 'BulkError', inner: quota() })).toBe(true);
    expect(isQuotaError(new Error('wrapped', { cause: { name: 'AbortError', inner: quota() } }))).toBe(true);
    expect(isQuotaError({ name: 'QuotaExceeded' })).toBe(true); // Dexie's own name for it
    expect(isQuotaError(new DOMException('x', 'AbortError'))).toBe(false);
    expect(isQuotaError(new Error('disk'))).toBe(false);
    expect(isQuotaError(null)).toBe(false);
  });
});

describe('withQuotaCheck', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('turns a quota failure into StorageFullError that says storage is full, shows usage and what to delete', async () => {
    vi.stubGlobal('navigator', { storage: { estimate: async () => ({ usage: 850 * 1024 * 1024, quota: 900 * 1024 * 1024 }) } });
    const err = await withQuotaCheck(() => Promise.reject(quota())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageFullError);
    const message = (err as Error).message;
    expect(message).toMatch(
      /^Storage is full: the browser refused to store more data\. This site uses 850\.0 MB of the 900\.0 MB the browser allows it\. Nothing from this step was saved\./,
    );
    expect(message).toContain('delete datasets you no longer need, with their images (Data page → Delete dataset…)');
    expect((err as Error).cause).toBeInstanceOf(DOMException);
  });

  it('still explains without a usage estimate, and passes other errors through unchanged', async () => {
    vi.stubGlobal('navigator', { storage: { estimate: () => Promise.reject(new Error('no estimate')) } });
    const err = await withQuotaCheck(() => Promise.reject(quota())).catch((e: unknown) => e);
    expect((err as Error).message).toBe(storageFullMessage(null));
    const other = new Error('constraint');
    await expect(withQuotaCheck(() => Promise.reject(other))).rejects.toBe(other);
    await expect(withQuotaCheck(async () => 7)).resolves.toBe(7);
  });

  it('the import dialog shows the storage message as is, adding that the written rows were removed', () => {
    const text = importErrorMessage(new StorageFullError(storageFullMessage(null)));
    expect(text).toBe(`${storageFullMessage(null)} The rows already written by this import were removed again.`);
    expect(importErrorMessage(new Error('Bad file.'))).toBe('Bad file. Nothing from this file was kept.');
  });
});

describe('a quota failure in IndexedDB (fake-indexeddb with a full disk)', () => {
  let db: ToolMemDB;
  let restore: (() => void) | null = null;
  withDb('quota', (t) => void (db = t.db));
  // Vitest runs after-hooks last-registered first: the disk is restored before the database is dropped.
  afterEach(() => {
    restore?.();
    restore = null;
  });

  /** From now on, the `after`-th and later writes of experience rows throw QuotaExceededError (like a full disk). */
  function fillDiskAfter(after: number) {
    const proto = IDBObjectStore.prototype;
    const { add, put } = proto;
    let writes = 0;
    const trap = (original: typeof add) =>
      function (this: IDBObjectStore, ...args: Parameters<typeof add>) {
        if (this.name === 'experiences' && ++writes > after) throw quota();
        return original.apply(this, args);
      };
    proto.add = trap(add);
    proto.put = trap(put);
    restore = () => {
      proto.add = add;
      proto.put = put;
    };
  }

  it('a batch write that hits the quota becomes StorageFullError and stores none of its rows', async () => {
    const repos = createRepositories(db);
    await repos.experiences.writeImportBatch('i', [exp('0')]);
    fillDiskAfter(2);
    await expect(repos.experiences.writeImportBatch('i2', [exp('1'), exp('2'), exp('3'), exp('4')], { fresh: true })).rejects.toBeInstanceOf(StorageFullError);
    await expect(repos.experiences.writeImportBatch('i2', [exp('5'), exp('6'), exp('7')])).rejects.toBeInstanceOf(StorageFullError);
    expect((await db.experiences.toArray()).map((e) => e.taskId)).toEqual(['0']);
  });

  it('an import that fills the disk in its second batch fails with StorageFullError and keeps nothing', async () => {
    const repos = createRepositories(db);
    const client = createInThreadClient<ImportApi>(createImportHandlers(repos));
    const log = new File([readFileSync(resolve(import.meta.dirname, '../../fixtures/e2e/team-eval-log.csv'))], 'team-eval-log.csv');
    await client.call('import', { file: log, datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' });
    const before = await db.experiences.toArray();
    const rows = ['id,prompt,tool,score', ...Array.from({ length: 5000 }, (_, i) => `q${i},quota row ${i},tool-${i % 3},${1 + (i % 5)}`)];
    fillDiskAfter(2500); // the first batch (2,000 rows) commits, the second fails half-way
    const err = await client
      .call('import', { file: new File([rows.join('\n')], 'big.csv'), datasetName: 'Team log', preset: 'generic' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageFullError);
    expect((err as Error).message).toMatch(/^Storage is full/);
    expect(await db.experiences.toArray()).toEqual(before);
    const record = (await repos.imports.list()).find((r) => r.fileName === 'big.csv');
    expect(record?.state).toBe('failed');
  });
});
