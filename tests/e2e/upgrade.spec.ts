import { test, expect } from './support/fixtures';

/**
 * A database as the previous release (schema v6) left it, written with raw IndexedDB in Chromium
 * before the app first opens it: the app's v7 upgrade (src/db/migrate-v7.ts) must keep every row,
 * turn the count rows into the count log and list the rows per import, in real IndexedDB.
 */
test('a database from the previous version (schema v6) upgrades in the browser: counts, history and undo work', async ({ data, page }) => {
  // Any same-origin page that does not start the app, so the database is written before the app opens it.
  await page.goto('/zod-jitless.js');
  await page.evaluate(async () => {
    // Dexie's stores at v6 (src/db/schema.ts; Dexie version 6 = IndexedDB version 60).
    const stores: Record<string, { key: string | string[]; auto?: boolean; indexes: (string | string[])[] }> = {
      tools: { key: 'id', indexes: ['name'] },
      datasets: { key: 'id', indexes: ['name', 'createdAt'] },
      experiences: { key: 'id', indexes: ['importId'] },
      imports: { key: 'id', indexes: ['datasetId', 'startedAt'] },
      importBackups: { key: ['importId', 'experienceId'], indexes: ['importId'] },
      images: { key: 'id', indexes: ['datasetId'] },
      memories: { key: 'id', indexes: ['updatedAt'] },
      entries: { key: 'id', indexes: ['memoryId', ['memoryId', 'toolId'], ['memoryId', 'toolId', 'level'], ['memoryId', 'validFrom'], 'supersededBy'] },
      runs: { key: 'id', indexes: ['kind', 'state', 'startedAt'] },
      settings: { key: 'key', indexes: [] },
      items: { key: 'id', indexes: ['datasetId'] },
      preferences: { key: 'id', indexes: ['datasetId', ['datasetId', 'taskId']] },
      datasetCounts: { key: ['datasetId', 'kind', 'key', 'score'], indexes: [] },
      embeddingBlocks: { key: 'id', indexes: [] },
      embeddingKeys: { key: 'id', auto: true, indexes: [] },
    };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('toolmem', 60);
      req.onupgradeneeded = () => {
        for (const [name, s] of Object.entries(stores)) {
          const store = req.result.createObjectStore(name, { keyPath: s.key, autoIncrement: !!s.auto });
          for (const ix of s.indexes) store.createIndex(Array.isArray(ix) ? `[${ix.join('+')}]` : ix, ix);
        }
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const tx = db.transaction(['datasets', 'imports', 'experiences', 'datasetCounts', 'tools'], 'readwrite');
    const scale = { min: 1, max: 5, direction: 'higher-better', integer: true };
    tx.objectStore('datasets').put({
      id: 'old-log',
      name: 'Old log',
      source: 'old.csv',
      preset: 'generic',
      scale,
      raterPolicy: { kind: 'mean' },
      createdAt: 1,
    });
    tx.objectStore('imports').put({
      id: 'imp-old',
      datasetId: 'old-log',
      fileName: 'old.csv',
      preset: 'generic',
      state: 'completed',
      rowsRead: 6,
      accepted: 6,
      unchanged: 0,
      updated: 0,
      rejected: 0,
      errors: [],
      startedAt: 1,
      finishedAt: 2,
    });
    const rows = [
      ['A', 't1', 5],
      ['A', 't2', 4],
      ['A', 't3', 3],
      ['B', 't1', 2],
      ['B', 't2', 2],
      ['B', 't3', 1],
    ] as const;
    for (const [tool, task, score] of rows) {
      tx.objectStore('experiences').put({
        id: `old-log|${tool}|${task}|default`,
        datasetId: 'old-log',
        taskId: task,
        prompt: `prompt ${task}`,
        toolId: tool,
        score,
        rater: 'default',
        scoreSource: 'human',
        categories: [],
        importId: 'imp-old',
        createdAt: 1,
        response: 'r',
      });
    }
    // The count rows as v6's middleware kept them.
    for (const [tool, score, n] of [
      ['A', 5, 1],
      ['A', 4, 1],
      ['A', 3, 1],
      ['B', 2, 2],
      ['B', 1, 1],
    ] as const)
      tx.objectStore('datasetCounts').put({ datasetId: 'old-log', kind: 'score', key: tool, score, n });
    tx.objectStore('datasetCounts').put({ datasetId: 'old-log', kind: 'rater', key: 'default', score: 0, n: 6 });
    for (const task of ['t1', 't2', 't3']) tx.objectStore('datasetCounts').put({ datasetId: 'old-log', kind: 'task', key: task, score: 0, n: 2 });
    for (const tool of ['A', 'B']) tx.objectStore('tools').put({ id: tool, name: tool, modality: 'text', description: '', createdAt: 1 });
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  });

  await data.open('data');
  const card = data.datasetCard('Old log');
  // The statistics come from the converted counts: 6 rows, tool means 4.00 and 1.67.
  await expect(card).toContainText('6 experiences');
  await expect(card.getByRole('row', { name: /^A\b/ })).toContainText('4.00');
  await expect(card.getByRole('row', { name: /^B\b/ })).toContainText('1.67');

  // The schema is v7: no index on experiences, the count log and key lists instead of datasetCounts.
  const schema = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('toolmem');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const out = {
      version: db.version,
      stores: [...db.objectStoreNames].sort(),
      experienceIndexes: [...db.transaction('experiences').objectStore('experiences').indexNames],
    };
    db.close();
    return out;
  });
  expect(schema.version).toBe(70);
  expect(schema.experienceIndexes).toEqual([]);
  expect(schema.stores).toContain('countLog');
  expect(schema.stores).toContain('importKeys');
  expect(schema.stores).not.toContain('datasetCounts');

  // Undo the old import from its history: it finds its rows through the lists the upgrade wrote.
  await card.getByText('Import history').click();
  await card.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Undid the import' })).toBeVisible();
  await expect(data.datasetCard('Old log')).toHaveCount(0);
  await expect(data.emptyState).toBeVisible();
});
