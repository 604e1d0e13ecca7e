import { newDb, withDb } from '../helpers/db';
import { describe, expect, it } from 'vitest';
import { createRepositories, exportBackup, restoreBackup, type ToolMemDB } from '../../../src/db';
import type { Experience } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';
import { experienceKey, legacyExperienceKey } from '../../../src/core/ids';

let db: ToolMemDB;
withDb('backup', (t) => void (db = t.db));

const exp = (task: string, score: number): Experience => ({
  id: experienceKey('d', task, 'T', 'r'),
  datasetId: 'd',
  taskId: task,
  prompt: `p ${task}`,
  toolId: 'T',
  score,
  rater: 'r',
  scoreSource: 'human',
  categories: ['a'],
  importId: 'i',
  createdAt: 1,
});

describe('back up everything', () => {
  it('round-trips every table, images included, into an empty database', async () => {
    const repos = createRepositories(db);
    await repos.datasets.put({
      id: 'd',
      name: 'D',
      source: 's',
      preset: 'generic',
      scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
      raterPolicy: { kind: 'mean' },
      createdAt: 1,
    });
    await repos.experiences.writeImportBatch('i', [exp('1', 3), exp('2', 5)]);
    await repos.images.put({
      id: 'img:d:T/1',
      datasetId: 'd',
      name: 'T/1.png',
      mime: 'image/png',
      blob: new Blob([new Uint8Array([137, 80, 78, 71, 0, 255])], { type: 'image/png' }),
    });
    const blob = await exportBackup(db);

    const other = newDb('backup-target');
    await other.open();
    const counts = await restoreBackup(other, await blob.text());
    expect(counts).toMatchObject({ datasets: 1, experiences: 2, images: 1 });
    expect(await other.experiences.toArray()).toEqual(await db.experiences.toArray());
    const img = await other.images.get('img:d:T/1');
    expect([...new Uint8Array(await img!.blob.arrayBuffer())]).toEqual([137, 80, 78, 71, 0, 255]);
    expect(img!.blob.type).toBe('image/png');
    await other.delete();
  });

  it('restores a backup made before schema v4, whose empty predictions table no longer exists', async () => {
    const old = JSON.stringify({ format: 'toolmem-backup', version: 1, schema: 3, tables: { experiences: [exp('1', 3)], predictions: [] } });
    const counts = await restoreBackup(db, old);
    expect(counts).toMatchObject({ experiences: 1 });
    expect(counts).not.toHaveProperty('predictions');
    expect((await db.experiences.toArray()).map((e) => e.score)).toEqual([3]);
  });

  it('refuses a file that is not a backup and changes nothing', async () => {
    await createRepositories(db).experiences.writeImportBatch('i', [exp('1', 3)]);
    await expect(restoreBackup(db, '{"format":"something-else"}')).rejects.toThrow(/not a ToolMem backup/);
    await expect(restoreBackup(db, '{"format":"toolmem-backup","version":1,"tables":{"nope":[]}}')).rejects.toThrow(/unknown table "nope"/);
    await expect(restoreBackup(db, 'not json')).rejects.toThrow(/not valid JSON/);
    // A row that breaks a constraint aborts the whole restore.
    const dup = JSON.stringify({ format: 'toolmem-backup', version: 1, tables: { experiences: [exp('9', 1), exp('9', 2)] } });
    await expect(restoreBackup(db, dup)).rejects.toThrow();
    expect((await db.experiences.toArray()).map((e) => e.taskId)).toEqual(['1']);
  });

  it('restores a backup made before schema v6: ids in the old order become dataset|tool|task|rater, with the references to them', async () => {
    // Task 'x' of tool 'y' and task 'y' of tool 'x': each one's old id is the other's new one.
    const a = { ...exp('x', 3), toolId: 'y' };
    const b = { ...exp('y', 4), toolId: 'x' };
    const legacy = (e: Experience) => ({ ...e, id: legacyExperienceKey(e.datasetId, e.taskId, e.toolId, e.rater) });
    const [oldA, oldB] = [legacy(a), legacy(b)];
    expect(oldA.id).toBe('d|x|y|r');
    expect(oldB.id).toBe('d|y|x|r');
    const entry = {
      id: 'en1',
      memoryId: 'm',
      toolId: 'y',
      level: 'good',
      value: 1,
      text: 't',
      evidence: [oldA.id, 'gone|1|y|r'],
      support: 2,
      origin: 'stats',
      pinned: false,
      validFrom: 1,
      validTo: null,
      supersededBy: null,
      createdAt: 1,
      updatedAt: 1,
    } satisfies MemoryEntry;
    const backup = { importId: 'i2', experienceId: oldB.id, previous: { ...oldB, score: 1 } };
    const file = JSON.stringify({
      format: 'toolmem-backup',
      version: 1,
      schema: 5,
      tables: { experiences: [oldA, oldB], importBackups: [backup], entries: [entry] },
    });
    await restoreBackup(db, file);
    expect((await db.experiences.toArray()).map((e) => [e.id, e.taskId, e.toolId, e.score])).toEqual([
      ['d|x|y|r', 'y', 'x', 4],
      ['d|y|x|r', 'x', 'y', 3],
    ]);
    expect((await db.entries.get('en1'))?.evidence).toEqual(['d|y|x|r', 'gone|1|y|r']);
    const [kept] = await db.importBackups.toArray();
    expect([kept!.experienceId, kept!.previous.id, kept!.previous.score]).toEqual(['d|x|y|r', 'd|x|y|r', 1]);
    const repos = createRepositories(db);
    expect((await repos.experiences.byTask('d', 'x')).map((e) => e.score)).toEqual([3]);
    expect((await repos.experiences.byDatasetAndTool('d', 'x')).map((e) => e.score)).toEqual([4]);
    // Undoing that import puts the backed-up row back under its new id.
    await repos.experiences.undoImport('i2');
    expect((await repos.experiences.get('d|x|y|r'))?.score).toBe(1);
  });

  it('refuses an experience whose id is not its dataset|task|tool|rater key, and changes nothing', async () => {
    await createRepositories(db).experiences.writeImportBatch('i', [exp('1', 3)]);
    // A task's rows are read as a range of that key (schema v3), so a hand-edited id would hide the row.
    const edited = JSON.stringify({ format: 'toolmem-backup', version: 1, tables: { experiences: [exp('2', 4), { ...exp('3', 5), id: 'row-3' }] } });
    await expect(restoreBackup(db, edited)).rejects.toThrow(
      "The backup's experience number 2 has the id 'row-3'; an experience of its dataset, task, tool and rater has the id 'd|T|3|r'.",
    );
    const untyped = JSON.stringify({ format: 'toolmem-backup', version: 1, tables: { experiences: [{ ...exp('4', 5), taskId: 4 }] } });
    await expect(restoreBackup(db, untyped)).rejects.toThrow("The backup's experience number 1 lacks a text id, datasetId, taskId, toolId or rater.");
    expect((await db.experiences.toArray()).map((e) => e.taskId)).toEqual(['1']);
  });
});
