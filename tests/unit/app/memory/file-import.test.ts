import { dropDbs } from '../../helpers/db';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DexieEmbeddingStore, type ToolMemDB } from '../../../../src/db';
import { createInThreadClient } from '../../../../src/rpc';
import { createImportHandlers } from '../../../../src/app/import/handlers';
import { memoryApps } from '../../helpers/memory-app';
import { readMemoryFile, serializeMemoryFile, type MemoryFile } from '../../../../src/core/memory-format';
import { createTransformersEmbedder } from '../../../../src/model-host/transformers-embedder';

const REPO = resolve(import.meta.dirname, '../../../..');
const BAD = resolve(REPO, 'tests/fixtures/bad-inputs');
const embedder = createTransformersEmbedder();
const app = memoryApps('mem-import', embedder);

/** Every table's rows, for "nothing changed" checks. */
async function dump(db: ToolMemDB) {
  const out: Record<string, unknown[]> = {};
  for (const t of db.tables) out[t.name] = await t.toArray();
  return JSON.stringify(out);
}

const validText = readFileSync(resolve(BAD, 'memory-valid.json'), 'utf8');
const canonicalValid = serializeMemoryFile(readMemoryFile(validText));

afterEach(dropDbs);

describe('memory import: new', () => {
  it('creates the memory, its entries with evidence and the missing tools; export gives the same bytes back', async () => {
    const { repos, memory } = await app();
    await repos.tools.put({ id: 'ToolA', name: 'Tool A', modality: 'text→image', description: '', createdAt: 1 });
    const res = await memory.call('importMemory', { text: validText, mode: 'new' });
    expect(res).toMatchObject({ ok: true, written: true, memoryId: 'mem-test', entries: 3, renamedIds: false, vectors: 'none' });
    const entries = await repos.memories.allEntries('mem-test');
    expect(entries.map((e) => `${e.toolId}|${e.level}|${e.text}|${e.evidence.join(',')}`).sort()).toEqual([
      'ToolA|bad|Struggles with fences|e3,e4',
      'ToolA|good|Handles red foxes|e1,e2',
      'ToolB|weak|Cannot count objects|e5',
    ]);
    expect(await repos.tools.get('ToolB')).toMatchObject({ name: 'Tool B', modality: 'text→image' });
    const out = await memory.call('exportMemory', { memoryId: 'mem-test' });
    expect(out.text).toBe(canonicalValid);
  });

  it('a file whose tools carry cost and latency exports them again (the round trip is byte-identical)', async () => {
    const { memory } = await app();
    const file = JSON.parse(validText) as MemoryFile;
    file.tools[0]!.cost = { perCall: 0.04, source: 'card' };
    file.tools[1]!.latency = { ms: 1200, source: 'data', n: 7 };
    const text = serializeMemoryFile(readMemoryFile(JSON.stringify(file)));
    expect(text).toContain('"perCall": 0.04');
    const res = await memory.call('importMemory', { text, mode: 'new' });
    expect(res).toMatchObject({ ok: true, written: true });
    const out = await memory.call('exportMemory', { memoryId: 'mem-test' });
    expect(out.text).toBe(text);
  });

  it('a dry run plans without writing', async () => {
    const { db, memory } = await app();
    const before = await dump(db);
    const res = await memory.call('importMemory', { text: validText, mode: 'new', dryRun: true });
    expect(res).toMatchObject({ ok: true, written: false, entries: 3 });
    expect(await dump(db)).toBe(before);
  });

  it('importing the same file twice gives a second memory with fresh ids, not a clash', async () => {
    const { repos, memory } = await app();
    await memory.call('importMemory', { text: validText, mode: 'new' });
    const again = await memory.call('importMemory', { text: validText, mode: 'new' });
    expect(again).toMatchObject({ ok: true, renamedIds: true });
    if (!again.ok) throw new Error('import failed');
    expect(again.memoryId).not.toBe('mem-test');
    expect((await repos.memories.list()).length).toBe(2);
    expect((await repos.memories.allEntries(again.memoryId)).every((e) => e.id.startsWith(`${again.memoryId}:`))).toBe(true);
  });

  it('stores the file’s entry vectors in the embedding cache only when its model is the chosen one', async () => {
    const file = readMemoryFile(validText);
    // 100 numbers each: the size of glove-100d's vectors (vectors of another size are refused).
    const unit = (i: number) => Array.from({ length: 100 }, (_, j) => (j === i ? 1 : 0));
    const vectors = { a1: unit(0), a2: unit(1), b1: unit(2) };
    const withVectors = (model: string): string =>
      serializeMemoryFile({ ...file, memory: { ...file.memory, embeddingModel: model }, embeddings: { model, dim: 100, vectors } } as MemoryFile);
    const a = await app();
    const skipped = await a.memory.call('importMemory', { text: withVectors('hash-64'), mode: 'new' });
    expect(skipped).toMatchObject({ ok: true, vectors: 'skipped' });
    expect(await new DexieEmbeddingStore(a.db).count()).toBe(0);
    const b = await app();
    const text = withVectors('glove-100d@2790b023');
    const stored = await b.memory.call('importMemory', { text, mode: 'new' });
    expect(stored).toMatchObject({ ok: true, vectors: 'stored' });
    expect(await new DexieEmbeddingStore(b.db).count()).toBe(3);
    // Round trip with the vectors: they come back from the cache.
    expect((await b.memory.call('exportMemory', { memoryId: 'mem-test' })).text).toBe(text);
  });
});

describe('memory import: broken files change nothing', () => {
  // Valid files of the corpus (positive cases, tests/unit/memory-format/bad-memory.test.ts).
  const valid = new Set(['memory-valid.json', 'memory-proto-tool.json', 'memory-constructor-entry-id.json']);
  const broken = readdirSync(BAD).filter((f) => /^memory-.*\.json$/.test(f) && !valid.has(f));
  it('has broken memory fixtures to check', () => expect(broken.length).toBeGreaterThanOrEqual(6));
  for (const name of broken) {
    it(`${name}: every problem with its JSON path, all tables unchanged (new and merge)`, async () => {
      const { db, memory } = await app();
      await memory.call('importMemory', { text: validText, mode: 'new' });
      const before = await dump(db);
      const text = readFileSync(resolve(BAD, name), 'utf8');
      for (const mode of ['new', 'merge'] as const) {
        const res = await memory.call('importMemory', { text, mode, memoryId: 'mem-test' });
        expect(res.ok).toBe(false);
        if (res.ok) continue;
        expect(res.issues.length).toBeGreaterThan(0);
        for (const i of res.issues) expect(i.path).toMatch(/^\$/);
      }
      expect(await dump(db)).toBe(before);
    });
  }
});

describe('memory import: merge', () => {
  it('previews what it adds and replaces, then writes it in one change that Undo reverts', async () => {
    const { db, repos, memory } = await app();
    await memory.call('importMemory', { text: validText, mode: 'new' });
    const file = readMemoryFile(validText);
    const incoming: MemoryFile = structuredClone(file);
    incoming.memory.id = 'mem-other';
    const toolA = incoming.tools[0]!;
    // Same claim with more evidence → replaces a1; a new claim → added; a new tool → created.
    toolA.entries[0] = { ...toolA.entries[0]!, id: 'x1', text: 'handles  RED foxes', evidence: ['e1', 'e9'], evidenceTasks: ['00001', '00009'], support: 2 };
    toolA.entries.push({
      id: 'x2',
      level: 'proficient',
      value: 2,
      text: 'Excellent at snowy scenes',
      origin: 'manual',
      support: 1,
      evidence: ['e7'],
      evidenceTasks: ['00007'],
      pinned: false,
      validFrom: 1700000000001,
    });
    toolA.counts.proficient = 1;
    incoming.tools.push({
      id: 'ToolC',
      name: 'Tool C',
      modality: 'text→text',
      description: 'a chat model',
      counts: { proficient: 0, good: 1, bad: 0, weak: 0 },
      entries: [
        {
          id: 'c1',
          level: 'good',
          value: 1,
          text: 'Writes haiku',
          origin: 'llm',
          support: 1,
          evidence: ['e8'],
          evidenceTasks: ['00008'],
          pinned: false,
          validFrom: 1700000000002,
        },
      ],
    });
    incoming.build.calibration.ToolC = { mean: 4, slope: 0.5, n: 4 };
    const text = serializeMemoryFile(incoming);

    const before = await dump(db);
    const preview = await memory.call('importMemory', { text, mode: 'merge', memoryId: 'mem-test', dryRun: true });
    expect(await dump(db)).toBe(before);
    if (!preview.ok) throw new Error(JSON.stringify(preview.issues));
    expect(preview.merge!.added.map((a) => `${a.toolId}|${a.level}|${a.text}`).sort()).toEqual([
      'ToolA|proficient|Excellent at snowy scenes',
      'ToolC|good|Writes haiku',
    ]);
    expect(preview.merge!.replaced).toEqual([{ id: 'a1', toolId: 'ToolA', level: 'good', text: 'Handles red foxes', evidenceAdded: 1 }]);
    expect(preview.merge!.toolsAdded).toEqual(['ToolC']);
    expect(preview.merge!.unchanged).toBe(2);

    const res = await memory.call('importMemory', { text, mode: 'merge', memoryId: 'mem-test' });
    expect(res).toMatchObject({ ok: true, written: true, entries: 5 });
    const valid = (await repos.memories.allEntries('mem-test')).filter((e) => e.validTo === null);
    expect(valid.find((e) => e.text === 'Handles red foxes')!.evidence).toEqual(['e1', 'e2', 'e9']);
    expect(await repos.tools.get('ToolC')).toMatchObject({ name: 'Tool C', description: 'a chat model' });
    const exported = readMemoryFile((await memory.call('exportMemory', { memoryId: 'mem-test' })).text);
    expect(exported.build.calibration.ToolC).toEqual({ mean: 4, slope: 0.5, n: 4 });
    expect(exported.tools.find((t) => t.id === 'ToolA')!.entries.find((e) => e.text === 'Handles red foxes')!.evidenceTasks).toEqual([
      '00001',
      '00002',
      '00009',
    ]);

    // Undo per tool reverts the merge's change to that tool.
    await memory.call('undoMemory', { memoryId: 'mem-test', toolId: 'ToolA' });
    const back = (await repos.memories.allEntries('mem-test')).filter((e) => e.validTo === null && e.toolId === 'ToolA');
    expect(back.map((e) => e.id).sort()).toEqual(['a1', 'a2']);
  });

  it('refuses a file with another embedding model, with its path, and changes nothing', async () => {
    const { db, memory } = await app();
    await memory.call('importMemory', { text: validText, mode: 'new' });
    const other = readMemoryFile(validText);
    other.memory.embeddingModel = 'minilm@abc';
    const before = await dump(db);
    const res = await memory.call('importMemory', { text: serializeMemoryFile(other), mode: 'merge', memoryId: 'mem-test' });
    expect(res).toMatchObject({ ok: false, issues: [{ path: '$.memory.embeddingModel' }] });
    expect(await dump(db)).toBe(before);
  });
});

describe('round trip of a built memory', () => {
  it('export → import (fresh browser) → export is byte-identical, with and without history', async () => {
    const source = await app();
    const imports = createInThreadClient(createImportHandlers(source.repos));
    const data = new File([readFileSync(resolve(REPO, 'tests/fixtures/import/genai_image_slice.json'))], 'genai_image.json');
    await imports.call('import', { file: data, datasetName: 'G' });
    const run = await source.memory.call('createBuild', { datasetId: 'g', engine: { kind: 'none' } });
    await source.memory.call('runBuild', { runId: run.id });
    const memoryId = (run.config as { memoryId: string }).memoryId;
    for (const history of [false, true]) {
      const first = (await source.memory.call('exportMemory', { memoryId, history })).text;
      const target = await app();
      const res = await target.memory.call('importMemory', { text: first, mode: 'new' });
      expect(res).toMatchObject({ ok: true, memoryId, renamedIds: false });
      expect((await target.memory.call('exportMemory', { memoryId, history })).text).toBe(first);
      // Merging the memory's own file into its import changes nothing.
      const merged = await target.memory.call('importMemory', { text: first, mode: 'merge', memoryId });
      expect(merged).toMatchObject({ ok: true, merge: { added: [], replaced: [] } });
      expect((await target.memory.call('exportMemory', { memoryId, history })).text).toBe(first);
    }
  }, 60_000);
});
