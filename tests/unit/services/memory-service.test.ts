import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolMemDB, createRepositories } from '../../../src/db';
import { DexieEmbeddingStore } from '../../../src/db/embedding-store';
import { createInThreadClient, type Client } from '../../../src/rpc';
import { createImportHandlers } from '../../../src/services/import-service';
import { createMemoryHandlers, modelOf } from '../../../src/services/memory-service';
import type { MemoryApi } from '../../../src/services/memory-api';
import type { Repositories } from '../../../src/core/repositories';
import { createTransformersEmbedder } from '../../../src/node/transformers-embedder';
import type { MemoryEntry } from '../../../src/core/types';

const REPO = resolve(import.meta.dirname, '../../..');
const embedder = createTransformersEmbedder();
let db: ToolMemDB;
let repos: Repositories;
let memory: Client<MemoryApi>;
let n = 0;

beforeEach(async () => {
  db = new ToolMemDB(`mem-svc-${++n}`);
  await db.open();
  repos = createRepositories(db);
  memory = createInThreadClient(
    createMemoryHandlers({ repos, store: new DexieEmbeddingStore(db), currentModel: async () => 'glove-100d', embedder: async () => embedder, apiKey: async () => undefined }),
  );
  const imports = createInThreadClient(createImportHandlers(repos));
  const file = new File([readFileSync(resolve(REPO, 'tests/fixtures/import/genai_image_slice.json'))], 'genai_image.json');
  await imports.call('import', { file, datasetName: 'G' });
});
afterEach(async () => {
  await db.delete();
});

const shape = (entries: MemoryEntry[]) =>
  entries.filter((e) => e.validTo === null).map((e) => `${e.toolId}|${e.level}|${e.text}|${[...e.evidence].sort().join(',')}`).sort();

describe('memory service (engine none)', () => {
  it('builds evidence-cluster entries for every tool in at least two levels, each linked to evidence', async () => {
    const run = await memory.call('createBuild', { datasetId: 'g', engine: 'none' });
    expect(run.state).toBe('queued');
    const done = await memory.call('runBuild', { runId: run.id });
    expect(done.state).toBe('completed');
    const memoryId = (run.config as { memoryId: string }).memoryId;
    const entries = (await repos.memories.allEntries(memoryId)).filter((e) => e.validTo === null);
    const tools = ['DALLE_3', 'DeepFloyd_I_XL_v1', 'Midjourney_6', 'SDXL_2_1', 'SDXL_Base', 'SDXL_Turbo'];
    for (const tool of tools) {
      const levels = new Set(entries.filter((e) => e.toolId === tool).map((e) => e.level));
      expect(levels.size, tool).toBeGreaterThanOrEqual(2);
    }
    for (const e of entries) {
      expect(e.evidence.length).toBeGreaterThan(0);
      for (const id of e.evidence) expect(await repos.experiences.get(id), id).toBeDefined();
    }
    expect((await repos.memories.get(memoryId))?.embeddingModel).toBe(embedder.id);
    expect(modelOf(embedder.id)).toBe('glove-100d');
  });

  it('a build stopped half-way resumes to the same memory as an uninterrupted build', async () => {
    const full = await memory.call('createBuild', { datasetId: 'g', engine: 'none', name: 'full' });
    await memory.call('runBuild', { runId: full.id });

    const part = await memory.call('createBuild', { datasetId: 'g', engine: 'none', name: 'part' });
    const abort = new AbortController();
    let steps = 0;
    const paused = await memory.call('runBuild', { runId: part.id }, { signal: abort.signal, onProgress: () => ++steps === 3 && abort.abort() }).catch((e: Error) => e);
    // The caller sees the cancellation; the job itself stopped between steps and saved its cursor.
    expect(paused).toBeInstanceOf(Error);
    for (let i = 0; i < 50 && (await repos.memories.getRun(part.id))?.state === 'running'; i++) await new Promise((r) => setTimeout(r, 20));
    const saved = await repos.memories.getRun(part.id);
    expect(saved?.state).toBe('paused');
    expect((saved?.metrics as { done: number }).done).toBe(3);
    const resumed = await memory.call('runBuild', { runId: part.id });
    expect(resumed.state).toBe('completed');
    const a = shape(await repos.memories.allEntries((full.config as { memoryId: string }).memoryId));
    const b = shape(await repos.memories.allEntries((part.config as { memoryId: string }).memoryId));
    expect(b).toEqual(a);
    expect(a.length).toBeGreaterThan(6);
  });

  it('undo reverts the latest change of a tool', async () => {
    const run = await memory.call('createBuild', { datasetId: 'g', engine: 'none' });
    await memory.call('runBuild', { runId: run.id });
    const memoryId = (run.config as { memoryId: string }).memoryId;
    const before = (await repos.memories.validEntries(memoryId, 'SDXL_Turbo')).length;
    expect(before).toBeGreaterThan(0);
    const res = await memory.call('undo', { memoryId, toolId: 'SDXL_Turbo' });
    expect(res.undone).toBe(true);
    expect(await repos.memories.validEntries(memoryId, 'SDXL_Turbo')).toEqual([]);
    expect((await repos.memories.validEntries(memoryId, 'DALLE_3')).length).toBeGreaterThan(0);
  });

  it('refuses a malformed endpoint before creating anything', async () => {
    await expect(memory.call('createBuild', { datasetId: 'g', engine: 'openai:not a url' })).rejects.toThrow();
    expect(await repos.memories.list()).toEqual([]);
  });
});

describe('memory export', () => {
  it('writes a valid toolmem-memory file whose canonical text round-trips byte for byte', async () => {
    const { parseMemoryFile, serializeMemoryFile } = await import('../../../src/core/memory-format');
    const run = await memory.call('createBuild', { datasetId: 'g', engine: 'none', name: 'Slice memory' });
    await memory.call('runBuild', { runId: run.id });
    const memoryId = (run.config as { memoryId: string }).memoryId;
    const out = await memory.call('exportMemory', { memoryId });
    expect(out.fileName).toBe('slice-memory.toolmem-memory.json');
    const parsed = parseMemoryFile(out.text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(serializeMemoryFile(parsed.file)).toBe(out.text);
    expect(parsed.file.tools.find((t) => t.id === 'DALLE_3')?.modality).toBe('text→image');
    const entries = (await repos.memories.allEntries(memoryId)).filter((e) => e.validTo === null);
    const fileEntries = parsed.file.tools.flatMap((t) => t.entries);
    expect(fileEntries).toHaveLength(entries.length);
    // Evidence is also named by task ids, which stay meaningful outside this browser.
    expect(fileEntries.every((e) => e.evidenceTasks.length > 0 && e.evidenceTasks.every((t: string) => /^\d{5}$/.test(t)))).toBe(true);
  });
});
