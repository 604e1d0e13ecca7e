/**
 * How the Memory page lays out one tool's current entries (issue #25): its overall profile first, on
 * its own; the claims (and entries written by a model or a person) by level; tentative entries apart,
 * never among the claims. Pure functions of stored records, shared by the page and its tests.
 */
import type { Memory, MemoryEntry } from '../core/records';
import { LEVELS, type Level } from '../core/types';

/** A level's heading on the Memory page. */
export const LEVEL_LABEL: Readonly<Record<Level, string>> = { proficient: 'Proficient (+2)', good: 'Good (+1)', bad: 'Bad (−1)', weak: 'Weak (−2)' };

/** Entries shown per level at first, and per "Show more": a tool can hold thousands, and rendering them all takes seconds. */
export const ENTRY_PAGE = 50;

export interface ToolEntries {
  profile: MemoryEntry | undefined;
  /** Tentative entries, surest (lowest lfsr) first. */
  tentative: MemoryEntry[];
  byLevel: { level: Level; items: MemoryEntry[] }[];
}

/** Pinned first, then the best supported, then by text. */
export function entryOrder(a: MemoryEntry, b: MemoryEntry): number {
  return Number(b.pinned) - Number(a.pinned) || b.support - a.support || a.text.localeCompare(b.text);
}

/**
 * `valid` (current entries) of `toolId` as the page shows them; `needle` (lower case, trimmed; empty:
 * no search) keeps the entries whose text holds it. The profile is never searched away.
 */
export function toolEntries(valid: readonly MemoryEntry[], toolId: string, needle: string): ToolEntries {
  const matches = (e: MemoryEntry) => e.toolId === toolId && (!needle || e.text.toLowerCase().includes(needle));
  return {
    profile: valid.find((e) => e.toolId === toolId && e.profile),
    tentative: valid
      .filter((e) => !e.profile && e.effect?.status === 'tentative' && matches(e))
      .sort((a, b) => (a.effect?.lfsr ?? 1) - (b.effect?.lfsr ?? 1) || entryOrder(a, b)),
    byLevel: LEVELS.map((level) => ({
      level,
      items: valid.filter((e) => !e.profile && e.effect?.status !== 'tentative' && e.level === level && matches(e)).sort(entryOrder),
    })),
  };
}

/** What an empty level says: still loading, nothing matches the search, or nothing at all. */
export function emptyLevelText(read: boolean, searching: boolean): string {
  if (!read) return 'Loading…';
  return searching ? 'No entry matches the search.' : 'No entry at this level.';
}

/** Tasks the memory was built on, for the summary: a count, null when the build used every task, undefined when unknown. */
export function trainTasksOf(m: Memory): number | null | undefined {
  if (m.settings.imported) return m.settings.imported.build.split.trainTasks.length || undefined;
  return m.settings.split ? (m.settings.split.train ?? null) : undefined;
}
