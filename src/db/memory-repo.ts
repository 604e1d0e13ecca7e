import Dexie from 'dexie';
import type { ApplyExtras, BuildMemoryRepository } from '../core/memory/repository';
import type { Superseded } from '../core/memory/plan';
import { NotFoundError, ValidationError } from '../core/errors';
import type { Level } from '../core/types';
import type { Memory, MemoryEntry } from '../core/records';
import type { ToolMemDB } from './schema';
import { withQuotaCheck } from './quota';

/**
 * Memory storage. Every change is one transaction that also stores the build Run (its cursor),
 * so a build resumed after a crash never applies an experience twice and never half-applies one.
 */
export class DexieMemoryRepository implements BuildMemoryRepository {
  constructor(private readonly db: ToolMemDB) {}

  get(id: string) {
    return this.db.memories.get(id);
  }

  list() {
    return this.db.memories.orderBy('updatedAt').reverse().toArray();
  }

  async put(memory: Memory) {
    await withQuotaCheck(() => this.db.memories.put(memory));
  }

  /** The build Run of that id (a memory's `settings.build`); undefined when absent or of another kind. */
  async getRun(id: string) {
    const run = await this.db.runs.get(id);
    return run?.kind === 'build' ? run : undefined;
  }

  async validEntries(memoryId: string, toolId: string, level?: Level): Promise<MemoryEntry[]> {
    const rows =
      level === undefined
        ? await this.db.entries.where('[memoryId+toolId]').equals([memoryId, toolId]).toArray()
        : await this.db.entries.where('[memoryId+toolId+level]').equals([memoryId, toolId, level]).toArray();
    return rows.filter((e) => e.validTo === null);
  }

  allEntries(memoryId: string) {
    return this.db.entries.where('memoryId').equals(memoryId).toArray();
  }

  toolEntries(memoryId: string, toolId: string, level?: Level) {
    return level === undefined
      ? this.db.entries.where('[memoryId+toolId]').equals([memoryId, toolId]).toArray()
      : this.db.entries.where('[memoryId+toolId+level]').equals([memoryId, toolId, level]).toArray();
  }

  /**
   * A skip scan of the `[memoryId+toolId]` index: one key per tool, then a seek past that tool's
   * keys. Chromium walks every index key for a `nextunique` cursor (Dexie's `uniqueKeys`): 150 ms for
   * a memory of 20,000 entries on a cold start, against a few ms for 8 seeks.
   *
   * Live reads (liveQuery, UiStorage.watch) see only what goes through Dexie, and the raw cursor
   * does not: the one-key Dexie read of the memory's `[memoryId+validFrom]` range first is what makes
   * a watched outline run again when the memory's entries change (a new tool shows, an emptied
   * memory loses its tools). It costs one index seek.
   */
  async outline(memoryId: string): Promise<{ toolIds: string[] }> {
    await this.earliestValidFrom(memoryId);
    const toolIds = await this.db.transaction('r', this.db.entries, (tx) => {
      const index = tx.idbtrans.objectStore('entries').index('[memoryId+toolId]');
      // Arrays sort after strings in IndexedDB: [id] < [id, any tool] < [id, []].
      const request = index.openKeyCursor(IDBKeyRange.bound([memoryId], [memoryId, []]));
      return new Promise<string[]>((resolve, reject) => {
        const found: string[] = [];
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const cursor = request.result;
          if (!cursor) return resolve(found);
          const toolId = (cursor.key as [string, string])[1];
          found.push(toolId);
          cursor.continue([memoryId, `${toolId}\u0000`]); // the next key after every [memoryId, toolId]
        };
      });
    });
    return { toolIds: toolIds.sort() };
  }

  entryCount(memoryId: string): Promise<number> {
    return this.db.entries.where('memoryId').equals(memoryId).count();
  }

  async earliestValidFrom(memoryId: string): Promise<number | null> {
    const first = await this.db.entries.where('[memoryId+validFrom]').between([memoryId, Dexie.minKey], [memoryId, Dexie.maxKey]).first();
    return first ? first.validFrom : null;
  }

  /** All or nothing: superseding old versions, adding new ones and moving the cursor. */
  applyUpdate(superseded: Superseded[], added: MemoryEntry[], at: number, extras: ApplyExtras = {}): Promise<void> {
    return withQuotaCheck(() =>
      this.db.transaction('rw', this.db.entries, this.db.runs, this.db.memories, async () => {
        const olds = superseded.length > 0 ? await this.db.entries.bulkGet(superseded.map((s) => s.id)) : [];
        const seen = new Set<string>();
        const changed: MemoryEntry[] = superseded.map((s, i) => {
          const old = olds[i];
          if (!old) throw new NotFoundError(`Memory entry ${s.id} does not exist`);
          if (old.validTo !== null) throw new ValidationError(`Memory entry ${s.id} is no longer valid`);
          if (seen.has(s.id)) throw new ValidationError(`Memory entry ${s.id} is superseded twice in one update`);
          seen.add(s.id);
          return { ...old, validTo: at, supersededBy: s.supersededBy, updatedAt: at, ...(s.reason !== undefined ? { retiredReason: s.reason } : {}) };
        });
        // Issued together (IndexedDB runs them in order within the transaction): one round trip
        // instead of three. Any failure rejects and aborts the whole transaction.
        await Promise.all([
          changed.length > 0 ? this.db.entries.bulkPut(changed) : undefined,
          added.length > 0 ? this.db.entries.bulkAdd(added) : undefined, // an id that exists already aborts the whole transaction
          extras.run ? this.db.runs.put(extras.run) : undefined,
          extras.memory ? this.db.memories.put(extras.memory) : undefined,
        ]);
      }),
    );
  }

  /** Exact undo of the latest change: what it replaced becomes valid again, what it added goes. */
  revertUpdate(restore: readonly string[], remove: readonly string[], at: number, extras: ApplyExtras = {}): Promise<void> {
    return withQuotaCheck(() =>
      this.db.transaction('rw', this.db.entries, this.db.runs, async () => {
        const [back, gone] = await Promise.all([this.db.entries.bulkGet([...restore]), this.db.entries.bulkGet([...remove])]);
        back.forEach((e, i) => {
          if (!e) throw new NotFoundError(`Memory entry ${restore[i]} does not exist`);
          if (e.validTo === null) throw new ValidationError(`Memory entry ${e.id} is already valid`);
        });
        gone.forEach((e, i) => {
          if (!e) throw new NotFoundError(`Memory entry ${remove[i]} does not exist`);
          if (e.validTo !== null) throw new ValidationError(`Memory entry ${e.id} was changed again later`);
        });
        await this.db.entries.bulkDelete([...remove]);
        await this.db.entries.bulkPut(
          back.map((e) => {
            const { retiredReason: _r, ...rest } = e!;
            return { ...rest, validTo: null, supersededBy: null, updatedAt: at };
          }),
        );
        if (extras.run) await this.db.runs.put(extras.run);
      }),
    );
  }
}
