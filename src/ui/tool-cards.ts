/**
 * What the Tools page groups by tool id. Tool and dataset ids come from imported data, so any of
 * them may be `__proto__`, `constructor` or `toString`: every grouping here is a Map (issue #14,
 * src/core/data-keys.ts). Plain .ts (not .svelte): these Maps are built once and handed to
 * `$state.raw`/`$derived`, never mutated afterwards, so they need no Svelte reactivity.
 */
import type { MemoryEntry } from '../core/records';
import type { DatasetSummary } from './app-state.svelte';

export interface ToolUsage {
  dataset: string;
  datasetId: string;
  count: number;
}

/** Where each tool appears: tool id → (dataset, experience count), in dataset order. */
export function usageByTool(datasets: readonly DatasetSummary[]): Map<string, ToolUsage[]> {
  const byTool = new Map<string, ToolUsage[]>();
  for (const d of datasets) {
    for (const t of d.perTool) {
      let list = byTool.get(t.toolId);
      if (!list) byTool.set(t.toolId, (list = []));
      list.push({ dataset: d.dataset.name, datasetId: d.dataset.id, count: t.count });
    }
  }
  return byTool;
}

/** How many times each key occurs. */
export function countBy(keys: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

export interface CardEntries {
  /** Tool id → the memory whose entries its card shows (the first memory, in the given order, with entries for it). */
  owner: Map<string, string>;
  entries: MemoryEntry[];
  /** The memories that own at least one tool, in the given order. */
  owners: string[];
}

/**
 * The entries each tool's card shows: for every tool, those `pick` returns from the first memory
 * (most recent first) that has any for it. Null when `live()` turns false (the page was left).
 */
export async function cardEntries(
  memoryIds: readonly string[],
  toolsOf: (memoryId: string) => Promise<readonly string[]>,
  pick: (memoryId: string, toolId: string) => Promise<MemoryEntry[]>,
  live: () => boolean,
): Promise<CardEntries | null> {
  const owner = new Map<string, string>();
  const entries: MemoryEntry[] = [];
  const owners: string[] = [];
  for (const memoryId of memoryIds) {
    if (!live()) return null;
    const mine = (await toolsOf(memoryId)).filter((t) => !owner.has(t));
    let any = false;
    for (const t of mine) {
      if (!live()) return null;
      const picked = await pick(memoryId, t);
      if (!picked.length) continue;
      owner.set(t, memoryId);
      entries.push(...picked);
      any = true;
    }
    if (any) owners.push(memoryId);
  }
  return { owner, entries, owners };
}
