import { withDb } from '../../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolMemDB } from '../../../../src/db';
import { DexieEmbeddingStore } from '../../../../src/db/embedding-store';
import { DexieMemoryImportStore } from '../../../../src/db/memory-import-store';
import { createInThreadClient, type Client } from '../../../../src/rpc';
import { createMemoryHandlers } from '../../../../src/app/memory/handlers';
import type { MemoryApi } from '../../../../src/app/memory/api';
import type { Repositories } from '../../../../src/core/repositories';
import type { Experience } from '../../../../src/core/types';
import { hashEmbedder } from '../../memory/helpers';

const VALID = readFileSync(resolve(import.meta.dirname, '../../../fixtures/bad-inputs/memory-valid.json'), 'utf8');
let db: ToolMemDB;
let repos: Repositories;
let memory: Client<MemoryApi>;

const exp = (taskId: string, toolId: string, score: number): Experience => ({
  id: `d|${toolId}|${taskId}|r1`,
  datasetId: 'd',
  taskId,
  prompt: `a red fox number ${taskId}`,
  toolId,
  score,
  rater: 'r1',
  scoreSource: 'human',
  categories: [],
  importId: 'manual',
  createdAt: Date.now(),
});

withDb('mem-checks', async (t) => {
  ({ db, repos } = t);
  const embedder = hashEmbedder(64); // id 'hash-64': the embedding model of memory-valid.json
  memory = createInThreadClient(
    createMemoryHandlers({
      repos,
      store: new DexieEmbeddingStore(db),
      importStore: new DexieMemoryImportStore(db),
      currentModel: async () => 'hash-64',
      embedder: async () => embedder,
      apiKey: async () => undefined,
    }),
  );
  await memory.call('importMemory', { text: VALID, mode: 'new' });
});

/** Experiences that arrive after the memory: its "good" tasks now score low, its "bad" ones high. */
async function contradict() {
  await repos.datasets.put({
    id: 'd',
    name: 'D',
    source: 'manual',
    preset: 'manual',
    scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
    raterPolicy: { kind: 'mean' },
    createdAt: 1,
  });
  for (const e of [exp('00001', 'ToolA', 1), exp('00002', 'ToolA', 1), exp('00003', 'ToolA', 5), exp('00004', 'ToolA', 5)]) await repos.experiences.put(e);
}

describe('drift over the app store', () => {
  it('nothing is stale before new experiences arrive', async () => {
    expect((await memory.call('drift', { memoryId: 'mem-test' })).flags).toEqual([]);
  });

  it('flags the entries whose evidence tasks are contradicted, with the experiences behind it', async () => {
    await contradict();
    const report = await memory.call('drift', { memoryId: 'mem-test' });
    // Tool mean 3; threshold 0.8: scores 1 contradict "good" (−2), scores 5 contradict "bad" (+2).
    expect(report.flags.map((f) => [f.entryId, f.contradicting.sort()])).toEqual([
      ['a1', ['d|ToolA|00001|r1', 'd|ToolA|00002|r1']],
      ['a2', ['d|ToolA|00003|r1', 'd|ToolA|00004|r1']],
    ]);
    expect(report.experiences['d|ToolA|00001|r1']).toMatchObject({ taskId: '00001', score: 1, prompt: 'a red fox number 00001' });
  });
});

describe('drift reads only what arrived after the memory', () => {
  const T = 1_700_000_000_000; // validFrom of every entry in memory-valid.json
  const importRecord = (id: string, startedAt: number, finishedAt: number) => ({
    id,
    datasetId: 'd',
    fileName: `${id}.csv`,
    preset: 'generic' as const,
    state: 'completed' as const,
    rowsRead: 2,
    accepted: 2,
    unchanged: 0,
    updated: 0,
    rejected: 0,
    errors: [],
    startedAt,
    finishedAt,
  });

  it('skips imports finished before the earliest entry, and flags rows from a later import', async () => {
    await repos.datasets.put({
      id: 'd',
      name: 'D',
      source: 'manual',
      preset: 'manual',
      scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
      raterPolicy: { kind: 'mean' },
      createdAt: 1,
    });
    expect(await repos.memories.earliestValidFrom('mem-test')).toBe(T);
    // The same contradicting scores, once from an import older than the memory, once from a newer one.
    const old = [exp('00001', 'ToolA', 1), exp('00002', 'ToolA', 1), exp('00003', 'ToolA', 5), exp('00004', 'ToolA', 5)].map((e) => ({
      ...e,
      id: `${e.id}|old`,
      rater: 'old',
      importId: 'imp-old',
      createdAt: T - 5_000,
    }));
    await repos.imports.put(importRecord('imp-old', T - 10_000, T - 1_000));
    await repos.experiences.writeImportBatch('imp-old', old);
    const read: string[] = [];
    const byImport = repos.experiences.byImport.bind(repos.experiences);
    repos.experiences.byImport = (id, signal) => (read.push(id), byImport(id, signal));

    expect((await memory.call('drift', { memoryId: 'mem-test' })).flags).toEqual([]);
    expect(read).toEqual([]); // the old import's rows were never read

    const fresh = [exp('00001', 'ToolA', 1), exp('00002', 'ToolA', 1)].map((e) => ({ ...e, importId: 'imp-new', createdAt: T + 5_000 }));
    await repos.imports.put(importRecord('imp-new', T + 1_000, T + 9_000));
    await repos.experiences.writeImportBatch('imp-new', fresh);
    const report = await memory.call('drift', { memoryId: 'mem-test' });
    expect(read).toEqual(['imp-new']);
    // Tool mean (all six rows) 14/6: the new 1s contradict "good" a1; the old 5s on "bad" a2's tasks arrived before it.
    expect(report.flags.map((f) => [f.entryId, f.contradicting.sort()])).toEqual([['a1', ['d|ToolA|00001|r1', 'd|ToolA|00002|r1']]]);
  });

  it('stops between reads when cancelled', async () => {
    await contradict();
    const controller = new AbortController();
    controller.abort();
    await expect(memory.call('drift', { memoryId: 'mem-test' }, { signal: controller.signal })).rejects.toThrow(/cancel/i);
  });
});

describe('test-case runs', () => {
  it('blocked without pinned tasks, and for a tool no memory covers', async () => {
    const none = await memory.call('runTestCases', { toolId: 'ToolA' });
    expect(none).toMatchObject({ kind: 'test-cases', state: 'blocked' });
    expect(none.error).toMatch(/pin tasks/);
    await repos.tools.put({ id: 'ToolZ', name: 'ToolZ', modality: 'other', description: '', testCases: [{ datasetId: 'd', taskId: '00001' }], createdAt: 1 });
    expect(await memory.call('runTestCases', { toolId: 'ToolZ' })).toMatchObject({
      state: 'blocked',
      error: expect.stringMatching(/No memory has entries for ToolZ/),
    });
    expect((await repos.runs.list('test-cases')).length).toBe(2);
  });

  it('predicts the pinned tasks with the memory, compares with the stored scores and records the Run', async () => {
    const tool = (await repos.tools.get('ToolA'))!;
    await repos.tools.put({ ...tool, testCases: [{ datasetId: 'd', taskId: '00001' }] });
    expect(await memory.call('runTestCases', { toolId: 'ToolA' })).toMatchObject({ state: 'not-run' }); // no score stored yet
    await contradict();
    await repos.tools.put({
      ...tool,
      testCases: [
        { datasetId: 'd', taskId: '00001' },
        { datasetId: 'd', taskId: '00003' },
        { datasetId: 'd', taskId: '09999' },
      ],
    });
    const run = await memory.call('runTestCases', { toolId: 'ToolA' });
    // Calibration of ToolA: mean 3.5, slope 0.5, so predictions lie in [2.5, 4.5]: the score 1 misses by > 1.
    const m = run.metrics as {
      evaluated: number;
      notRun: number;
      failed: number;
      cases: { taskId: string; predicted: number | null; actual: number | null }[];
    };
    expect(run.state).toBe('failed');
    expect(m).toMatchObject({ evaluated: 2, notRun: 1 });
    expect(m.failed).toBeGreaterThanOrEqual(1);
    for (const c of m.cases.filter((c) => c.actual !== null)) {
      expect(c.predicted).toBeGreaterThanOrEqual(2.5);
      expect(c.predicted).toBeLessThanOrEqual(4.5);
    }
    expect(await repos.runs.get(run.id)).toMatchObject({ state: 'failed', config: { toolId: 'ToolA', memoryId: 'mem-test' } });
  });
});
