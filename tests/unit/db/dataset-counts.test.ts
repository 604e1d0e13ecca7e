import { withDb } from '../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportBackup, restoreBackup, type ToolMemDB } from '../../../src/db';
import { COMPACT_AT } from '../../../src/db/count-log';
import { createInThreadClient, type Client } from '../../../src/rpc';
import { createImportHandlers } from '../../../src/app/import/handlers';
import type { ImportApi } from '../../../src/app/import/api';
import type { Repositories } from '../../../src/core/repositories';
import { experienceKey } from '../../../src/core/ids';
import type { Experience, ScoreScale } from '../../../src/core/types';
import { countExperiences, datasetStats, statsFromCounts, type DatasetCounts } from '../../../src/core/stats/dataset-stats';

const REPO = resolve(import.meta.dirname, '../../..');
const LOG = readFileSync(resolve(REPO, 'tests/fixtures/e2e/team-eval-log.csv'), 'utf8');
const csv = (text: string, name = 'team-eval-log.csv') => new File([text], name);
const opts = { datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' as const };
const DS = 'team-log';

let db: ToolMemDB;
let repos: Repositories;
let client: Client<ImportApi>;
withDb('counts', (t) => {
  ({ db, repos } = t);
  client = createInThreadClient(createImportHandlers(repos));
});

/** Order-free form of counts, to compare stored with recomputed. */
function norm(c: DatasetCounts) {
  return {
    scores: [...c.scores].sort((a, b) => a.toolId.localeCompare(b.toolId) || a.score - b.score),
    raters: [...c.raters].sort((a, b) => a.rater.localeCompare(b.rater)),
    tasks: c.tasks,
  };
}

/** The stored counts and the statistics served from them equal a full recomputation over every row. */
async function expectConsistent(datasetId = DS) {
  const rows = await repos.experiences.byDataset(datasetId);
  const stored = await repos.experiences.counts(datasetId);
  expect(norm(stored)).toEqual(norm(countExperiences(rows)));
  const scale: ScoreScale = (await repos.datasets.get(datasetId))?.scale ?? { min: 1, max: 5, direction: 'higher-better', integer: true };
  const full = datasetStats(rows, scale);
  if (rows.length) expect(await client.call('stats', { datasetId })).toEqual(full);
  expect(statsFromCounts(stored, scale)).toEqual(full);
  const byTool: Record<string, number> = {};
  for (const r of rows) byTool[r.toolId] = (byTool[r.toolId] ?? 0) + 1;
  expect(Object.fromEntries(await repos.experiences.countsByTool(datasetId))).toEqual(byTool);
  return rows;
}

const exp = (task: string, tool: string, score: number, rater = 'default'): Experience => ({
  id: experienceKey(DS, task, tool, rater),
  datasetId: DS,
  taskId: task,
  prompt: `p${task}`,
  toolId: tool,
  response: 'r',
  score,
  rater,
  scoreSource: 'human',
  categories: [],
  importId: 'manual',
  createdAt: 1,
});

describe('dataset counts (stored statistics) equal a full recomputation', () => {
  it('after import, re-import with changes, label, label undo, undo import and dataset deletion', async () => {
    const first = await client.call('import', { file: csv(LOG), ...opts });
    expect((await expectConsistent()).length).toBe(9);

    // A re-import that changes one score (an update with a backup) and adds a row.
    const edited = LOG.replace('assistant-b,3,', 'assistant-b,4,') + '\n';
    const second = await client.call('import', { file: csv(edited), ...opts });
    expect(second.summary.updated).toBe(1);
    await expectConsistent();

    // Labels: a new rater's score, a changed score, a removed label.
    await repos.experiences.put(exp('1', 'assistant-a', 2, 'alice'));
    await repos.experiences.put(exp('1', 'assistant-a', 5, 'alice'));
    await repos.experiences.put(exp('99', 'assistant-c', 1, 'alice'));
    await expectConsistent();
    await repos.experiences.remove(experienceKey(DS, '99', 'assistant-c', 'alice'));
    await expectConsistent();

    // Undo the second import (restores the replaced row), then the first.
    await client.call('undo', { importId: second.record.id });
    await expectConsistent();
    await client.call('undo', { importId: first.record.id });
    const left = await expectConsistent();
    expect(left.map((r) => r.rater)).toEqual(['alice']);

    // Delete the dataset: nothing of it is left in the counts.
    await repos.datasets.remove(DS);
    expect(await db.countLog.filter((r) => r.datasetId === DS).count()).toBe(0);
    expect(await repos.experiences.counts(DS)).toEqual({ scores: [], raters: [], tasks: 0 });
  });

  it('bulk writes with repeated keys, partial failures, range deletes, clear and backup restore', async () => {
    await client.call('import', { file: csv(LOG), ...opts });
    // The same key twice in one bulkPut: the second replaces the first.
    await db.experiences.bulkPut([exp('7', 'x', 1), exp('7', 'x', 3), exp('8', 'x', 2.5)]);
    await expectConsistent();
    // A bulkAdd outside a transaction keeps the rows that worked: only those are counted.
    await db.experiences.bulkAdd([exp('8', 'x', 5), exp('9', 'x', 4)]).catch(() => undefined);
    expect((await db.experiences.get(experienceKey(DS, '8', 'x', 'default')))?.score).toBe(2.5);
    await expectConsistent();
    // A delete through an index (Collection.delete) and a primary-key range delete.
    await db.experiences.filter((e) => e.importId === 'manual' && e.toolId === 'x' && e.taskId === '7').delete();
    await expectConsistent();
    await db.experiences.where('id').between(`${DS}|x|8`, `${DS}|x|9`).delete();
    await expectConsistent();

    // Backup and restore: counts are left out of the file and rebuilt from the experiences.
    const before = norm(await repos.experiences.counts(DS));
    const text = await (await exportBackup(db)).text();
    expect(Object.keys(JSON.parse(text).tables)).not.toContain('countLog');
    await db.experiences.clear();
    expect(await db.countLog.count()).toBe(0);
    await restoreBackup(db, text);
    expect(norm(await repos.experiences.counts(DS))).toEqual(before);
    await expectConsistent();
  });

  it('the count log: one summary and one tasks row per write, folded into one at COMPACT_AT rows, exact throughout', async () => {
    await repos.datasets.put({
      id: DS,
      name: 'Team log',
      source: 'hand',
      preset: 'manual',
      scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
      raterPolicy: { kind: 'mean' },
      createdAt: 1,
    });
    // One write appends its differences without reading anything (schema v7, db/count-log.ts).
    await db.experiences.bulkAdd([exp('1', 'x', 3), exp('2', 'x', 4), exp('1', 'y', 1, 'ann')]);
    const first = await db.countLog.toArray();
    expect(first.map(({ seq: _seq, ...r }) => r)).toEqual([
      { datasetId: DS, kind: 'summary', tools: ['x', 'x', 'y'], scores: [3, 4, 1], n: [1, 1, 1], raters: ['default', 'ann'], raterN: [2, 1] },
      { datasetId: DS, kind: 'tasks', tasks: ['1', '2'], n: [2, 1] },
    ]);
    // A put that changes only a score: the tasks do not move, so no tasks row.
    await db.experiences.put(exp('2', 'x', 5));
    expect((await db.countLog.toArray()).slice(2).map((r) => [r.kind, r.kind === 'summary' ? [r.scores, r.n] : null])).toEqual([
      [
        'summary',
        [
          [4, 5],
          [-1, 1],
        ],
      ],
    ]);
    // Many small writes (a labelling session): the log never holds more than COMPACT_AT rows of a kind.
    for (let i = 0; i < 3 * COMPACT_AT; i++) {
      await db.experiences.put(exp(String(100 + (i % 7)), 'z', 1 + (i % 5), `r${i % 3}`));
      if (i % 4 === 3) await db.experiences.delete(experienceKey(DS, String(100 + (i % 7)), 'z', `r${i % 3}`));
      const rows = await db.countLog.toArray();
      for (const kind of ['summary', 'tasks']) expect(rows.filter((r) => r.kind === kind).length).toBeLessThan(COMPACT_AT);
    }
    await expectConsistent();
    // Every row of the dataset deleted: the differences sum to nothing and the counts are empty.
    await db.experiences.where('id').between(`${DS}|`, `${DS}|\uffff`).delete();
    expect(await repos.experiences.counts(DS)).toEqual({ scores: [], raters: [], tasks: 0 });
  });

  it('a failed write changes neither the rows nor the counts', async () => {
    await client.call('import', { file: csv(LOG), ...opts });
    const before = await db.countLog.toArray();
    await expect(
      db.transaction('rw', db.experiences, async () => {
        await db.experiences.put(exp('50', 'y', 3));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.countLog.toArray()).toEqual(before);
    await expectConsistent();
  });

  it('continuous scores: means and histograms do not depend on the order rows were written', () => {
    const scale: ScoreScale = { min: 0, max: 1, direction: 'higher-better', integer: false };
    const rows = [0.1, 0.2, 0.3, 0.7, 0.1, 1, 0.45].map((s, i) => exp(String(i), 't', s));
    const a = datasetStats(rows, scale);
    expect(datasetStats([...rows].reverse(), scale)).toEqual(a);
    expect(a.tools[0]!.mean).toBeCloseTo(2.85 / 7, 12);
    expect(a.tools[0]!.histogram.reduce((s, x) => s + x, 0)).toBe(7);
  });
});
