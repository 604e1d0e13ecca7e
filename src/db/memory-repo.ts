import type { MemoryRepository } from '../core/repositories';
import type { Level, Memory, MemoryEntry } from '../core/types';
import type { ToolMemDB } from './schema';
import { withQuotaCheck } from './quota';

export class DexieMemoryRepository implements MemoryRepository {
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

  /** All or nothing: superseding old versions and adding new ones happen in one transaction. */
  applyUpdate(
    superseded: { id: string; supersededBy: string | null; reason?: string }[],
    added: MemoryEntry[],
    at: number,
  ): Promise<void> {
    return withQuotaCheck(() =>
      this.db.transaction('rw', this.db.entries, async () => {
        const olds = await this.db.entries.bulkGet(superseded.map((s) => s.id));
        const changed: MemoryEntry[] = [];
        superseded.forEach((s, i) => {
          const old = olds[i];
          if (!old) throw new Error(`Memory entry ${s.id} does not exist`);
          if (old.validTo !== null) throw new Error(`Memory entry ${s.id} is no longer valid`);
          changed.push({
            ...old,
            validTo: at,
            supersededBy: s.supersededBy,
            updatedAt: at,
            ...(s.reason !== undefined ? { retiredReason: s.reason } : {}),
          });
        });
        await this.db.entries.bulkPut(changed);
        await this.db.entries.bulkAdd(added);
      }),
    );
  }
}
