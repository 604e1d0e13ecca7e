/**
 * The embedding cache's storage layout since schema v5: vectors are stored in BLOCKS, many per
 * IndexedDB row, not one row per vector.
 *
 * Why: IndexedDB pays a fixed cost per record (key encoding, structured clone, a storage write).
 * In Chromium 4,000 one-vector rows took 400–800 ms to write even in one transaction, longer than
 * the model took to embed them, while the same vectors as 125 rows of 32 took 17–24 ms
 * (docs/embeddings.md, "Cache, all misses").
 *
 * - `embeddingBlocks` (random id): one model's vectors packed in one `Float32Array` (`count × dim`),
 *   with the texts' hashes in row order. A block is written once and never changed.
 * - `embeddingKeys` (auto-increment id, and its block's id): the block's model and hashes without
 *   the vectors, so a lookup learns where every cached text is by reading hashes only; the growing
 *   id tells a lookup which rows are new since its last read.
 *
 * Both rows of a block are written in one transaction, sent together: the block's id is chosen
 * here, so the key row does not wait for an answer from the first write (one round trip to the
 * browser's storage process per block instead of two; 4,000 vectors in 125 transactions: 58–74 ms
 * for a single row per block, 71–108 ms when the second row waited for the first). Writers: `DexieEmbeddingStore.put`, the
 * memory import (db/memory-import-store.ts) and the v4 → v5 upgrade (below).
 */
import type { Table, Transaction } from 'dexie';
import type { EmbeddingBlockRow, EmbeddingKeysRow, EmbeddingRow } from './rows';

/**
 * Vectors per block at most. A hit reads its whole block (512 × 384-d floats = 768 KB at most), and
 * a batch of the model (32 by default) writes one block, so this only bounds large writes (a memory
 * import, the upgrade).
 */
export const BLOCK_VECTORS = 512;

export interface BlockVector {
  hash: string;
  vector: Float32Array;
}

/**
 * 128 random bits as hex. `crypto.getRandomValues`, not `randomUUID`: the latter exists only in
 * secure contexts, and the app may be opened over plain http on a LAN address.
 */
function blockId(): string {
  let id = '';
  for (const byte of crypto.getRandomValues(new Uint8Array(16))) id += byte.toString(16).padStart(2, '0');
  return id;
}

/** A block as written. */
export type NewBlock = EmbeddingBlockRow;

/**
 * Packs one model's vectors into blocks of at most `BLOCK_VECTORS`, one dimension per block (a
 * vector of another length than its neighbours starts a new block rather than being cut or padded).
 */
export function packBlocks(model: string, vectors: readonly BlockVector[]): NewBlock[] {
  const out: NewBlock[] = [];
  let start = 0;
  while (start < vectors.length) {
    const dim = vectors[start]!.vector.length;
    let end = start + 1;
    while (end < vectors.length && end - start < BLOCK_VECTORS && vectors[end]!.vector.length === dim) end++;
    const data = new Float32Array((end - start) * dim);
    const hashes: string[] = [];
    for (let i = start; i < end; i++) {
      data.set(vectors[i]!.vector, (i - start) * dim);
      hashes.push(vectors[i]!.hash);
    }
    out.push({ id: blockId(), model, dim, hashes, vectors: data });
    start = end;
  }
  return out;
}

/** Vectors of several models (a cache write, the upgrade's old rows) as blocks: grouped by model, then packed. */
export function packByModel(vectors: Iterable<BlockVector & { model: string }>): NewBlock[] {
  const byModel = new Map<string, BlockVector[]>();
  for (const { model, hash, vector } of vectors) {
    const list = byModel.get(model) ?? [];
    list.push({ hash, vector });
    byModel.set(model, list);
  }
  return [...byModel].flatMap(([model, list]) => packBlocks(model, list));
}

export interface BlockTables {
  blocks: Table<EmbeddingBlockRow, string>;
  keys: Table<EmbeddingKeysRow, number, Omit<EmbeddingKeysRow, 'id'>>;
}

/**
 * Adds blocks and their key rows. Call it inside a read-write transaction over both tables, so a
 * block never exists without its keys (or its keys without it).
 */
export async function addBlocks(tables: BlockTables, blocks: readonly NewBlock[]): Promise<void> {
  if (blocks.length === 0) return;
  await Promise.all([tables.blocks.bulkAdd([...blocks]), tables.keys.bulkAdd(blocks.map((b) => ({ block: b.id, model: b.model, hashes: b.hashes })))]);
}

/**
 * The v4 → v5 upgrade: every row of the old one-vector-per-row `embeddings` table becomes part of a
 * block, grouped by model (hashes and vectors unchanged, so every cached text stays a hit). Runs in
 * Dexie's upgrade transaction, where the old table is still readable; Dexie drops it afterwards.
 */
export async function upgradeEmbeddingsToBlocks(tx: Transaction): Promise<void> {
  const old = (await tx.table('embeddings').toArray()) as EmbeddingRow[];
  // A row without a usable vector was a miss before the upgrade and stays one.
  const usable = old.filter((row) => typeof row?.model === 'string' && typeof row.hash === 'string' && row.vector instanceof Float32Array);
  const blocks = packByModel(usable);
  await addBlocks({ blocks: tx.table('embeddingBlocks'), keys: tx.table('embeddingKeys') }, blocks);
}
