import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../../src/core/types';
import { UiStorage } from '../../../src/ui/storage';

let n = 0;
const opened: UiStorage[] = [];
function storage(): UiStorage {
  const s = new UiStorage(`ui-storage-${++n}`);
  opened.push(s);
  return s;
}
afterEach(async () => {
  for (const s of opened.splice(0)) await s.reset();
});

describe('UiStorage (the UI adapter to IndexedDB)', () => {
  it('settings default until set, then read back what was set', async () => {
    const s = storage();
    expect(await s.get('raterName')).toBe('');
    expect(await s.get('costWeight')).toBe(0);
    await s.set('raterName', 'ada');
    expect(await s.get('raterName')).toBe('ada');
  });

  it('a live read runs again after a write, with no reload asked for', async () => {
    const s = storage();
    const seen: string[] = [];
    let wrote = false;
    await new Promise<void>((resolve, reject) => {
      const stop = s.watch(() => s.get('raterName'), (v) => {
        seen.push(v);
        // Write once the first read is in; the live read then delivers the new value by itself.
        if (!wrote) { wrote = true; void s.set('raterName', 'grace'); }
        else { stop(); resolve(); }
      }, reject);
    });
    expect(seen).toEqual(['', 'grace']);
  });

  it('a hand edit supersedes the old entry version; retiring leaves no valid version', async () => {
    const s = storage();
    const old: MemoryEntry = { id: 'e1', memoryId: 'm1', toolId: 'T', level: 'good', value: 1, text: 'Good at sums', evidence: ['x'], support: 3, origin: 'stats', pinned: false, validFrom: 1, validTo: null, supersededBy: null, createdAt: 1, updatedAt: 1 };
    await s.repos.memories.applyUpdate([], [old], 1);
    const next = await s.reviseEntry(old, { text: 'Good at long sums', origin: 'manual' });
    expect(next.id).not.toBe('e1');
    expect(next).toMatchObject({ text: 'Good at long sums', origin: 'manual', supersededBy: null, validTo: null, evidence: ['x'] });
    expect((await s.repos.memories.validEntries('m1', 'T')).map((e) => e.text)).toEqual(['Good at long sums']);
    await s.retireEntry(next, 'retired by hand');
    expect(await s.repos.memories.validEntries('m1', 'T')).toEqual([]);
  });
});
