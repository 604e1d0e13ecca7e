import { withDb } from '../../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DexieEmbeddingStore } from '../../../../src/db/embedding-store';
import { createInThreadClient, type Client } from '../../../../src/rpc';
import { createImportHandlers } from '../../../../src/app/import/handlers';
import { createMemoryHandlers, modelOf } from '../../../../src/app/memory/handlers';
import type { MemoryApi } from '../../../../src/app/memory/api';
import type { Repositories } from '../../../../src/core/repositories';
import { createTransformersEmbedder } from '../../../../src/model-host/transformers-embedder';
import type { MemoryEntry } from '../../../../src/core/records';
import { CAPABILITY_TOOLS, capabilityCsv } from '../capability-fixture';

const REPO = resolve(import.meta.dirname, '../../../..');
const embedder = createTransformersEmbedder();
let repos: Repositories;
let memory: Client<MemoryApi>;

withDb('mem-svc', async ({ db, repos: r }) => {
  repos = r;
  memory = createInThreadClient(
    createMemoryHandlers({
      repos,
      store: new DexieEmbeddingStore(db),
      currentModel: async () => 'glove-100d',
      embedder: async () => embedder,
      apiKey: async () => undefined,
    }),
  );
  const imports = createInThreadClient(createImportHandlers(repos));
  const file = new File([readFileSync(resolve(REPO, 'tests/fixtures/import/genai_image_slice.json'))], 'genai_image.json');
  await imports.call('import', { file, datasetName: 'G' });
  // A dataset with clear effects (the 20-prompt slice is too small for any): capability-fixture.ts.
  await imports.call('import', {
    file: new File([capabilityCsv()], 'capability.csv'),
    datasetName: 'Cap',
    scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
  });
});

const shape = (entries: MemoryEntry[]) =>
  entries
    .filter((e) => e.validTo === null)
    .map((e) => `${e.toolId}|${e.level}|${e.text}|${[...e.evidence].sort().join(',')}`)
    .sort();

describe('memory service (engine none)', () => {
  it('builds capability entries (facet, effect, evidence) and stores the snapshot on the memory', async () => {
    const run = await memory.call('createBuild', { datasetId: 'cap', engine: { kind: 'none' } });
    expect(run.state).toBe('queued');
    const done = await memory.call('runBuild', { runId: run.id });
    expect(done.state).toBe('completed');
    const memoryId = (run.config as { memoryId: string }).memoryId;
    const all = (await repos.memories.allEntries(memoryId)).filter((e) => e.validTo === null);
    // Every tool has its profile; the facet entries follow.
    expect(
      all
        .filter((e) => e.profile)
        .map((e) => e.toolId)
        .sort(),
    ).toEqual([...CAPABILITY_TOOLS].sort());
    const entries = all.filter((e) => !e.profile);
    const weak = entries.find((e) => e.toolId === 'A' && e.facet?.name === 'negation (tagged)');
    expect(weak, JSON.stringify(entries.map((e) => e.text))).toBeDefined();
    expect(weak!.value).toBeLessThan(0);
    expect(weak!.effect!.n).toBe(20);
    expect(entries.some((e) => e.toolId === 'B' && /negation/.test(e.facet?.name ?? '') && e.value > 0)).toBe(true);
    for (const e of entries) {
      expect(e.evidence.length).toBe(e.effect!.n);
      for (const id of e.evidence) expect((await repos.experiences.get(id))?.toolId, id).toBe(e.toolId);
    }
    const stored = (await repos.memories.get(memoryId))!;
    expect(stored.embeddingModel).toBe(embedder.id);
    expect(stored.capability?.tools).toEqual([...CAPABILITY_TOOLS]);
    expect(
      stored.capability?.cells
        .filter((c) => c.entryId !== null)
        .map((c) => c.entryId)
        .sort(),
    ).toEqual(entries.map((e) => e.id).sort());
    expect(modelOf(embedder.id)).toBe('glove-100d');
  });

  it('`build` creates and runs a build in one call, reading the dataset once, to the same memory as createBuild + runBuild', async () => {
    const two = await memory.call('createBuild', { datasetId: 'cap', engine: { kind: 'none' }, name: 'two calls' });
    await memory.call('runBuild', { runId: two.id });
    const byDataset = repos.experiences.byDataset.bind(repos.experiences);
    let reads = 0;
    repos.experiences.byDataset = (...args) => ((reads += 1), byDataset(...args));
    try {
      const done = await memory.call('build', { datasetId: 'cap', engine: { kind: 'none' }, name: 'one call', runId: 'build-one-call' });
      expect(done.id).toBe('build-one-call');
      expect(done.state).toBe('completed');
      expect(reads).toBe(1);
      const entries = async (run: { config: unknown }) => shape(await repos.memories.allEntries((run.config as { memoryId: string }).memoryId));
      expect(await entries(done)).toEqual(await entries(two));
      await expect(memory.call('build', { datasetId: 'cap', engine: { kind: 'none' }, runId: 'build-one-call' })).rejects.toThrow(/already/);
    } finally {
      repos.experiences.byDataset = byDataset;
    }
  });

  it('a build stopped before its step resumes to the same memory as an uninterrupted build', async () => {
    const full = await memory.call('createBuild', { datasetId: 'cap', engine: { kind: 'none' }, name: 'full' });
    await memory.call('runBuild', { runId: full.id });

    const part = await memory.call('createBuild', { datasetId: 'cap', engine: { kind: 'none' }, name: 'part' });
    const abort = new AbortController();
    const stopped = memory.call('runBuild', { runId: part.id }, { signal: abort.signal }).catch((e: Error) => e);
    abort.abort();
    // The caller sees the cancellation; the job itself stops between steps and saves its cursor.
    expect(await stopped).toBeInstanceOf(Error);
    const settled = async () => {
      for (let i = 0; i < 200; i++) {
        const r = await repos.memories.getRun(part.id);
        if (r && r.state !== 'running') return r;
        await new Promise((done) => setTimeout(done, 20));
      }
      return repos.memories.getRun(part.id);
    };
    const saved = await settled();
    // Cancelled before the job took its first step (queued) or between steps (paused): nothing half-done.
    expect(['queued', 'paused', 'completed']).toContain(saved?.state);
    const resumed = await memory.call('runBuild', { runId: part.id });
    expect(resumed.state).toBe('completed');
    const a = shape(await repos.memories.allEntries((full.config as { memoryId: string }).memoryId));
    const b = shape(await repos.memories.allEntries((part.config as { memoryId: string }).memoryId));
    expect(b).toEqual(a);
    expect(a.length).toBeGreaterThanOrEqual(2);
  });

  it('undo reverts the latest change of a tool', async () => {
    const run = await memory.call('createBuild', { datasetId: 'cap', engine: { kind: 'none' } });
    await memory.call('runBuild', { runId: run.id });
    const memoryId = (run.config as { memoryId: string }).memoryId;
    const before = (await repos.memories.validEntries(memoryId, 'A')).length;
    expect(before).toBeGreaterThan(0);
    const res = await memory.call('undoMemory', { memoryId, toolId: 'A' });
    expect(res.undone).toBe(true);
    expect(await repos.memories.validEntries(memoryId, 'A')).toEqual([]);
    expect((await repos.memories.validEntries(memoryId, 'B')).length).toBeGreaterThan(0);
  });

  it('refuses a malformed endpoint before creating anything', async () => {
    await expect(memory.call('createBuild', { datasetId: 'g', engine: { kind: 'openai', baseUrl: 'not a url', model: 'm' } })).rejects.toThrow();
    expect(await repos.memories.list()).toEqual([]);
  });
});

describe('memory export', () => {
  it('writes a valid toolmem-memory file whose canonical text round-trips byte for byte', async () => {
    const { parseMemoryFile, serializeMemoryFile } = await import('../../../../src/core/memory-format');
    const run = await memory.call('createBuild', { datasetId: 'cap', engine: { kind: 'none' }, name: 'Slice memory' });
    await memory.call('runBuild', { runId: run.id });
    const memoryId = (run.config as { memoryId: string }).memoryId;
    const out = await memory.call('exportMemory', { memoryId });
    expect(out.fileName).toBe('slice-memory.toolmem-memory.json');
    const parsed = parseMemoryFile(out.text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(serializeMemoryFile(parsed.file)).toBe(out.text);
    expect(parsed.file.version).toBe(4);
    expect(parsed.file.build.capability?.tools).toEqual([...CAPABILITY_TOOLS]);
    const entries = (await repos.memories.allEntries(memoryId)).filter((e) => e.validTo === null);
    const fileEntries = parsed.file.tools.flatMap((t) => t.entries);
    expect(fileEntries).toHaveLength(entries.length);
    // Evidence is also named by task ids, which stay meaningful outside this browser.
    expect(fileEntries.length).toBeGreaterThan(0);
    expect(fileEntries.every((e) => e.evidenceTasks.length > 0 && e.evidenceTasks.every((t: string) => /^t\d{2}$/.test(t)))).toBe(true);
  });
});
