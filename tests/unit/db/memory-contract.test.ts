import { dropDbs, freshDb } from '../helpers/db';
import { afterEach, describe, expect, it } from 'vitest';
import { DexieMemoryRepository } from '../../../src/db/memory-repo';
import { InMemoryMemoryRepository, type BuildMemoryRepository } from '../../../src/core/memory/repository';
import type { BuildRun, MemoryEntry } from '../../../src/core/records';
import { buildConfigFor } from '../memory/helpers';

// The same contract for the browser store and the CLI's in-memory store.
const entry = (id: string, over: Partial<MemoryEntry> = {}): MemoryEntry => ({
  id,
  memoryId: 'm',
  toolId: 'T',
  level: 'good',
  value: 1,
  text: `text ${id}`,
  evidence: ['e'],
  support: 1,
  origin: 'llm',
  pinned: false,
  validFrom: 1,
  validTo: null,
  supersededBy: null,
  createdAt: 1,
  updatedAt: 1,
  ...over,
});
const run = (cursor: number): BuildRun => ({ id: 'build-1', kind: 'build', state: 'running', config: buildConfigFor(['T']), cursor, startedAt: 0 });

afterEach(dropDbs);

const stores: [string, () => Promise<BuildMemoryRepository>][] = [
  ['in-memory', async () => new InMemoryMemoryRepository()],
  [
    'dexie',
    async () => {
      return new DexieMemoryRepository((await freshDb('mem-contract')).db);
    },
  ],
];

describe.each(stores)('memory repository contract (%s)', (_name, make) => {
  it('outlines a memory (tools, row count) and reads one tool at a time, every version', async () => {
    const repo = await make();
    await repo.applyUpdate([], [entry('a'), entry('b', { toolId: 'S' }), entry('x', { memoryId: 'other', toolId: 'Z' })], 10);
    await repo.applyUpdate([{ id: 'a', supersededBy: 'c' }], [entry('c')], 20);
    expect(await repo.outline('m')).toEqual({ toolIds: ['S', 'T'] });
    expect(await repo.entryCount('m')).toBe(3);
    expect(await repo.outline('none')).toEqual({ toolIds: [] });
    expect(await repo.entryCount('none')).toBe(0);
    const t = (await repo.toolEntries('m', 'T')).map((e) => `${e.id}:${e.validTo === null ? 'valid' : 'old'}`).sort();
    expect(t).toEqual(['a:old', 'c:valid']);
    expect((await repo.toolEntries('m', 'T', 'good')).length).toBe(2);
    expect(await repo.toolEntries('m', 'T', 'bad')).toEqual([]);
    expect(await repo.earliestValidFrom('m')).toBe(1);
    expect(await repo.earliestValidFrom('none')).toBeNull();
  });

  it('outlines every tool once: many rows per tool, tool ids that extend others, memory ids that extend others', async () => {
    const repo = await make();
    const rows = ['A', 'A\u0000b', 'Ab', 'B', 'b', ''].flatMap((toolId, i) =>
      Array.from({ length: 5 }, (_, j) => entry(`${i}-${j}`, { toolId, validFrom: 100 - i })),
    );
    await repo.applyUpdate([], [...rows, entry('z', { memoryId: 'mm', toolId: 'Q' }), entry('y', { memoryId: 'm\u0000', toolId: 'R' })], 10);
    expect(await repo.outline('m')).toEqual({ toolIds: ['', 'A', 'A\u0000b', 'Ab', 'B', 'b'] });
    expect(await repo.entryCount('m')).toBe(30);
    expect(await repo.earliestValidFrom('m')).toBe(95);
  });

  it('moves the cursor in the same update, and reverts exactly', async () => {
    const repo = await make();
    await repo.applyUpdate([], [entry('a'), entry('b')], 10, { run: run(1) });
    await repo.applyUpdate(
      [
        { id: 'a', supersededBy: 'c' },
        { id: 'b', supersededBy: 'c' },
      ],
      [entry('c', { level: 'proficient', value: 2 })],
      20,
      { run: run(2) },
    );
    expect((await repo.validEntries('m', 'T')).map((e) => e.id)).toEqual(['c']);
    expect((await repo.getRun('build-1'))?.cursor).toBe(2);

    await repo.revertUpdate(['a', 'b'], ['c'], 30, { run: run(1) });
    const valid = (await repo.validEntries('m', 'T')).map((e) => e.id).sort();
    expect(valid).toEqual(['a', 'b']);
    expect((await repo.allEntries('m')).find((e) => e.id === 'a')).toMatchObject({ validTo: null, supersededBy: null });
    expect((await repo.getRun('build-1'))?.cursor).toBe(1);
  });

  it('a failing update changes nothing, cursor included', async () => {
    const repo = await make();
    await repo.applyUpdate([], [entry('a')], 10, { run: run(1) });
    await expect(repo.applyUpdate([{ id: 'a', supersededBy: null }], [entry('a')], 20, { run: run(2) })).rejects.toThrow();
    await expect(repo.applyUpdate([{ id: 'zzz', supersededBy: null }], [entry('x')], 20, { run: run(2) })).rejects.toThrow(/does not exist/);
    expect((await repo.validEntries('m', 'T')).map((e) => e.id)).toEqual(['a']);
    expect((await repo.allEntries('m')).map((e) => e.id)).toEqual(['a']);
    expect((await repo.getRun('build-1'))?.cursor).toBe(1);
    await expect(repo.revertUpdate([], ['a', 'missing'], 30)).rejects.toThrow(/does not exist/);
    expect((await repo.allEntries('m')).map((e) => e.id)).toEqual(['a']);
  });
});
