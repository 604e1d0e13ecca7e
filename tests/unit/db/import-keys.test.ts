import { SCHEMA_V4, freshDb, dropDbs } from '../helpers/db';
import { afterEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { ToolMemDB, createRepositories } from '../../../src/db';
import { exportBackup, restoreBackup } from '../../../src/db/backup';
import { experienceKey } from '../../../src/core/ids';
import type { Experience } from '../../../src/core/types';

const row = (datasetId: string, taskId: string, toolId: string, score: number, importId: string, over: Partial<Experience> = {}): Experience => ({
  id: experienceKey(datasetId, taskId, toolId, over.rater ?? 'r'),
  datasetId,
  taskId,
  prompt: `p ${taskId}`,
  toolId,
  score,
  rater: 'r',
  scoreSource: 'human',
  categories: [],
  importId,
  createdAt: 1,
  ...over,
});
const ids = (rows: Experience[]) => rows.map((r) => r.id).sort();

afterEach(dropDbs);

describe('import key lists (schema v7: no importId index)', () => {
  it('lists each write request once per import id, in the same transaction as the rows', async () => {
    const { db, repos } = await freshDb('keys');
    const batch = [row('ds', 't1', 'A', 3, 'imp1'), row('ds', 't2', 'A', 4, 'imp1'), row('ds', 't1', 'B', 2, 'imp1')];
    await repos.experiences.writeImportBatch('imp1', batch, { fresh: true });
    await db.experiences.bulkPut([row('ds', 't3', 'A', 1, 'imp2'), row('ds', 't9', 'C', 5, 'manual', { rater: 'ann' })]);
    const lists = await db.importKeys.toArray();
    expect(lists.map((l) => [l.importId, [...l.keys].sort()])).toEqual([
      ['imp1', ids(batch)],
      ['imp2', [experienceKey('ds', 't3', 'A', 'r')]],
      ['manual', [experienceKey('ds', 't9', 'C', 'ann')]],
    ]);
    // A write that fails leaves no list behind: the fresh batch's key is taken, the whole batch aborts.
    await expect(
      repos.experiences.writeImportBatch('imp3', [row('ds', 't4', 'A', 1, 'imp3'), row('ds', 't1', 'A', 1, 'imp3')], { fresh: true }),
    ).rejects.toThrow();
    expect((await db.importKeys.toArray()).map((l) => l.importId)).toEqual(['imp1', 'imp2', 'manual']);
    expect((await repos.experiences.importIds()).sort()).toEqual(['imp1', 'imp2', 'manual']);
  });

  it('answers byImport and undo exactly when a later import replaced some rows', async () => {
    const { db, repos } = await freshDb('keys');
    const first = [row('ds', 't1', 'A', 3, 'imp1'), row('ds', 't2', 'A', 4, 'imp1'), row('ds', 't3', 'A', 2, 'imp1')];
    await repos.experiences.writeImportBatch('imp1', first, { fresh: true });
    // imp2 re-imports t2 (changed) and t3 (unchanged) and adds t4.
    const second = [row('ds', 't2', 'A', 5, 'imp2'), row('ds', 't3', 'A', 2, 'imp2'), row('ds', 't4', 'A', 1, 'imp2')];
    expect(await repos.experiences.writeImportBatch('imp2', second)).toEqual({ added: 1, updated: 1, unchanged: 1 });
    // t2 now belongs to imp2: imp1's list still names it, the read leaves it out.
    expect(ids(await repos.experiences.byImport('imp1'))).toEqual(ids([first[0]!, first[2]!]));
    expect(ids(await repos.experiences.byImport('imp2'))).toEqual(ids([second[0]!, second[2]!]));

    // Undoing imp2 puts t2 back as imp1 wrote it and removes t4.
    await repos.experiences.undoImport('imp2');
    expect(ids(await db.experiences.toArray())).toEqual(ids(first));
    expect(await repos.experiences.get(first[1]!.id)).toEqual(first[1]);
    expect(ids(await repos.experiences.byImport('imp1'))).toEqual(ids(first));
    expect(await repos.experiences.byImport('imp2')).toEqual([]);
    expect(await repos.experiences.importIds()).toEqual(['imp1']);
    expect(await repos.experiences.count('ds')).toBe(3);

    // Undoing imp1 once imp2 holds t2 again keeps imp2's rows (t3 came back unchanged, so it is still imp1's).
    await repos.experiences.writeImportBatch('imp2', second);
    await repos.experiences.undoImport('imp1');
    expect(ids(await db.experiences.toArray())).toEqual(ids([second[0]!, second[2]!]));
  });

  it("drops a deleted dataset's lists, empties with clear() and is rebuilt by a backup restore", async () => {
    const { db, repos } = await freshDb('keys');
    await db.imports.bulkPut([
      {
        id: 'imp1',
        datasetId: 'ds',
        fileName: 'a.csv',
        state: 'completed',
        rowsRead: 2,
        accepted: 2,
        unchanged: 0,
        updated: 0,
        rejected: 0,
        errors: [],
        startedAt: 1,
      },
      {
        id: 'imp2',
        datasetId: 'ds2',
        fileName: 'b.csv',
        state: 'completed',
        rowsRead: 1,
        accepted: 1,
        unchanged: 0,
        updated: 0,
        rejected: 0,
        errors: [],
        startedAt: 1,
      },
    ] as never[]);
    await repos.experiences.writeImportBatch('imp1', [row('ds', 't1', 'A', 3, 'imp1'), row('ds', 't2', 'A', 4, 'imp1')], { fresh: true });
    await repos.experiences.writeImportBatch('imp2', [row('ds2', 't1', 'A', 3, 'imp2')], { fresh: true });
    // Labels in both datasets: 'manual' has no import record, so no undo ever drops its lists.
    await repos.experiences.put(row('ds', 't1', 'A', 5, 'manual', { rater: 'ann' }));
    await repos.experiences.put(row('ds2', 't1', 'A', 1, 'manual', { rater: 'ann' }));
    const text = await (await exportBackup(db)).text();
    expect(JSON.parse(text).tables).not.toHaveProperty('importKeys');

    // Deleting ds drops its import's lists and takes its labels' keys out of 'manual''s.
    await repos.datasets.remove('ds');
    expect((await db.importKeys.toArray()).map((l) => [l.importId, l.keys])).toEqual([
      ['imp2', [experienceKey('ds2', 't1', 'A', 'r')]],
      ['manual', [experienceKey('ds2', 't1', 'A', 'ann')]],
    ]);
    await db.experiences.clear();
    expect(await db.importKeys.count()).toBe(0);

    await restoreBackup(db, text);
    expect((await repos.experiences.importIds()).sort()).toEqual(['imp1', 'imp2', 'manual']);
    expect(ids(await repos.experiences.byImport('imp1'))).toEqual([experienceKey('ds', 't1', 'A', 'r'), experienceKey('ds', 't2', 'A', 'r')]);
    expect(ids(await repos.experiences.byImport('imp2'))).toEqual([experienceKey('ds2', 't1', 'A', 'r')]);
  });

  it('the v7 upgrade lists the rows of a v6 database, so its imports still read and undo', async () => {
    const name = 'keys-v7-upgrade';
    const old = new Dexie(name);
    old.version(4).stores(SCHEMA_V4);
    // v6's shape: experiences with the importId index only (the upgrade steps in between are exercised elsewhere).
    old.version(6).stores({ experiences: 'id, importId', embeddings: null, embeddingBlocks: 'id', embeddingKeys: '++id', predictions: null });
    await old.open();
    // 25,003 rows (more than two pages of the upgrade, 10,000) of three imports, interleaved in key order.
    const rows = Array.from({ length: 25_003 }, (_, i) => row('ds', `t${String(i).padStart(5, '0')}`, 'A', 1 + (i % 5), ['imp1', 'imp2', 'manual'][i % 3]!));
    await old.table('experiences').bulkAdd(rows);
    old.close();

    const db = new ToolMemDB(name);
    try {
      await db.open();
      expect(db.verno).toBe(7);
      expect(db.experiences.schema.indexes).toEqual([]);
      const repos = createRepositories(db);
      expect((await repos.experiences.importIds()).sort()).toEqual(['imp1', 'imp2', 'manual']);
      for (const imp of ['imp1', 'imp2', 'manual']) expect(ids(await repos.experiences.byImport(imp))).toEqual(ids(rows.filter((r) => r.importId === imp)));
      // No list holds more than a page of keys.
      expect(Math.max(...(await db.importKeys.toArray()).map((l) => l.keys.length))).toBeLessThanOrEqual(10_000);
      await repos.experiences.undoImport('imp2');
      expect(await db.experiences.count()).toBe(rows.length - rows.filter((r) => r.importId === 'imp2').length);
    } finally {
      db.close();
      await Dexie.delete(name);
    }
  });
});
