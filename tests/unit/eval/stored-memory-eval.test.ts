/** Evaluating a STORED memory (EvalConfig.memoryId): its own split, its own entries. */
import { dropDbs, newDb } from '../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitByTask } from '../../../src/core/eval/split';
import { ScriptedEngine } from '../../../src/core/llm';
import { newEntry } from '../../../src/core/memory';
import { readMemoryFile } from '../../../src/core/memory-format';
import type { Embedder } from '../../../src/core/embed';
import { createRepositories } from '../../../src/db';
import { DexieEmbeddingStore } from '../../../src/db/embedding-store';
import { DexieMemoryImportStore } from '../../../src/db/memory-import-store';
import { createTransformersEmbedder } from '../../../src/model-host/transformers-embedder';
import { createInThreadClient } from '../../../src/rpc';
import type { EvalConfig, EvalResult } from '../../../src/app/evaluate/api';
import { evaluableMemories } from '../../../src/app/evaluate/memory-plan';
import { createEvalHandlers } from '../../../src/app/evaluate/evaluate';
import { createImportHandlers } from '../../../src/app/import/handlers';
import { createMemoryHandlers } from '../../../src/app/memory/handlers';

const REPO = resolve(import.meta.dirname, '../../..');
const db = newDb('eval-stored-memory');
const repos = createRepositories(db);
const embedder = createTransformersEmbedder();
const prompts: string[] = [];
const engine = new ScriptedEngine((messages) => {
  prompts.push(messages.at(-1)!.content);
  return '{"score": 3}';
});
const evalWith = (e: Embedder) => createInThreadClient(createEvalHandlers({ repos, embedder: async () => e, engineOf: () => engine }));
const client = evalWith(embedder);
const memory = createInThreadClient(
  createMemoryHandlers({
    repos,
    store: new DexieEmbeddingStore(db),
    importStore: new DexieMemoryImportStore(db),
    currentModel: async () => 'glove-100d',
    embedder: async () => embedder,
    apiKey: async () => undefined,
  }),
);
/** The 20 tasks of the GenAI-Bench slice, and a memory built on 10 of them (seed 1). */
let ALL: string[] = [];
let memoryId = '';
let buildTrain: string[] = [];

async function build(req: { trainSize?: number; seed?: number; name: string }): Promise<string> {
  const run = await memory.call('createBuild', { datasetId: 'g', engine: { kind: 'none' }, ...req });
  await memory.call('runBuild', { runId: run.id });
  return (run.config as { memoryId: string }).memoryId;
}
const evaluate = async (config: Partial<EvalConfig>) =>
  (await client.call('evaluate', { datasetId: 'g', seeds: 1, methods: ['memory'], memoryId, ...config })).metrics as unknown as EvalResult;
const validIds = async (id: string) => new Set((await repos.memories.allEntries(id)).filter((e) => e.validTo === null).map((e) => e.id));

beforeAll(async () => {
  await db.open();
  const imports = createInThreadClient(createImportHandlers(repos));
  await imports.call('import', {
    file: new File([readFileSync(resolve(REPO, 'tests/fixtures/import/genai_image_slice.json'))], 'genai_image.json'),
    datasetName: 'G',
  });
  ALL = [...new Set((await repos.experiences.byDataset('g')).map((e) => e.taskId))].sort();
  expect(ALL).toHaveLength(20);
  memoryId = await build({ trainSize: 10, seed: 1, name: 'Ten' });
  // Ten tasks are too few for a clear capability effect: two hand-written entries give the
  // retrieval methods something to quote (the capability model itself reads only facet entries).
  await repos.memories.applyUpdate(
    [],
    ['DALLE_3', 'SDXL_2_1'].map((toolId, i) =>
      newEntry({
        id: `manual-${i}`,
        memoryId,
        toolId,
        level: i ? 'bad' : 'good',
        text: i ? 'Struggles with crowded scenes' : 'Renders signs and lettering well',
        evidence: [],
        origin: 'manual',
        at: 5,
      }),
    ),
    5,
  );
  // What the build itself wrote down as its training tasks (the export path, memory-service).
  buildTrain = readMemoryFile((await memory.call('exportMemory', { memoryId })).text).build.split.trainTasks;
});
afterAll(async () => {
  await dropDbs();
});

describe('evaluating a stored memory', { timeout: 60_000 }, () => {
  it('uses the memory’s own split: its 10 training tasks, and the other 10 as test tasks', async () => {
    const r = await evaluate({ methods: ['memory', 'tool-mean'] });
    expect(buildTrain).toHaveLength(10);
    expect([...r.memory!.trainTasks].sort()).toEqual([...buildTrain].sort());
    expect(r.memory!.testTasks.filter((t) => buildTrain.includes(t))).toEqual([]);
    expect([...r.memory!.trainTasks, ...r.memory!.testTasks].sort()).toEqual(ALL);
    // Built with train 10 / seed 1, it is the split of an ordinary evaluation with seed 1 …
    const seeded = splitByTask(ALL, { train: 10, test: 10 }, 1);
    expect(r.memory!.testTasks).toEqual(seeded.test);
    expect(r.sizes).toEqual({ train: 10, test: 10 });
    // … so tool-mean, fitted on the same training tasks, gives that evaluation's numbers.
    const plain = (await client.call('evaluate', { datasetId: 'g', train: 10, test: 10, seeds: 1, methods: ['tool-mean'] })).metrics as unknown as EvalResult;
    expect(r.report.methods['tool-mean']).toEqual(plain.report.methods['tool-mean']);
    expect(r.memory).toMatchObject({ id: memoryId, name: 'Ten', engine: 'none', source: 'build', seed: 1, embeddingModel: embedder.id });
    const run = (await repos.runs.list('eval')).find((x) => (x.metrics as unknown as EvalResult | undefined)?.memory?.id === memoryId);
    expect((run!.config as unknown as EvalConfig).memoryId).toBe(memoryId);
  });

  it('caps the test tasks with `test`, keeping the first of the same order', async () => {
    const r = await evaluate({ test: 4 });
    expect(r.memory!.testTasks).toEqual(splitByTask(ALL, { train: 10, test: 4 }, 1).test);
    expect(r.report.methods.memory!.tools.DALLE_3!.n).toBe(4);
  });

  it('memory, toolmem-llm and hybrid retrieve the stored entries (evidence ids are entries of that memory)', async () => {
    prompts.length = 0;
    const r = await evaluate({ methods: ['memory', 'toolmem-llm', 'hybrid'], engine: 'openai:http://127.0.0.1:9/v1#m', llmMaxTest: 2 });
    const ids = await validIds(memoryId);
    expect(r.memory!.entries).toBe(ids.size);
    for (const m of ['memory', 'toolmem-llm', 'hybrid']) {
      // memory predicts with the stored capability model: it cites only that memory's facet entries.
      if (m !== 'memory') expect(r.memory!.cited[m]!.length, m).toBeGreaterThan(0);
      expect(
        r.memory!.cited[m]!.filter((id) => !ids.has(id)),
        m,
      ).toEqual([]);
    }
    // 2 test tasks × 6 tools, for each LLM method; the prompts quote the stored entries' texts.
    expect(prompts).toHaveLength(24);
    const texts = (await repos.memories.allEntries(memoryId)).filter((e) => ids.has(e.id)).map((e) => e.text);
    // At least the prompts of the two tools with an entry (2 test tasks × 2 tools × 2 methods) quote it.
    expect(prompts.filter((p) => texts.some((t) => p.includes(t))).length).toBeGreaterThanOrEqual(8);
  });

  it('an imported memory: its file’s training tasks, whatever the seed', async () => {
    const file = readMemoryFile((await memory.call('exportMemory', { memoryId })).text);
    const trainTasks = ALL.slice(0, 5);
    const text = JSON.stringify({ ...file, memory: { ...file.memory, id: 'mem-imported', name: 'Imported' }, build: { ...file.build, split: { trainTasks } } });
    const res = await memory.call('importMemory', { text, mode: 'new' });
    if (!res.ok) throw new Error(JSON.stringify(res.issues));
    const r = await evaluate({ memoryId: res.memoryId });
    expect([...r.memory!.trainTasks].sort()).toEqual(trainTasks);
    // Its entries cite tasks of the original 10: those were seen too, so they are kept out of the test side.
    const cited = new Set(file.tools.flatMap((t) => t.entries.flatMap((e) => e.evidenceTasks)));
    expect([...cited].filter((t) => !trainTasks.includes(t)).length).toBeGreaterThan(0);
    expect(r.memory!.testTasks.filter((t) => cited.has(t) || trainTasks.includes(t))).toEqual([]);
    expect(r.memory!.testTasks).toHaveLength(20 - new Set([...trainTasks, ...cited]).size);
    expect(r.memory).toMatchObject({ source: 'imported', seed: 1 });
    const listed = await evaluableMemories(repos, 'g');
    expect(listed.find((m) => m.id === res.memoryId)).toMatchObject({ source: 'imported', train: 5, engine: 'none' });
  });

  it('lists the completed builds of the dataset with engine and split, not unfinished ones', async () => {
    await memory.call('createBuild', { datasetId: 'g', engine: { kind: 'none' }, name: 'Queued' });
    const listed = await evaluableMemories(repos, 'g');
    expect(listed.find((m) => m.id === memoryId)).toEqual({
      id: memoryId,
      name: 'Ten',
      engine: 'none',
      embeddingModel: embedder.id,
      source: 'build',
      createdAt: expect.any(Number),
      train: 10,
      seed: 1,
    });
    expect(listed.some((m) => m.name === 'Queued')).toBe(false);
    expect(await evaluableMemories(repos, 'other-dataset')).toEqual([]);
  });

  it('refuses what cannot be evaluated honestly, saying why', async () => {
    await expect(evaluate({ seeds: 3 })).rejects.toThrow(/one split, its own: evaluate the memory “Ten” with 1 seed/);
    await expect(evaluate({ train: 5 })).rejects.toThrow(/leave “Train tasks” empty/);
    await expect(evaluate({ memoryId: 'nope' })).rejects.toThrow(/There is no memory nope/);
    const other: Embedder = { id: 'other-model@0', dim: embedder.dim, embed: (t, o) => embedder.embed(t, o) };
    await expect(evalWith(other).call('evaluate', { datasetId: 'g', seeds: 1, methods: ['memory'], memoryId })).rejects.toThrow(
      new RegExp(`embedded with ${embedder.id}, but other-model@0 is loaded`),
    );
    const all = await build({ name: 'All' });
    await expect(evaluate({ memoryId: all })).rejects.toThrow(/learned from all 20 tasks of G: no task it never saw/);
  });
});
