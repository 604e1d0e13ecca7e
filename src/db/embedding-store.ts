/**
 * The embedding cache in IndexedDB: `EmbeddingStore` (src/core/embed) over the `embeddings` table,
 * whose primary key is the compound `[model+hash]` (embedder id + SHA-256 of the text). Plus the
 * persisted choice of embedding model (`settings.embeddingModel`).
 */
import type { EmbeddingKey, EmbeddingRecord, EmbeddingStore } from '../core/embed';
import { withQuotaCheck } from './quota';
import type { EmbeddingRow, ToolMemDB } from './schema';

/** Key of the chosen embedding model (a model id string) in the `settings` table. */
export const EMBEDDING_MODEL_KEY = 'embeddingModel';

/** A vector that owns exactly its bytes (a view into a larger buffer would store the whole buffer). */
function compact(v: Float32Array): Float32Array {
  return v.byteOffset === 0 && v.byteLength === v.buffer.byteLength ? v : v.slice();
}

export class DexieEmbeddingStore implements EmbeddingStore {
  constructor(private readonly db: ToolMemDB) {}

  async get(keys: readonly EmbeddingKey[]): Promise<(Float32Array | undefined)[]> {
    if (keys.length === 0) return [];
    const rows = await this.db.embeddings.bulkGet(keys.map((k) => [k.modelId, k.hash] as [string, string]));
    return rows.map((row) => (row?.vector instanceof Float32Array ? row.vector : undefined));
  }

  /** One transaction per call (one batch of `cachedEmbed`); a full disk becomes StorageFullError. */
  async put(records: readonly EmbeddingRecord[]): Promise<void> {
    if (records.length === 0) return;
    const rows: EmbeddingRow[] = records.map((r) => ({ model: r.modelId, hash: r.hash, vector: compact(r.vector) }));
    await withQuotaCheck(() => this.db.embeddings.bulkPut(rows));
  }

  /** Cached vectors of one model (all models when omitted). */
  async count(modelId?: string): Promise<number> {
    return modelId === undefined
      ? this.db.embeddings.count()
      : this.db.embeddings.where('[model+hash]').between([modelId, ''], [modelId, '\uffff']).count();
  }
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
