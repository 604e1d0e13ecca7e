import { legacyCountRows, withDb } from '../helpers/db';
import { describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { ToolMemDB, createRepositories } from '../../../src/db';
import { SCAN_PAGE } from '../../../src/db/experience-repo';
import { countExperiences } from '../../../src/core/stats/dataset-stats';
import type { Repositories } from '../../../src/core/repositories';
import type { Experience } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';
import { experienceKey, legacyExperienceKey } from '../../../src/core/ids';
import { StorageFullError } from '../../../src/core/errors';

function exp(task: string, tool: string, score: number, over: Partial<Experience> = {}): Experience {
  return {
    id: experienceKey('ds', task, tool, 'r1'),
    datasetId: 'ds',
    taskId: task,
    prompt: `prompt ${task}`,
    toolId: tool,
    score,
    rater: 'r1',
    scoreSource: 'human',
    categories: [],
    importId: 'x',
    createdAt: 1,
    ...over,
  };
}

function entry(id: string, level: MemoryEntry['level'], over: Partial<MemoryEntry> = {}): MemoryEntry {
  return {
    id,
    memoryId: 'm',
    toolId: 'A',
    level,
    value: level === 'proficient' ? 2 : level === 'good' ? 1 : level === 'bad' ? -1 : -2,
    text: `entry ${id}`,
    evidence: ['e1'],
    support: 1,
    origin: 'manual',
    pinned: false,
    validFrom: 1,
    validTo: null,
    supersededBy: null,
    createdAt: 1,
    updatedAt: 1,
    ...over,
  };
}

let db: ToolMemDB;
let repos: Repositories;
/** Numbers the databases the migration tests open by name at an older schema. */
let n = 0;

withDb('test', (t) => ({ db, repos } = t));

/**
 * The released version-3 schema (src/db/schema.ts), with its predictions table; version 2 is the
 * same but for the experiences' [datasetId+taskId] index.
 */
const V3_STORES = {
  tools: 'id, name',
  datasets: 'id, name, createdAt',
  experiences: 'id, importId, [datasetId+toolId]',
  imports: 'id, datasetId, startedAt',
  importBackups: '[importId+experienceId], importId',
  images: 'id, datasetId',
  memories: 'id, updatedAt',
  entries: 'id, memoryId, [memoryId+toolId], [memoryId+toolId+level], [memoryId+validFrom], supersededBy',
  runs: 'id, kind, state, startedAt',
  predictions: 'id, runId, [runId+toolId]',
  settings: 'key',
  embeddings: '[model+hash]',
  items: 'id, datasetId',
  preferences: 'id, datasetId, [datasetId+taskId]',
  datasetCounts: '[datasetId+kind+key+score]',
};

describe('experience repository', () => {
  it('writes an import batch and answers the indexed queries', async () => {
    const res = await repos.experiences.writeImportBatch('imp1', [exp('t1', 'A', 3), exp('t1', 'B', 4), exp('t2', 'A', 5)]);
    expect(res).toEqual({ added: 3, updated: 0, unchanged: 0 });
    expect(await repos.experiences.count()).toBe(3);
    expect(await repos.experiences.count('ds')).toBe(3);
    expect((await repos.experiences.byDatasetAndTool('ds', 'A')).map((e) => e.score).sort()).toEqual([3, 5]);
    expect((await repos.experiences.byTask('ds', 't1')).map((e) => e.toolId).sort()).toEqual(['A', 'B']);
    expect(Object.fromEntries(await repos.experiences.countsByTool('ds'))).toEqual({ A: 2, B: 1 });
    expect((await repos.experiences.get(experienceKey('ds', 't2', 'A', 'r1')))?.importId).toBe('imp1');
  });

  it("reads a task's rows by its key range: exactly that dataset and task, whatever '|' the ids hold", async () => {
    // Task 'a|b' (and dataset 'ds|a', task 'b') have ids inside task 'a's range 'ds|a|…': left out.
    await repos.experiences.writeImportBatch('imp1', [
      exp('a', 'A', 1),
      exp('a', 'B', 2),
      exp('a|b', 'A', 3),
      exp('a0', 'A', 4),
      exp('b', 'A', 5),
      exp('b', 'C', 6, { id: experienceKey('ds|a', 'b', 'C', 'r1'), datasetId: 'ds|a' }),
    ]);
    expect((await repos.experiences.byTask('ds', 'a')).map((e) => [e.taskId, e.toolId, e.score])).toEqual([
      ['a', 'A', 1],
      ['a', 'B', 2],
    ]);
    expect((await repos.experiences.byTask('ds', 'a|b')).map((e) => e.score)).toEqual([3]);
    expect((await repos.experiences.byTask('ds|a', 'b')).map((e) => e.datasetId)).toEqual(['ds|a']);
    expect(await repos.experiences.byTask('ds', 'zz')).toEqual([]);
  });

  it("reads a dataset's and a tool's rows by key range (schema v6): exactly those, whatever '|' the parts hold", async () => {
    // Ids are dataset|tool|task|rater. Tool 'A|x' and dataset 'ds|A' (tool '0', first in that range)
    // lie inside tool A's range 'ds|A|…'; dataset 'ds|a' lies inside dataset ds's range: each is left
    // out where it does not belong, and a page's offset counts only the rows that belong.
    const other = (datasetId: string, task: string, tool: string, score: number) =>
      exp(task, tool, score, { id: experienceKey(datasetId, task, tool, 'r1'), datasetId });
    await repos.experiences.writeImportBatch('imp1', [
      exp('a', 'A', 1),
      exp('a', 'B', 2),
      exp('a|b', 'A', 3),
      exp('a0', 'A', 4),
      exp('b', 'A', 5),
      other('ds|a', 'b', 'C', 6),
      exp('x', 'A|x', 7),
      other('ds|A', 't', '0', 8),
    ]);
    const scores = (rows: Experience[]) => rows.map((e) => e.score).sort((a, b) => a - b);
    expect(scores(await repos.experiences.byDatasetAndTool('ds', 'A'))).toEqual([1, 3, 4, 5]);
    expect(scores(await repos.experiences.byDatasetAndTool('ds', 'A|x'))).toEqual([7]);
    expect(scores(await repos.experiences.byDatasetAndTool('ds|A', '0'))).toEqual([8]);
    expect(scores(await repos.experiences.byDataset('ds'))).toEqual([1, 2, 3, 4, 5, 7]);
    expect(scores(await repos.experiences.byDataset('ds|a'))).toEqual([6]);
    expect(await repos.experiences.count('ds')).toBe(6);
    expect(await repos.experiences.count('ds|A')).toBe(1);
    // Page order within tool A, by the rows' own task ids in natural order: 'a' < 'a|b' < 'a0' < 'b' (punctuation before digits).
    expect((await repos.experiences.page('ds', { toolId: 'A', offset: 1, limit: 2 })).map((e) => e.score)).toEqual([3, 4]);
    expect((await repos.experiences.page('ds', { offset: 4, limit: 10 })).map((e) => e.score)).toEqual([7, 2]);
    expect((await repos.experiences.byTask('ds', 'x')).map((e) => e.toolId)).toEqual(['A|x']);
    // Deleting dataset ds leaves the datasets whose ids start with 'ds|'.
    await repos.datasets.remove('ds');
    expect((await db.experiences.toArray()).map((e) => e.datasetId).sort()).toEqual(['ds|A', 'ds|a']);
    expect(await repos.experiences.count('ds')).toBe(0);
    expect(await repos.experiences.count('ds|a')).toBe(1);
  });

  it('pages a dataset by tool, then task in natural order (2 before 10), then rater', async () => {
    const rows = [
      exp('10', 'B', 1),
      exp('2', 'A', 2),
      exp('10', 'A', 3),
      exp('1', 'A', 4),
      exp('2', 'A', 5, { rater: 'q0', id: experienceKey('ds', '2', 'A', 'q0') }),
      exp('t9', 'A', 6),
      exp('t10', 'A', 7),
    ];
    await repos.experiences.writeImportBatch('imp1', rows, { fresh: true });
    // Tool A: tasks 1, 2 (raters q0 < r1), 10, t9, t10; then tool B.
    expect((await repos.experiences.page('ds', { offset: 0, limit: 10 })).map((e) => e.score)).toEqual([4, 5, 2, 3, 6, 7, 1]);
    expect((await repos.experiences.page('ds', { toolId: 'A', offset: 2, limit: 2 })).map((e) => e.taskId)).toEqual(['2', '10']);
    expect(await repos.experiences.page('ds', { toolId: 'A', offset: 6, limit: 2 })).toEqual([]);
  });

  it('reads a dataset larger than one scan page, every row once, in key order', async () => {
    const rows = Array.from({ length: SCAN_PAGE + 7 }, (_, i) => exp(`t${String(i).padStart(6, '0')}`, i % 2 ? 'B' : 'A', 1 + (i % 5)));
    await repos.experiences.writeImportBatch('imp1', rows, { fresh: true });
    const read = await repos.experiences.byDataset('ds');
    expect(read).toHaveLength(SCAN_PAGE + 7);
    expect(read.map((e) => e.id)).toEqual(rows.map((e) => e.id).sort());
    // The same rows page by page: a full page, then the rest, each handed over before the next is read.
    const pages: number[] = [];
    const ids: string[] = [];
    await repos.experiences.scanDataset('ds', (page) => {
      pages.push(page.length);
      ids.push(...page.map((e) => e.id));
    });
    expect(pages).toEqual([SCAN_PAGE, 7]);
    expect(ids).toEqual(read.map((e) => e.id));
  });

  it('upgrades a version-2 database: the task index is dropped, rows and task reads stay', async () => {
    const name = `v2-${++n}`;
    const old = new Dexie(name);
    // The released version-2 schema (src/db/schema.ts), experiences with their [datasetId+taskId] index.
    old.version(2).stores({ ...V3_STORES, experiences: 'id, importId, [datasetId+toolId], [datasetId+taskId]' });
    // Ids in the order of versions 1–5 (v6 re-keys them: migrate-v6.test.ts); the counts as the app kept them.
    const legacy = (e: Experience) => ({ ...e, id: legacyExperienceKey(e.datasetId, e.taskId, e.toolId, e.rater) });
    const rows = [exp('t1', 'A', 3), exp('t1', 'B', 4), exp('t2', 'A', 5)];
    await old.table('experiences').bulkAdd(rows.map(legacy));
    await old.table('datasetCounts').bulkAdd(legacyCountRows(rows));
    old.close();
    const upgraded = new ToolMemDB(name);
    await upgraded.open();
    expect(upgraded.verno).toBe(7); // through v3 to the latest
    expect(upgraded.experiences.schema.indexes.map((i) => i.name).sort()).toEqual([]);
    expect((await createRepositories(upgraded).experiences.byTask('ds', 't1')).map((e) => e.toolId)).toEqual(['A', 'B']);
    expect(await upgraded.experiences.count()).toBe(3);
    // v7 converted the count rows into the count log: the same counts.
    expect(await createRepositories(upgraded).experiences.counts('ds')).toEqual(countExperiences(rows));
    await upgraded.delete();
  });

  it('upgrades a version-3 database: the unused predictions table is dropped, runs, memories and experiences stay', async () => {
    const name = `v3-${++n}`;
    const old = new Dexie(name);
    // The released version-3 schema (src/db/schema.ts), with its predictions table.
    old.version(3).stores(V3_STORES);
    const run = { id: 'eval-1', kind: 'eval', state: 'completed', config: { datasetId: 'ds', seeds: 1, methods: ['tool-mean'] }, startedAt: 5 };
    await old.table('runs').put(run);
    await old
      .table('memories')
      .put({ id: 'm1', name: 'M', datasetIds: ['ds'], embeddingModel: 'e', settings: { build: 'build-1', engine: 'none' }, createdAt: 1, updatedAt: 2 });
    await old
      .table('experiences')
      .bulkAdd([exp('t1', 'A', 3), exp('t2', 'A', 5)].map((e) => ({ ...e, id: legacyExperienceKey(e.datasetId, e.taskId, e.toolId, e.rater) })));
    await old.table('predictions').put({ id: 'p1', runId: 'eval-1', taskId: 't1', toolId: 'A', method: 'knn', predicted: 3, evidence: [] });
    old.close();
    const upgraded = new ToolMemDB(name);
    await upgraded.open();
    expect(upgraded.verno).toBe(7);
    expect(upgraded.tables.map((t) => t.name)).not.toContain('predictions');
    expect(upgraded.tables).toHaveLength(16); // v5: the embedding cache is two tables (blocks, keys) instead of one; v7: the import key lists
    const repos2 = createRepositories(upgraded);
    expect(await repos2.runs.list('eval')).toEqual([run]);
    expect((await upgraded.memories.get('m1'))?.settings).toEqual({ build: 'build-1', engine: 'none' });
    expect((await repos2.experiences.byDataset('ds')).map((e) => e.score)).toEqual([3, 5]);
    await upgraded.delete();
  });

  it('a re-import reads the rows it may replace once: the counts take their differences from that read', async () => {
    const name = `spy-${++n}`;
    const spied = new ToolMemDB(name);
    // Below the counts middleware (level 0 is next to IndexedDB): every read of experiences rows.
    const reads: number[] = [];
    spied.use({
      stack: 'dbcore',
      name: 'read-spy',
      level: 0,
      create: (down) => ({
        ...down,
        table: (table) => {
          const t = down.table(table);
          return table !== 'experiences' ? t : { ...t, getMany: (req) => (reads.push(req.keys.length), t.getMany(req)) };
        },
      }),
    });
    await spied.open();
    const r = createRepositories(spied);
    await r.experiences.writeImportBatch('imp1', [exp('t1', 'A', 3), exp('t2', 'A', 5)]);
    reads.length = 0;
    expect(await r.experiences.writeImportBatch('imp2', [exp('t1', 'A', 3), exp('t2', 'A', 1), exp('t3', 'A', 2)])).toEqual({
      added: 1,
      updated: 1,
      unchanged: 1,
    });
    // The repository's bulkGet of the 3 rows; before, the middleware read t2 and t3 again.
    expect(reads).toEqual([3]);
    expect(await r.experiences.counts('ds')).toEqual({
      scores: [1, 2, 3].map((score) => ({ toolId: 'A', score, n: 1 })),
      raters: [{ rater: 'r1', n: 3 }],
      tasks: 3,
    });
    await r.experiences.undoImport('imp2');
    expect(await r.experiences.counts('ds')).toEqual({
      scores: [3, 5].map((score) => ({ toolId: 'A', score, n: 1 })),
      raters: [{ rater: 'r1', n: 2 }],
      tasks: 2,
    });
    await spied.delete();
  });

  it('is idempotent on re-import and undo restores replaced rows', async () => {
    await repos.experiences.writeImportBatch('imp1', [exp('t1', 'A', 3), exp('t2', 'A', 5)]);
    const again = await repos.experiences.writeImportBatch('imp2', [exp('t1', 'A', 3), exp('t2', 'A', 1), exp('t3', 'A', 2)]);
    expect(again).toEqual({ added: 1, updated: 1, unchanged: 1 });
    expect(await repos.experiences.count()).toBe(3);
    expect((await repos.experiences.get(experienceKey('ds', 't2', 'A', 'r1')))?.score).toBe(1);

    await repos.experiences.undoImport('imp2');
    const rows = await repos.experiences.byDataset('ds');
    expect(rows.map((r) => [r.taskId, r.score, r.importId]).sort()).toEqual([
      ['t1', 3, 'imp1'],
      ['t2', 5, 'imp1'],
    ]);
    expect(await db.importBackups.count()).toBe(0);

    await repos.experiences.undoImport('imp1');
    expect(await repos.experiences.count()).toBe(0);
  });

  it('turns a quota failure into StorageFullError and writes nothing', async () => {
    const original = db.experiences.bulkPut.bind(db.experiences);
    db.experiences.bulkPut = (() => {
      const err = new Error('quota');
      err.name = 'QuotaExceededError';
      return Promise.reject(err);
    }) as unknown as typeof db.experiences.bulkPut;
    await expect(repos.experiences.writeImportBatch('imp1', [exp('t1', 'A', 3)])).rejects.toBeInstanceOf(StorageFullError);
    db.experiences.bulkPut = original;
    expect(await repos.experiences.count()).toBe(0);
  });

  it('removing a dataset removes its experiences and imports in one go', async () => {
    await repos.datasets.put({
      id: 'ds',
      name: 'DS',
      source: 'f.csv',
      preset: 'generic',
      scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
      raterPolicy: { kind: 'mean' },
      createdAt: 1,
    });
    await repos.imports.put({
      id: 'imp1',
      datasetId: 'ds',
      fileName: 'f.csv',
      preset: 'generic',
      state: 'completed',
      rowsRead: 1,
      accepted: 1,
      unchanged: 0,
      updated: 0,
      rejected: 0,
      errors: [],
      startedAt: 1,
    });
    await repos.experiences.writeImportBatch('imp1', [exp('t1', 'A', 3)]);
    await repos.datasets.remove('ds');
    expect(await repos.datasets.list()).toEqual([]);
    expect(await repos.imports.list()).toEqual([]);
    expect(await repos.experiences.count()).toBe(0);
  });
});

describe('tool repository', () => {
  it('ensure() keeps existing tools unchanged', async () => {
    await repos.tools.put({ id: 'A', name: 'A', modality: 'text→image', description: 'mine', createdAt: 1 });
    await repos.tools.ensure([
      { id: 'A', name: 'A', modality: 'other', description: '', createdAt: 2 },
      { id: 'B', name: 'B', modality: 'other', description: '', createdAt: 2 },
    ]);
    const tools = await repos.tools.list();
    expect(tools.map((t) => [t.id, t.description])).toEqual([
      ['A', 'mine'],
      ['B', ''],
    ]);
  });
});

describe('memory repository', () => {
  it('applies an update atomically and keeps history', async () => {
    await repos.memories.applyUpdate([], [entry('e1', 'good'), entry('e2', 'good'), entry('e3', 'weak')], 10);
    expect((await repos.memories.validEntries('m', 'A', 'good')).map((e) => e.id).sort()).toEqual(['e1', 'e2']);

    // merge e1+e2 into e4
    await repos.memories.applyUpdate(
      [
        { id: 'e1', supersededBy: 'e4' },
        { id: 'e2', supersededBy: 'e4' },
      ],
      [entry('e4', 'proficient', { validFrom: 20 })],
      20,
    );
    expect((await repos.memories.validEntries('m', 'A')).map((e) => e.id).sort()).toEqual(['e3', 'e4']);
    const all = await repos.memories.allEntries('m');
    expect(all).toHaveLength(4);
    expect(all.find((e) => e.id === 'e1')).toMatchObject({ validTo: 20, supersededBy: 'e4' });
  });

  it('rejects an update touching an already superseded entry and changes nothing', async () => {
    await repos.memories.applyUpdate([], [entry('e1', 'good', { validTo: 5, supersededBy: 'x' }), entry('e2', 'bad')], 10);
    await expect(
      repos.memories.applyUpdate(
        [
          { id: 'e2', supersededBy: null, reason: 'contradicted' },
          { id: 'e1', supersededBy: null },
        ],
        [entry('e5', 'good')],
        30,
      ),
    ).rejects.toThrow(/no longer valid/);
    const e2 = await db.entries.get('e2');
    expect(e2?.validTo).toBeNull();
    expect(await db.entries.get('e5')).toBeUndefined();
  });
});

describe('fresh import batches', () => {
  it('skip the read but never overwrite: a clash fails the whole batch', async () => {
    expect(await repos.experiences.writeImportBatch('imp1', [exp('t1', 'A', 3), exp('t2', 'A', 4)], { fresh: true })).toEqual({
      added: 2,
      updated: 0,
      unchanged: 0,
    });
    await expect(repos.experiences.writeImportBatch('imp2', [exp('t3', 'A', 1), exp('t1', 'A', 5)], { fresh: true })).rejects.toThrow();
    const rows = await repos.experiences.byDataset('ds');
    expect(rows.map((r) => [r.taskId, r.score]).sort()).toEqual([
      ['t1', 3],
      ['t2', 4],
    ]);
  });
});
