import { describe, expect, it } from 'vitest';
import type { Memory, MemoryEntry } from '../../../src/core/records';
import type { Effect, ToolProfile } from '../../../src/core/capability/types';
import { memoryEntryOf } from '../helpers/records';
import { emptyLevelText, entryOrder, toolEntries, trainTasksOf } from '../../../src/ui/memory-entries';

let n = 0;
function entry(over: Partial<MemoryEntry>): MemoryEntry {
  n += 1;
  return memoryEntryOf({ id: `e${n}`, text: `entry ${n}`, ...over });
}
const tentative = (lfsr: number) => ({ status: 'tentative', lfsr }) as Effect;

describe('one tool’s entries as the Memory page lays them out', () => {
  it('the profile apart, tentative entries apart (surest first), the rest by level, pinned then best supported then by text', () => {
    const profile = entry({ text: 'A overall', profile: {} as ToolProfile });
    const weakB = entry({ level: 'weak', text: 'b weak', support: 3 });
    const weakA = entry({ level: 'weak', text: 'a weak', support: 3 });
    const weakPinned = entry({ level: 'weak', text: 'z pinned', support: 1, pinned: true });
    const weakMost = entry({ level: 'weak', text: 'm most', support: 9 });
    const t1 = entry({ level: 'good', text: 't1', effect: tentative(0.2) });
    const t2 = entry({ level: 'bad', text: 't2', effect: tentative(0.05) });
    const other = entry({ toolId: 'B', level: 'weak', text: 'other tool' });
    const got = toolEntries([weakB, t1, profile, weakA, other, weakPinned, t2, weakMost], 'A', '');
    expect(got.profile).toBe(profile);
    expect(got.tentative.map((e) => e.text)).toEqual(['t2', 't1']);
    expect(got.byLevel.map((g) => g.level)).toEqual(['proficient', 'good', 'bad', 'weak']);
    expect(got.byLevel.map((g) => g.items.map((e) => e.text))).toEqual([[], [], [], ['z pinned', 'm most', 'a weak', 'b weak']]);
  });

  it('a search keeps the entries whose text holds it (any case); the profile stays', () => {
    const profile = entry({ text: 'A overall', profile: {} as ToolProfile });
    const hit = entry({ text: 'Weak at NEGATION' });
    const miss = entry({ text: 'good at counting' });
    const got = toolEntries([profile, hit, miss], 'A', 'negation');
    expect(got.profile).toBe(profile);
    expect(got.byLevel.flatMap((g) => g.items)).toEqual([hit]);
  });

  it('entryOrder: pinned, then support, then text', () => {
    const a = entry({ text: 'a', support: 2 });
    const b = entry({ text: 'b', support: 5 });
    const c = entry({ text: 'c', support: 1, pinned: true });
    expect([a, b, c].sort(entryOrder).map((e) => e.text)).toEqual(['c', 'b', 'a']);
  });

  it('an empty level says whether it is loading, searched away or empty', () => {
    expect([emptyLevelText(false, true), emptyLevelText(true, true), emptyLevelText(true, false)]).toEqual([
      'Loading…',
      'No entry matches the search.',
      'No entry at this level.',
    ]);
  });
});

describe('training tasks of a memory, for its summary', () => {
  const memory = (settings: object) => ({ settings }) as Memory;
  it('an imported memory: its split’s train tasks (none known: undefined)', () => {
    expect(trainTasksOf(memory({ imported: { build: { split: { trainTasks: ['t1', 't2', 't3'] } } } }))).toBe(3);
    expect(trainTasksOf(memory({ imported: { build: { split: { trainTasks: [] } } } }))).toBeUndefined();
  });
  it('a built memory: its split’s train count, null when it used every task, undefined without a split', () => {
    expect(trainTasksOf(memory({ split: { train: 40 } }))).toBe(40);
    expect(trainTasksOf(memory({ split: {} }))).toBeNull();
    expect(trainTasksOf(memory({}))).toBeUndefined();
  });
});
