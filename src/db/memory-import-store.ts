/**
 * Writes a planned memory import (src/core/memory-format/import-plan) in ONE transaction over
 * memories, entries, tools and the embedding cache: a failure anywhere (an id taken meanwhile, a
 * full disk) leaves every table as it was.
 */
import { NotFoundError, ValidationError } from '../core/errors';
import { sha256Hex } from '../core/embed';
import type { MemoryImportStore, MemoryImportWrite } from '../core/memory-format';
import type { Tool } from '../core/types';
import { addBlocks, packBlocks } from './embedding-blocks';
import { withQuotaCheck } from './quota';
import type { ToolMemDB } from './schema';

export class DexieMemoryImportStore implements MemoryImportStore {
  constructor(private readonly db: ToolMemDB) {}

  async taken(memoryId: string, entryIds: readonly string[]) {
    const [memory, rows] = await Promise.all([this.db.memories.get(memoryId), this.db.entries.bulkGet([...entryIds])]);
    return { memory: memory !== undefined, entries: new Set(rows.flatMap((r) => (r ? [r.id] : []))) };
  }

  async writeImport(w: MemoryImportWrite): Promise<void> {
    // Hashing is asynchronous (WebCrypto) and would end an IndexedDB transaction: do it first.
    const vectors = await Promise.all(w.vectors.map(async (v) => ({ hash: await sha256Hex(v.text), vector: Float32Array.from(v.vector) })));
    // Packed as the cache stores them (schema v5: blocks of vectors, db/embedding-blocks.ts).
    const blocks = packBlocks(w.vectorModel, vectors);
    const db = this.db;
    await withQuotaCheck(() =>
      db.transaction('rw', [db.memories, db.entries, db.tools, db.embeddingBlocks, db.embeddingKeys], async () => {
        const exists = await db.memories.get(w.memory.id);
        if (w.mode === 'new' && exists) throw new ValidationError(`A memory with id ${w.memory.id} exists already; nothing was imported.`);
        if (w.mode === 'merge' && !exists) throw new NotFoundError(`The memory ${w.memory.id} no longer exists; nothing was merged.`);
        const olds = await db.entries.bulkGet(w.superseded.map((s) => s.id));
        const changed = w.superseded.map((s, i) => {
          const old = olds[i];
          if (!old || old.memoryId !== w.memory.id || old.validTo !== null)
            throw new ValidationError(`Memory entry ${s.id} changed while the merge was prepared; nothing was merged. Try again.`);
          return { ...old, validTo: w.at, supersededBy: s.supersededBy, updatedAt: w.at };
        });
        await db.entries.bulkPut(changed);
        await db.entries.bulkAdd(w.added); // an id taken meanwhile aborts the whole import
        const tools = await db.tools.bulkGet(w.tools.map((t) => t.id));
        await db.tools.bulkAdd(w.tools.filter((_, i) => !tools[i]) satisfies Tool[]);
        await addBlocks({ blocks: db.embeddingBlocks, keys: db.embeddingKeys }, blocks);
        await db.memories.put(w.memory);
      }),
    );
  }
}
