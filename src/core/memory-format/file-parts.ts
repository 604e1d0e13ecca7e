/**
 * Parts every `toolmem-memory` file is written with, whether the memory was built here
 * (core/memory/memory-file.ts) or imported (stored.ts): the memory header and the optional entry
 * vectors. One place, so both exports stay byte-compatible.
 */
import type { Memory, MemoryEntry } from '../types';
import type { MemoryFile } from './schema';

export function fileMemoryHeader(memory: Memory): MemoryFile['memory'] {
  return { id: memory.id, name: memory.name, datasetIds: [...memory.datasetIds], embeddingModel: memory.embeddingModel, createdAt: memory.createdAt, updatedAt: memory.updatedAt };
}

/** The `embeddings` section for the valid entries that have a vector, or nothing when none has. */
export function fileEmbeddings(memory: Memory, valid: readonly MemoryEntry[], vectors: ReadonlyMap<string, ArrayLike<number>> | undefined): Pick<MemoryFile, 'embeddings'> {
  const out: Record<string, number[]> = {};
  if (vectors) {
    for (const e of valid) {
      const v = vectors.get(e.id);
      if (v) out[e.id] = Array.from(v);
    }
  }
  const dim = Object.values(out)[0]?.length ?? 0;
  return dim > 0 ? { embeddings: { model: memory.embeddingModel, dim, vectors: out } } : {};
}
