import { dropDbs, withDb } from '../../helpers/db';
import { memoryApps } from '../../helpers/memory-app';
import { afterEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../../../../src/core/embed';
import { retireEntry, reviseEntry } from '../../../../src/app/edit/entry';
import type { MemoryEntry } from '../../../../src/core/records';

const OLD: MemoryEntry = {
  id: 'e1',
  memoryId: 'm1',
  toolId: 'T',
  level: 'good',
  value: 1,
  text: 'Good at sums',
  evidence: ['x'],
  support: 3,
  origin: 'stats',
  pinned: false,
  validFrom: 1,
  validTo: null,
  supersededBy: null,
  createdAt: 1,
  updatedAt: 1,
};
const t = withDb('edit-entry', ({ repos }) => repos.memories.applyUpdate([], [OLD], 1));

describe('hand edits of a memory entry', () => {
  it('an edit is a new manual version that supersedes the old one (the history keeps both)', async () => {
    const next = await reviseEntry(t.repos.memories, OLD, { text: '  Good at long sums ', level: 'proficient' }, 50);
    expect(next.id).not.toBe('e1');
    expect(next).toMatchObject({
      text: 'Good at long sums',
      level: 'proficient',
      value: 2,
      origin: 'manual',
      validFrom: 50,
      validTo: null,
      supersededBy: null,
      evidence: ['x'],
      support: 3,
    });
    expect((await t.repos.memories.validEntries('m1', 'T')).map((e) => e.text)).toEqual(['Good at long sums']);
    const all = await t.repos.memories.toolEntries('m1', 'T');
    expect(all.find((e) => e.id === 'e1')).toMatchObject({ validTo: 50, supersededBy: next.id });
  });

  it('pinning alone keeps the origin; an entry edited meanwhile is refused', async () => {
    const pinned = await reviseEntry(t.repos.memories, OLD, { pinned: true }, 60);
    expect(pinned).toMatchObject({ pinned: true, origin: 'stats', text: 'Good at sums', value: 1 });
    await expect(reviseEntry(t.repos.memories, OLD, { pinned: false }, 70)).rejects.toThrow('Memory entry e1 is no longer valid');
  });

  it('refuses empty or over-long text with the limit in the message, writing nothing', async () => {
    await expect(reviseEntry(t.repos.memories, OLD, { text: '   ' })).rejects.toThrow('An entry needs some text.');
    await expect(reviseEntry(t.repos.memories, OLD, { text: 'x'.repeat(301) })).rejects.toThrow('Keep an entry under 300 characters (this one has 301).');
    expect((await t.repos.memories.validEntries('m1', 'T')).map((e) => e.id)).toEqual(['e1']);
  });

  it('retiring leaves no valid version and keeps the reason', async () => {
    await retireEntry(t.repos.memories, OLD, '  ', 80);
    expect(await t.repos.memories.validEntries('m1', 'T')).toEqual([]);
    expect((await t.repos.memories.toolEntries('m1', 'T'))[0]).toMatchObject({ validTo: 80, supersededBy: null, retiredReason: 'retired by hand' });
  });
});

describe('the memory worker serves the hand edits', () => {
  afterEach(dropDbs);
  const app = memoryApps('edit-entry-worker', { id: 'unused' } as Embedder);

  it('reviseEntry and retireEntry go through its handler table, checked the same way', async () => {
    const { repos, memory } = await app();
    await repos.memories.applyUpdate([], [OLD], 1);
    const next = await memory.call('reviseEntry', { entry: OLD, patch: { pinned: true } });
    expect(next).toMatchObject({ pinned: true, origin: 'stats', supersededBy: null });
    await expect(memory.call('reviseEntry', { entry: next, patch: { text: '' } })).rejects.toThrow('An entry needs some text.');
    expect(await memory.call('retireEntry', { entry: next, reason: 'wrong' })).toBeNull();
    expect(await repos.memories.validEntries('m1', 'T')).toEqual([]);
  });
});
