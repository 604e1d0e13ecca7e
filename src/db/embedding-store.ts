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

/** Scan a model's keys rather than fetch each asked key while it stores ≤ this many times as many. */
const SCAN_FACTOR = 4;

export class DexieEmbeddingStore implements EmbeddingStore {
  constructor(private readonly db: ToolMemDB) {}

  /**
   * One `get` per key costs ~60 µs in Chromium, so 4,000 misses took longer than embedding them.
   * Reading a model's primary keys costs ~10–25 µs per stored entry (measured 2026-12-01, 4,000 keys:
   * 220–310 ms by `bulkGet`, 24–120 ms by a key scan). So when the model has at most
   * `SCAN_FACTOR` × as many stored vectors as keys asked for (a fresh or small cache: the all-misses
   * case), its keys are scanned and only the hits fetched; otherwise every key is fetched.
   */
  async get(keys: readonly EmbeddingKey[]): Promise<(Float32Array | undefined)[]> {
    if (keys.length === 0) return [];
    const model = keys[0]!.modelId;
    const asked = keys.map((k) => [k.modelId, k.hash] as [string, string]);
    const rows = await this.db.transaction('r', this.db.embeddings, async () => {
      if (!keys.every((k) => k.modelId === model)) return this.db.embeddings.bulkGet(asked);
      const range = this.db.embeddings.where('[model+hash]').between([model, ''], [model, '\uffff']);
      if ((await range.count()) > SCAN_FACTOR * keys.length) return this.db.embeddings.bulkGet(asked);
      const stored = new Set((await range.primaryKeys()).map(([, hash]) => hash));
      const hitAt = asked.flatMap((key, i) => (stored.has(key[1]) ? [i] : []));
      const hitRows = await this.db.embeddings.bulkGet(hitAt.map((i) => asked[i]!));
      const out: (EmbeddingRow | undefined)[] = new Array<EmbeddingRow | undefined>(keys.length);
      hitAt.forEach((i, j) => (out[i] = hitRows[j]));
      return out;
    });
    return rows.map((row) => (row?.vector instanceof Float32Array ? row.vector : undefined));
  }

  /** One transaction per call (`cachedEmbed` coalesces batches into few calls); a full disk becomes StorageFullError. */
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
