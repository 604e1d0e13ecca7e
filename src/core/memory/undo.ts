/**
 * Undo of the latest memory changes. Every change is one applyUpdate at a distinct time `at`
 * (the build job guarantees strictly increasing times), so the latest change can be read back
 * from the entries alone: it added the valid entries with validFrom = T and superseded the
 * entries with validTo = T, where T is the latest time in the memory (of that tool, if given).
 * Reverting restores the superseded entries (same ids) and deletes the added ones.
 * Constraint: changes made by other writers in the same millisecond would be undone together.
 */
import type { MemoryEntry } from '../records';
import type { BuildMemoryRepository } from './repository';

export interface ChangeSet {
  at: number;
  /** Entries the change superseded or retired (restored by undo). */
  restore: string[];
  /** Entries the change added (deleted by undo). */
  remove: string[];
}

export function latestChange(entries: readonly MemoryEntry[], toolId?: string): ChangeSet | null {
  const mine = toolId === undefined ? entries : entries.filter((e) => e.toolId === toolId);
  let t = -Infinity;
  for (const e of mine) t = Math.max(t, e.validFrom, e.validTo ?? -Infinity);
  if (t === -Infinity) return null;
  return {
    at: t,
    restore: mine.filter((e) => e.validTo === t).map((e) => e.id),
    remove: mine.filter((e) => e.validFrom === t && e.validTo === null).map((e) => e.id),
  };
}

/** Reverts the latest `count` changes, newest first; returns what was reverted. */
export async function undoLatest(
  repo: BuildMemoryRepository,
  memoryId: string,
  opts: { count?: number; toolId?: string; now?: () => number } = {},
): Promise<ChangeSet[]> {
  const done: ChangeSet[] = [];
  const now = opts.now ?? Date.now;
  for (let i = 0; i < (opts.count ?? 1); i++) {
    const change = latestChange(await repo.allEntries(memoryId), opts.toolId);
    if (!change) break;
    await repo.revertUpdate(change.restore, change.remove, now());
    done.push(change);
  }
  return done;
}
