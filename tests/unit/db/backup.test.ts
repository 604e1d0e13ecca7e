import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolMemDB, createRepositories, exportBackup, restoreBackup } from '../../../src/db';
import type { Experience } from '../../../src/core/types';

let db: ToolMemDB;
let n = 0;
beforeEach(async () => {
  db = new ToolMemDB(`backup-${++n}`);
  await db.open();
});
afterEach(async () => {
  await db.delete();
});

const exp = (task: string, score: number): Experience => ({
  id: `d|${task}|T|r`, datasetId: 'd', taskId: task, prompt: `p ${task}`, toolId: 'T', score, rater: 'r', scoreSource: 'human', categories: ['a'], importId: 'i', createdAt: 1,
});

describe('back up everything', () => {
  it('round-trips every table, images included, into an empty database', async () => {
    const repos = createRepositories(db);
    await repos.datasets.put({ id: 'd', name: 'D', source: 's', preset: 'generic', scale: { min: 1, max: 5, direction: 'higher-better', integer: true }, raterPolicy: { kind: 'mean' }, createdAt: 1 });
    await repos.experiences.writeImportBatch('i', [exp('1', 3), exp('2', 5)]);
    await repos.images.put({ id: 'img:d:T/1', datasetId: 'd', name: 'T/1.png', mime: 'image/png', blob: new Blob([new Uint8Array([137, 80, 78, 71, 0, 255])], { type: 'image/png' }) });
    const blob = await exportBackup(db);

    const other = new ToolMemDB(`backup-target-${n}`);
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

  it('refuses an experience whose id is not its dataset|task|tool|rater key, and changes nothing', async () => {
    await createRepositories(db).experiences.writeImportBatch('i', [exp('1', 3)]);
    // A task's rows are read as a range of that key (schema v3), so a hand-edited id would hide the row.
    const edited = JSON.stringify({ format: 'toolmem-backup', version: 1, tables: { experiences: [exp('2', 4), { ...exp('3', 5), id: 'row-3' }] } });
    await expect(restoreBackup(db, edited)).rejects.toThrow("The backup's experience number 2 has the id 'row-3'; an experience of its dataset, task, tool and rater has the id 'd|3|T|r'.");
    const untyped = JSON.stringify({ format: 'toolmem-backup', version: 1, tables: { experiences: [{ ...exp('4', 5), taskId: 4 }] } });
    await expect(restoreBackup(db, untyped)).rejects.toThrow("The backup's experience number 1 lacks a text id, datasetId, taskId, toolId or rater.");
    expect((await db.experiences.toArray()).map((e) => e.taskId)).toEqual(['1']);
  });
});
