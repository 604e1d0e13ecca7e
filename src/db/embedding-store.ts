/**
 * The embedding cache in IndexedDB: `EmbeddingStore` (src/core/embed) over the v5 block tables
 * (`embeddingBlocks` + `embeddingKeys`, layout and reasons in ./embedding-blocks.ts). A vector is
 * found by (embedder id, SHA-256 of the text). Plus the persisted choice of embedding model
 * (`settings.embeddingModel`).
 */
import type { EmbeddingKey, EmbeddingRecord, EmbeddingStore } from '../core/embed';
import { packByModel, type NewBlock } from './embedding-blocks';
import { withQuotaCheck } from './quota';
import type { EmbeddingBlockRow, EmbeddingKeysRow, ToolMemDB } from './schema';

/** The cache's two object stores (schema v5; ./embedding-blocks.ts). */
const BLOCKS = 'embeddingBlocks';
const KEYS = 'embeddingKeys';

/** Key of the chosen embedding model (a model id string) in the `settings` table. */
export const EMBEDDING_MODEL_KEY = 'embeddingModel';

/** Where a cached vector is: block id and row in it. */
interface Place {
  block: string;
  row: number;
}

/**
 * Every stored hash → its place, per model, as of the key rows read so far. Key rows are only ever
 * added (ids from IndexedDB's key generator, which only grows) or deleted (clearing the cache,
 * deleting the database), never changed; so rows with an id above `lastId` are the new ones, and
 * a total that is not `rows` + the new ones means some were deleted: then everything is re-read.
 */
class KnownKeys {
  readonly byModel = new Map<string, Map<string, Place>>();
  rows = 0;
  lastId = 0;

  add(keyRows: readonly EmbeddingKeysRow[]): void {
    for (const k of keyRows) {
      if (k.id <= this.lastId) continue; // read twice by overlapping lookups
      let places = this.byModel.get(k.model);
      if (!places) this.byModel.set(k.model, (places = new Map()));
      k.hashes.forEach((hash, row) => places.set(hash, { block: k.block, row }));
      this.rows++;
      this.lastId = k.id;
    }
  }
}

export class DexieEmbeddingStore implements EmbeddingStore {
  /**
   * Kept between calls, so a lookup reads only the key rows added since the last one (other
   * workers write to the same tables). Never trusted alone: a hit is checked against the hash stored
   * in its block, so even a deleted-and-refilled database cannot return another text's vector.
   */
  private known: KnownKeys | null = null;

  constructor(private readonly db: ToolMemDB) {}

  /** Must run inside a transaction over `embeddingKeys`. */
  private async refresh(): Promise<KnownKeys> {
    const total = await this.db.embeddingKeys.count();
    const known = this.known;
    if (known) {
      const fresh = await this.db.embeddingKeys.where('id').above(known.lastId).toArray();
      if (known.rows + fresh.length === total) {
        known.add(fresh);
        return known;
      }
    }
    const rebuilt = new KnownKeys();
    rebuilt.add(await this.db.embeddingKeys.toArray());
    this.known = rebuilt;
    return rebuilt;
  }

  /**
   * One read transaction: the new key rows (none, in a steady worker), then only the blocks that
   * hold hits. All misses in a fresh cache therefore cost two small reads, whatever the call's size
   * (before v5 a miss cost a `get` per key, ~60 µs each in Chromium, or a scan of the model's keys).
   */
  async get(keys: readonly EmbeddingKey[]): Promise<(Float32Array | undefined)[]> {
    if (keys.length === 0) return [];
    const db = this.db;
    return db.transaction('r', [db.embeddingKeys, db.embeddingBlocks], async () => {
      const known = await this.refresh();
      const places = keys.map((k) => known.byModel.get(k.modelId)?.get(k.hash));
      const ids = [...new Set(places.flatMap((p) => (p ? [p.block] : [])))];
      const rows = ids.length ? await db.embeddingBlocks.bulkGet(ids) : [];
      const blocks = new Map<string, EmbeddingBlockRow | undefined>(ids.map((id, i) => [id, rows[i]]));
      let stale = false;
      const out = keys.map((k, i) => {
        const p = places[i];
        if (!p) return undefined;
        const b = blocks.get(p.block);
        if (!b || b.model !== k.modelId || b.hashes[p.row] !== k.hash || !(b.vectors instanceof Float32Array)) {
          stale = true; // a miss now; the next call re-reads every key row
          return undefined;
        }
        return b.vectors.subarray(p.row * b.dim, (p.row + 1) * b.dim);
      });
      if (stale) this.known = null;
      return out;
    });
  }

  /**
   * One transaction per call, writing one block per model (per 512 vectors): `cachedEmbed` writes
   * up to 256 vectors per call, so a miss costs a share of two rows, not a row of its own. A full
   * disk becomes StorageFullError. Written below Dexie (the cache tables have no middleware, hooks or
   * live queries): see `writeBlocks`.
   */
  async put(records: readonly EmbeddingRecord[]): Promise<void> {
    if (records.length === 0) return;
    const blocks = packByModel(records.map((r) => ({ model: r.modelId, hash: r.hash, vector: r.vector })));
    if (!this.db.isOpen()) await this.db.open();
    const idb = this.db.backendDB();
    await withQuotaCheck(() => writeBlocks(idb, blocks));
  }

  /** Distinct cached texts of one model (of all models when omitted). */
  async count(modelId?: string): Promise<number> {
    const known = await this.db.transaction('r', this.db.embeddingKeys, () => this.refresh());
    if (modelId !== undefined) return known.byModel.get(modelId)?.size ?? 0;
    let n = 0;
    for (const places of known.byModel.values()) n += places.size;
    return n;
  }
}

/**
 * Adds blocks and their key rows in one raw IndexedDB transaction that commits as soon as its
 * requests are done: `commit()` right after the adds, so the browser's storage process does not wait
 * for this thread to handle each request's success event first. The embed worker's thread is busy
 * with the model while a write runs behind it (its batches resolve through microtasks only, so those
 * events wait for the model to stop), and under Dexie, which commits once its own promises have
 * settled, a write stayed open until the model had to wait for it (bench:embed, docs/embeddings.md).
 * Durability 'relaxed': the cache is derived data, so a write may be acknowledged before it reaches
 * the disk (a power cut loses at most the last writes, embedded again on the next call).
 */
export function writeBlocks(idb: IDBDatabase, blocks: readonly NewBlock[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = idb.transaction([BLOCKS, KEYS], 'readwrite', { durability: 'relaxed' });
    tx.oncomplete = () => resolve();
    // A failed add aborts the transaction: nothing of this write is kept, and its error is reported.
    tx.onabort = () => reject(tx.error ?? new DOMException('The embedding cache write was aborted', 'AbortError'));
    const blockStore = tx.objectStore(BLOCKS);
    const keyStore = tx.objectStore(KEYS);
    for (const block of blocks) {
      blockStore.add(block);
      keyStore.add({ block: block.id, model: block.model, hashes: block.hashes });
    }
    tx.commit();
  });
}

/** The persisted model choice, as the embed service wants it. */
export function embeddingModelSetting(db: ToolMemDB): { get(): Promise<string | undefined>; set(model: string): Promise<void> } {
  return {
    async get() {
      const row = await db.settings.get(EMBEDDING_MODEL_KEY);
      return typeof row?.value === 'string' ? row.value : undefined;
    },
    async set(model) {
      await db.settings.put({ key: EMBEDDING_MODEL_KEY, value: model });
    },
  };
}
