import { dropDbs, newDb } from '../helpers/db';
import { afterEach, describe, expect, it } from 'vitest';
import { UiStorage } from '../../../src/ui/storage';
import { entry } from '../memory/helpers';

const storage = () => new UiStorage(newDb('ui-storage'));
afterEach(dropDbs);

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
      const stop = s.watch(
        () => s.get('raterName'),
        (v) => {
          seen.push(v);
          // Write once the first read is in; the live read then delivers the new value by itself.
          if (!wrote) {
            wrote = true;
            void s.set('raterName', 'grace');
          } else {
            stop();
            resolve();
          }
        },
        reject,
      );
    });
    expect(seen).toEqual(['', 'grace']);
  });

  it("a live read of a memory's outline runs again when an entry of a new tool is written (the outline's raw cursor is not tracked by itself)", async () => {
    const s = storage();
    const row = (id: string, toolId: string) => entry(id, 'good', `text ${id}`, { memoryId: 'm', toolId });
    await s.repos.memories.applyUpdate([], [row('a', 'T')], 1);
    const seen: string[][] = [];
    await new Promise<void>((resolve, reject) => {
      const stop = s.watch(
        async () => (await s.repos.memories.outline('m')).toolIds,
        (ids) => {
          seen.push(ids);
          if (seen.length === 1) void s.repos.memories.applyUpdate([], [row('b', 'S')], 2);
          else {
            stop();
            resolve();
          }
        },
        reject,
      );
    });
    expect(seen).toEqual([['T'], ['S', 'T']]);
  });
});
