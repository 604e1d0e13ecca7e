/**
 * Hand edits of a memory entry (the Memory page's Edit, Pin and Retire). An entry version is never
 * changed in place: an edit adds a new version (valid from now) that supersedes the old one, and
 * retiring supersedes it with nothing, so the entry's history and the memory's undo keep both.
 */
import { ValidationError } from '../../core/errors';
import { newId } from '../../core/ids';
import { MAX_ENTRY_CHARS } from '../../core/prompts/shared';
import type { MemoryRepository } from '../../core/repositories';
import { LEVEL_VALUE } from '../../core/types';
import type { MemoryEntry } from '../../core/records';

/** What a person may change by hand: the text, the level (its value follows), the pin. */
export type EntryPatch = Partial<Pick<MemoryEntry, 'text' | 'level' | 'pinned'>>;

/**
 * Adds the edited version of `entry` and supersedes the old one in one transaction. A text or
 * level change makes the version `manual`; pinning alone keeps its origin. Returns the new version.
 */
export async function reviseEntry(repo: Pick<MemoryRepository, 'applyUpdate'>, entry: MemoryEntry, patch: EntryPatch, now = Date.now()): Promise<MemoryEntry> {
  const text = patch.text?.trim();
  if (text !== undefined && !text) throw new ValidationError('An entry needs some text.');
  if (text !== undefined && text.length > MAX_ENTRY_CHARS)
    throw new ValidationError(`Keep an entry under ${MAX_ENTRY_CHARS} characters (this one has ${text.length}).`);
  const edited = (text !== undefined && text !== entry.text) || (patch.level !== undefined && patch.level !== entry.level);
  const level = patch.level ?? entry.level;
  const next: MemoryEntry = {
    ...entry,
    text: text ?? entry.text,
    level,
    value: LEVEL_VALUE[level],
    pinned: patch.pinned ?? entry.pinned,
    origin: edited ? 'manual' : entry.origin,
    id: newId('man-'),
    validFrom: now,
    validTo: null,
    supersededBy: null,
    createdAt: now,
    updatedAt: now,
  };
  // applyUpdate refuses a version that is no longer valid (edited in another tab meanwhile).
  await repo.applyUpdate([{ id: entry.id, supersededBy: next.id }], [next], now);
  return next;
}

/** Retires `entry` (no successor); the reason is kept with it ('retired by hand' when blank). */
export async function retireEntry(repo: Pick<MemoryRepository, 'applyUpdate'>, entry: MemoryEntry, reason: string, now = Date.now()): Promise<void> {
  await repo.applyUpdate([{ id: entry.id, supersededBy: null, reason: reason.trim() || 'retired by hand' }], [], now);
}
