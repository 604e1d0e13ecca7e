import { SCHEMA_V4 as V4, legacyCountRows } from '../helpers/db';
import { afterEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { ToolMemDB, createRepositories } from '../../../src/db';
import { countExperiences, type DatasetCounts } from '../../../src/core/stats/dataset-stats';
import { experienceKey, legacyExperienceKey } from '../../../src/core/ids';
import type { Experience } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';

const row = (datasetId: string, taskId: string, toolId: string, score: number, over: Partial<Experience> = {}): Experience => ({
  id: legacyExperienceKey(datasetId, taskId, toolId, over.rater ?? 'r'),
  datasetId,
  taskId,
  prompt: `p ${taskId}`,
  toolId,
  score,
  rater: 'r',
  scoreSource: 'human',
  categories: ['c'],
  importId: 'imp1',
  createdAt: 1,
  ...over,
});

const entry = (id: string, toolId: string, evidence: string[]): MemoryEntry => ({
  id,
  memoryId: 'm1',
  toolId,
  level: 'good',
  value: 1,
  text: `entry ${id}`,
  evidence,
  support: evidence.length,
  origin: 'stats',
  pinned: false,
  validFrom: 1,
  validTo: null,
  supersededBy: null,
  createdAt: 1,
  updatedAt: 1,
});

/** Rows as they should read after the upgrade: the same fields, the id in the new order. */
const rekeyed = (e: Experience): Experience => ({ ...e, id: experienceKey(e.datasetId, e.taskId, e.toolId, e.rater) });
const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

let names: string[] = [];
afterEach(async () => {
  for (const name of names) await Dexie.delete(name);
  names = [];
});

async function v4Database(name: string, seed: (db: Dexie) => Promise<void>) {
  names.push(name);
  const old = new Dexie(name);
  old.version(4).stores(V4);
  await old.open();
  await seed(old);
  // The counts as the app kept them (its middleware ran on every write).
  const rows = (await old.table('experiences').toArray()) as Experience[];
  await old.table('datasetCounts').bulkAdd(legacyCountRows(rows));
  old.close();
  return rows;
}

describe('schema v6: experience ids re-keyed to dataset|tool|task|rater', () => {
  it('upgrades a v4 database: every row, reference, count and query answer is the same', async () => {
    // 2,600 rows: more than one page of the upgrade (2,000). Tasks x/y with tools y/x swap ids
    // (each one's old id is the other's new one); task 'a|b' lies inside task 'a's range.
    const bulk = Array.from({ length: 2_600 }, (_, i) =>
      row('ds', `t${String(Math.floor(i / 4)).padStart(4, '0')}`, ['A', 'B', 'C', 'D'][i % 4]!, 1 + (i % 5)),
    );
    const odd = [
      row('ds', 'x', 'y', 2),
      row('ds', 'y', 'x', 4),
      row('ds', 'a', 'A', 5),
      row('ds', 'a|b', 'A', 1),
      row('ds', 'a', 'A', 3, { rater: 'ann', importId: 'manual' }),
    ];
    const other = [row('ds2', 't0000', 'A', 2, { importId: 'imp3' })];
    const replaced = row('ds', 't0001', 'B', 1, { importId: 'imp0' });
    const experiences = [...bulk, ...odd, ...other];
    const counts = await v4Database('mig-v6-a', async (db) => {
      await db.table('datasets').bulkPut([
        { id: 'ds', name: 'DS' },
        { id: 'ds2', name: 'DS2' },
      ]);
      await db.table('experiences').bulkAdd(experiences);
      await db.table('importBackups').add({ importId: 'imp1', experienceId: replaced.id, previous: replaced });
      await db.table('memories').put({ id: 'm1', name: 'M', datasetIds: ['ds'], embeddingModel: 'e', settings: {}, createdAt: 1, updatedAt: 1 });
      await db.table('entries').bulkPut([entry('e1', 'y', [odd[0]!.id, bulk[0]!.id.replace('|A|', '|Z|')]), entry('e2', 'A', [odd[2]!.id, odd[3]!.id])]);
      await db.table('items').put({ id: 'ds|x|y', datasetId: 'ds', taskId: 'x', toolId: 'y', prompt: 'p x', categories: [], createdAt: 1 });
    });

    const db = new ToolMemDB('mig-v6-a');
    await db.open();
    expect(db.verno).toBe(7); // through v6 to the latest
    expect(db.experiences.schema.indexes.map((i) => i.name)).toEqual([]);
    // Every row, same fields, new id; nothing added or lost.
    expect(byId(await db.experiences.toArray())).toEqual(byId(experiences.map(rekeyed)));
    expect((await db.experiences.get('ds|x|y|r'))?.taskId).toBe('y'); // the old id of (x, y) now names (y, x)
    expect((await db.experiences.get('ds|y|x|r'))?.taskId).toBe('x');
    // The counts did not change (they do not depend on ids; v7 keeps them as a log).
    const norm = (c: DatasetCounts) => ({
      ...c,
      scores: [...c.scores].sort((a, b) => a.toolId.localeCompare(b.toolId) || a.score - b.score),
      raters: [...c.raters].sort((a, b) => a.rater.localeCompare(b.rater)),
    });
    for (const ds of ['ds', 'ds2'])
      expect(norm(await createRepositories(db).experiences.counts(ds))).toEqual(norm(countExperiences(counts.filter((e) => e.datasetId === ds))));
    // References: the import backup and memory evidence follow; an id of a row that is gone stays.
    const [backup] = await db.importBackups.toArray();
    expect([backup!.experienceId, backup!.previous.id]).toEqual(['ds|B|t0001|r', 'ds|B|t0001|r']);
    expect((await db.entries.get('e1'))?.evidence).toEqual(['ds|y|x|r', bulk[0]!.id.replace('|A|', '|Z|')]);
    expect((await db.entries.get('e2'))?.evidence).toEqual(['ds|A|a|r', 'ds|A|a|b|r']);
    expect((await db.items.get('ds|x|y'))?.toolId).toBe('y'); // label items keep their own ids

    // Every query answers as before the upgrade.
    const repos = createRepositories(db);
    expect(await repos.experiences.count()).toBe(experiences.length);
    expect(await repos.experiences.count('ds')).toBe(bulk.length + odd.length);
    expect((await repos.experiences.byDataset('ds')).length).toBe(bulk.length + odd.length);
    expect((await repos.experiences.byDataset('ds2')).map((e) => e.score)).toEqual([2]);
    expect((await repos.experiences.byDatasetAndTool('ds', 'B')).length).toBe(650);
    expect((await repos.experiences.byTask('ds', 'a')).map((e) => [e.toolId, e.rater, e.score])).toEqual([
      ['A', 'ann', 3],
      ['A', 'r', 5],
    ]);
    expect((await repos.experiences.byTask('ds', 'a|b')).map((e) => e.score)).toEqual([1]);
    expect((await repos.experiences.byTask('ds', 'x')).map((e) => e.toolId)).toEqual(['y']);
    expect((await repos.experiences.byTask('ds', 't0002')).map((e) => e.toolId)).toEqual(['A', 'B', 'C', 'D']);
    expect((await repos.experiences.importIds()).sort()).toEqual(['imp1', 'imp3', 'manual']);
    expect((await repos.experiences.byImport('imp3')).map((e) => e.id)).toEqual(['ds2|A|t0000|r']);
    expect(Object.fromEntries(await repos.experiences.countsByTool('ds'))).toEqual({ A: 653, B: 650, C: 650, D: 650, x: 1, y: 1 });
    // Undoing the import restores the backed-up row under its new id.
    await repos.experiences.undoImport('imp1');
    expect((await repos.experiences.get('ds|B|t0001|r'))?.importId).toBe('imp0');
    db.close();
  });

  it("keeps a row under its old id when another row's new id is the same (parts holding '|'): nothing is lost", async () => {
    // Tool 'b|c' of task 'x' and tool 'b' of task 'c|x': different rows, one new id 'ds|b|c|x|r'.
    const one = row('ds', 'x', 'b|c', 1);
    const two = row('ds', 'c|x', 'b', 2);
    expect(one.id).not.toBe(two.id);
    expect(experienceKey('ds', 'x', 'b|c', 'r')).toBe(experienceKey('ds', 'c|x', 'b', 'r'));
    await v4Database('mig-v6-b', async (db) => {
      await db.table('experiences').bulkAdd([one, two]);
    });
    const db = new ToolMemDB('mig-v6-b');
    await db.open();
    const rows = byId(await db.experiences.toArray());
    expect(rows.map((e) => e.score).sort()).toEqual([1, 2]);
    expect(rows.map((e) => e.id)).toContain('ds|b|c|x|r');
    expect((await createRepositories(db).experiences.byDataset('ds')).map((e) => e.score).sort()).toEqual([1, 2]);
    db.close();
  });
});
