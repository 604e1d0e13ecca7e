/**
 * Parts every `toolmem-memory` file is written with, whether the memory was built here
 * (core/memory/memory-file.ts) or imported (stored.ts): the memory header and the optional entry
 * vectors, and entries (valid and history). One place, so both exports stay byte-compatible.
 */
import type { Memory, MemoryEntry } from '../records';
import type { Tool } from '../types';
import { setOwn } from './records';
import type { MemoryFile, MemoryFileEntry } from './schema';

export function fileMemoryHeader(memory: Memory): MemoryFile['memory'] {
  return {
    id: memory.id,
    name: memory.name,
    datasetIds: [...memory.datasetIds],
    embeddingModel: memory.embeddingModel,
    createdAt: memory.createdAt,
    updatedAt: memory.updatedAt,
  };
}

/** The `embeddings` section for the valid entries that have a vector, or nothing when none has. */
export function fileEmbeddings(
  memory: Memory,
  valid: readonly MemoryEntry[],
  vectors: ReadonlyMap<string, ArrayLike<number>> | undefined,
): Pick<MemoryFile, 'embeddings'> {
  const out: Record<string, number[]> = {};
  if (vectors) {
    for (const e of valid) {
      const v = vectors.get(e.id);
      if (v) setOwn(out, e.id, Array.from(v));
    }
  }
  const dim = Object.values(out)[0]?.length ?? 0;
  return dim > 0 ? { embeddings: { model: memory.embeddingModel, dim, vectors: out } } : {};
}

/** An entry as the file writes it; the caller knows its evidence tasks and cluster statistics. */
export function toFileEntry(e: MemoryEntry, evidenceTasks: string[], stats: MemoryFileEntry['stats'] | undefined): MemoryFileEntry {
  return {
    id: e.id,
    level: e.level,
    value: e.value,
    text: e.text,
    origin: e.origin,
    support: e.support,
    evidence: [...e.evidence],
    evidenceTasks,
    pinned: e.pinned,
    validFrom: e.validFrom,
    ...(stats ? { stats: { ...stats } } : {}),
    ...(e.facet ? { facet: structuredClone(e.facet) } : {}),
    ...(e.effect ? { effect: structuredClone(e.effect) } : {}),
    ...(e.verdict ? { verdict: structuredClone(e.verdict) } : {}),
    ...(e.profile ? { profile: structuredClone(e.profile) } : {}),
  };
}

/** A superseded or retired entry in the file's `history`: the file entry plus how it ended. */
export function toHistoryEntry(e: MemoryEntry, entry: MemoryFileEntry): NonNullable<MemoryFile['history']>[number] {
  return {
    ...entry,
    toolId: e.toolId,
    validTo: e.validTo!,
    supersededBy: e.supersededBy,
    ...(e.retiredReason !== undefined ? { retiredReason: e.retiredReason } : {}),
  };
}

/** A tool's header in the file: its description (the tool's id when the app has no row for it) and its valid entries counted by level. */
export function fileToolHeader(
  id: string,
  valid: readonly Pick<MemoryEntry, 'level'>[],
  tool: Pick<Tool, 'name' | 'modality' | 'description'> | undefined,
): Pick<MemoryFile['tools'][number], 'id' | 'name' | 'modality' | 'description' | 'counts'> {
  const counts = { proficient: 0, good: 0, bad: 0, weak: 0 };
  for (const e of valid) counts[e.level]++;
  return { id, name: tool?.name ?? id, modality: tool?.modality ?? 'other', description: tool?.description ?? '', counts };
}
