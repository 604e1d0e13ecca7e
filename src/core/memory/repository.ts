/**
 * What the build job needs from storage beyond MemoryRepository, and an in-memory implementation
 * (CLI, tests). Two additions, both needed for correctness:
 *  - applyUpdate(…, extras): `extras.run` (the build Run with its advanced cursor) is written in
 *    the SAME transaction as the memory change, so a resumed build never applies an experience
 *    twice. (Dexie: add `db.runs` to the transaction and `runs.put(extras.run)`.)
 *  - revertUpdate: exact undo — superseded entries become valid again (validTo/supersededBy/
 *    retiredReason cleared), added entries are deleted. All or nothing.
 */
import type { ApplyExtras, BuildMemoryRepository } from '../repositories';
import type { Level } from '../types';
import type { Memory, MemoryEntry, BuildRun } from '../records';
import { NotFoundError, ValidationError } from '../errors';
import type { Superseded } from './plan';

// The interfaces live in core/repositories.ts (the storage contracts; no import back); re-exported.
export type { ApplyExtras, BuildMemoryRepository };

const copy = <T>(x: T): T => structuredClone(x);

export class InMemoryMemoryRepository implements BuildMemoryRepository {
  private readonly memories = new Map<string, Memory>();
  private readonly entries = new Map<string, MemoryEntry>();
  private readonly runs = new Map<string, BuildRun>();

  async get(id: string): Promise<Memory | undefined> {
    const m = this.memories.get(id);
    return m && copy(m);
  }

  async list(): Promise<Memory[]> {
    return [...this.memories.values()].sort((a, b) => b.updatedAt - a.updatedAt).map(copy);
  }

  async put(memory: Memory): Promise<void> {
    this.memories.set(memory.id, copy(memory));
  }

  async validEntries(memoryId: string, toolId: string, level?: Level): Promise<MemoryEntry[]> {
    const out: MemoryEntry[] = [];
    for (const e of this.entries.values()) {
      if (e.memoryId === memoryId && e.toolId === toolId && e.validTo === null && (level === undefined || e.level === level)) out.push(copy(e));
    }
    return out;
  }

  async allEntries(memoryId: string): Promise<MemoryEntry[]> {
    return [...this.entries.values()].filter((e) => e.memoryId === memoryId).map(copy);
  }

  async toolEntries(memoryId: string, toolId: string, level?: Level): Promise<MemoryEntry[]> {
    return [...this.entries.values()].filter((e) => e.memoryId === memoryId && e.toolId === toolId && (level === undefined || e.level === level)).map(copy);
  }

  async outline(memoryId: string): Promise<{ toolIds: string[] }> {
    const mine = [...this.entries.values()].filter((e) => e.memoryId === memoryId);
    return { toolIds: [...new Set(mine.map((e) => e.toolId))].sort() };
  }

  async entryCount(memoryId: string): Promise<number> {
    let n = 0;
    for (const e of this.entries.values()) if (e.memoryId === memoryId) n++;
    return n;
  }

  async earliestValidFrom(memoryId: string): Promise<number | null> {
    let min: number | null = null;
    for (const e of this.entries.values()) if (e.memoryId === memoryId && (min === null || e.validFrom < min)) min = e.validFrom;
    return min;
  }

  async getRun(id: string): Promise<BuildRun | undefined> {
    const r = this.runs.get(id);
    return r && copy(r);
  }

  /** Checks everything first, then writes: a failing update changes nothing. */
  async applyUpdate(superseded: Superseded[], added: MemoryEntry[], at: number, extras: ApplyExtras = {}): Promise<void> {
    const seen = new Set<string>();
    for (const s of superseded) {
      const old = this.entries.get(s.id);
      if (!old) throw new NotFoundError(`Memory entry ${s.id} does not exist`);
      if (old.validTo !== null) throw new ValidationError(`Memory entry ${s.id} is no longer valid`);
      if (seen.has(s.id)) throw new ValidationError(`Memory entry ${s.id} is superseded twice in one update`);
      seen.add(s.id);
    }
    for (const a of added) {
      if (this.entries.has(a.id) || seen.has(a.id)) throw new ValidationError(`Memory entry ${a.id} already exists`);
      seen.add(a.id);
    }
    for (const s of superseded) {
      const old = this.entries.get(s.id)!;
      this.entries.set(s.id, {
        ...old,
        validTo: at,
        supersededBy: s.supersededBy,
        updatedAt: at,
        ...(s.reason !== undefined ? { retiredReason: s.reason } : {}),
      });
    }
    for (const a of added) this.entries.set(a.id, copy(a));
    if (extras.run) this.runs.set(extras.run.id, copy(extras.run));
    if (extras.memory) this.memories.set(extras.memory.id, copy(extras.memory));
  }

  async revertUpdate(restore: readonly string[], remove: readonly string[], at: number, extras: ApplyExtras = {}): Promise<void> {
    for (const id of [...restore, ...remove]) if (!this.entries.has(id)) throw new NotFoundError(`Memory entry ${id} does not exist`);
    // Only the latest change can be reverted: what it added must still be valid, what it replaced must not.
    for (const id of remove) if (this.entries.get(id)!.validTo !== null) throw new ValidationError(`Memory entry ${id} was changed again later`);
    for (const id of restore) if (this.entries.get(id)!.validTo === null) throw new ValidationError(`Memory entry ${id} is already valid`);
    for (const id of remove) this.entries.delete(id);
    for (const id of restore) {
      const { retiredReason: _r, ...rest } = this.entries.get(id)!;
      this.entries.set(id, { ...rest, validTo: null, supersededBy: null, updatedAt: at });
    }
    if (extras.run) this.runs.set(extras.run.id, copy(extras.run));
  }
}
