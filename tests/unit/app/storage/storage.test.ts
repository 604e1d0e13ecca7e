/**
 * The store-wide writes behind the data worker's handlers (app/storage/api.ts): a backup
 * restored, every table emptied, interrupted evaluations settled — the page only calls them.
 */
import { withDb } from '../../helpers/db';
import { describe, expect, it } from 'vitest';
import { clearAllTables, exportBackup, restoreBackup, type ToolMemDB } from '../../../../src/db';
import type { Repositories } from '../../../../src/core/repositories';
import type { Dataset } from '../../../../src/core/types';
import type { EvalRun } from '../../../../src/core/records';
import { createInThreadClient, type Client } from '../../../../src/rpc';
import { INTERRUPTED_REASON } from '../../../../src/app/storage/run-recovery';
import { createStorageHandlers } from '../../../../src/app/storage/handlers';
import type { StorageApi } from '../../../../src/app/storage/api';

let db: ToolMemDB;
let repos: Repositories;
let client: Client<StorageApi>;
withDb('storage-svc', (t) => {
  db = t.db;
  repos = t.repos;
  // No Web Locks: every `running` run counts as left behind.
  client = createInThreadClient(createStorageHandlers({ repos, restore: (text) => restoreBackup(db, text), clear: () => clearAllTables(db), locks: null }));
});

const DATASET: Dataset = {
  id: 'd',
  name: 'D',
  source: 's',
  preset: 'generic',
  scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
  raterPolicy: { kind: 'mean' },
  createdAt: 1,
};
const run = (id: string, state: EvalRun['state']): EvalRun => ({
  id,
  kind: 'eval',
  state,
  config: { datasetId: 'd', seeds: 1, methods: ['tool-mean'] },
  startedAt: 5,
});

describe('storage handlers', () => {
  it('restores a backup, and refuses a file that is not one, changing nothing', async () => {
    await repos.datasets.put(DATASET);
    const text = await (await exportBackup(db)).text();
    await repos.datasets.put({ ...DATASET, id: 'later', name: 'Later' });
    await expect(client.call('restoreBackup', { text: '{"format":"other"}' })).rejects.toThrow(
      'This file is not a ToolMem backup (its "format" is not "toolmem-backup").',
    );
    expect((await repos.datasets.list()).map((d) => d.id).sort()).toEqual(['d', 'later']);
    expect(await client.call('restoreBackup', { text })).toMatchObject({ datasets: 1, experiences: 0 });
    expect((await repos.datasets.list()).map((d) => d.id)).toEqual(['d']);
  });

  it('empties every table, settings included', async () => {
    await repos.datasets.put(DATASET);
    await repos.runs.put(run('r1', 'completed'));
    await db.settings.put({ key: 'raterName', value: 'ann' });
    expect(await client.call('resetData', null)).toBeNull();
    const counts = await Promise.all(db.tables.map((t) => t.count()));
    expect(counts.every((n) => n === 0)).toBe(true);
  });

  it('marks the evaluations a closed tab left running as interrupted, and only those', async () => {
    await repos.runs.put(run('left', 'running'));
    await repos.runs.put(run('done', 'completed'));
    expect(await client.call('recoverRuns', {})).toEqual({ runs: 1 });
    expect(await repos.runs.get('left')).toMatchObject({ state: 'failed', error: INTERRUPTED_REASON });
    expect((await repos.runs.get('done'))?.state).toBe('completed');
    expect(await client.call('recoverRuns', { graceMs: 0 })).toEqual({ runs: 0 });
  });
});
