import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { ToolMemDB } from '../../../src/db';
import { experienceKey, legacyExperienceKey } from '../../../src/core/ids';

/**
 * Schema versions 1–3 are no longer declared one by one (src/db/schema.ts declares v4's schema in
 * full): a database a browser kept at v1 must still open into today's shape with its rows.
 */
const V1 = {
  tools: 'id, name',
  datasets: 'id, name, createdAt',
  experiences: 'id, importId, [datasetId+toolId], [datasetId+taskId]',
  imports: 'id, datasetId, startedAt',
  importBackups: '[importId+experienceId], importId',
  images: 'id, datasetId',
  memories: 'id, updatedAt',
  entries: 'id, memoryId, [memoryId+toolId], [memoryId+toolId+level], supersededBy',
  runs: 'id, kind, state, startedAt',
  predictions: 'id, runId, [runId+toolId]',
  settings: 'key',
  embeddings: '[model+hash]',
  items: 'id, datasetId',
  preferences: 'id, datasetId, [datasetId+taskId]',
  datasetCounts: '[datasetId+kind+key+score]',
};

const NAME = 'mig-v1';
afterEach(async () => {
  await Dexie.delete(NAME);
});

describe('a version-1 database opens as today’s', () => {
  it('keeps its rows (re-keyed by the v6 upgrade), drops `predictions`, and has the v2 entries index', async () => {
    const old = new Dexie(NAME);
    old.version(1).stores(V1);
    await old.open();
    const rows = ['A', 'B'].map((toolId, i) => ({
      id: legacyExperienceKey('ds', 't1', toolId, 'r'),
      datasetId: 'ds',
      taskId: 't1',
      prompt: 'p',
      toolId,
      score: 2 + i,
      rater: 'r',
      scoreSource: 'human',
      categories: [],
      importId: 'imp1',
      createdAt: 1,
    }));
    await old.table('datasets').put({ id: 'ds', name: 'DS' });
    await old.table('experiences').bulkAdd(rows);
    await old.table('predictions').put({ id: 'p1', runId: 'r1', toolId: 'A' });
    await old.table('settings').put({ key: 'rater', value: 'ann' });
    old.close();

    const db = new ToolMemDB(NAME);
    await db.open();
    try {
      expect(db.verno).toBe(7);
      const idb = db.backendDB();
      expect([...idb.objectStoreNames]).not.toContain('predictions');
      expect([...idb.objectStoreNames]).toContain('countLog');
      expect((await db.experiences.toArray()).map((e) => [e.id, e.score])).toEqual([
        [experienceKey('ds', 't1', 'A', 'r'), 2],
        [experienceKey('ds', 't1', 'B', 'r'), 3],
      ]);
      expect((await db.settings.get('rater'))?.value).toBe('ann');
      // v2's index exists: an indexed query on it answers (Dexie throws on an unknown index).
      expect(await db.entries.where('[memoryId+validFrom]').between(['m', 0], ['m', Infinity]).count()).toBe(0);
    } finally {
      db.close();
    }
  });
});
