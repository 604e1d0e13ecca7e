/**
 * Embedding cache logic, independent of where vectors are stored (IndexedDB in the app, a Map in
 * tests, a file in the CLI). Vectors are keyed by (model id, SHA-256 of the exact text): a cache
 * entry is only valid for the model revision that produced it, and no raw text is used as a key.
 */
import { throwIfCancelled, type EmbedOptions, type Embedder, type EmbeddingBatch } from './embedder';
import { sha256HexSync } from './sha256';
import { WriteBehind } from './write-behind';
import type { EmbeddingKey, EmbeddingRecord, EmbeddingStore } from './store';

// The storage contract lives in store.ts (write-behind.ts implements it and may not import back).
export type { EmbeddingKey, EmbeddingRecord, EmbeddingStore };

export const DEFAULT_EMBED_BATCH = 32;

export function embeddingKeyString(key: EmbeddingKey): string {
  return `${key.modelId}\u0000${key.hash}`;
}

/** In-memory store (tests, CLI runs, or a session cache in front of IndexedDB). */
export class MemoryEmbeddingStore implements EmbeddingStore {
  private readonly map = new Map<string, Float32Array>();
  get size(): number {
    return this.map.size;
  }
  async get(keys: readonly EmbeddingKey[]): Promise<(Float32Array | undefined)[]> {
    return keys.map((k) => this.map.get(embeddingKeyString(k)));
  }
  async put(records: readonly EmbeddingRecord[]): Promise<void> {
    for (const r of records) this.map.set(embeddingKeyString(r), r.vector.slice());
  }
}

export interface CachedEmbedOptions extends EmbedOptions {
  /** Texts per model call (default 32). */
  batchSize?: number;
  /**
   * How many finished vectors may wait for storage before the model pauses (default
   * {@link DEFAULT_MAX_UNWRITTEN}). With it equal to `batchSize` the model runs at most one batch ahead of
   * the write in flight.
   */
  maxUnwritten?: number;
}

/**
 * The model runs ahead of storage by up to this many vectors, and what waits goes to IndexedDB as one
 * write. One write per 32-text batch left the model idle on every transaction (bench:embed: the
 * cache at 0.46 of the model's speed on a quiet host; 0.82 with writes behind). A crash loses at most
 * these and the batch being embedded: the cache is derived, so they are embedded again next time.
 */
export const DEFAULT_MAX_UNWRITTEN = 512;

/**
 * A write waits until this many vectors are ready (at most; see `writeSize`): each IndexedDB
 * transaction has a fixed cost in the worker and in the browser's storage process (raw IndexedDB in
 * Chromium, 4,000 vectors: 160–235 ms in 125 transactions, 27–44 ms in 16), so 4,000 texts go in 16
 * writes, not one per 32-text batch or however many the write in flight happened to leave queued.
 */
export const DEFAULT_MIN_WRITE = 256;

/**
 * How many vectors a write waits for: an eighth of the call's misses, at least a model batch (a
 * short call, or one that is cancelled or crashes early, still stores as it goes), at most
 * {@link DEFAULT_MIN_WRITE}, and at most half of `maxUnwritten`, so the model never waits for a write
 * that has not started.
 */
export function writeSize(misses: number, batchSize: number, maxUnwritten: number): number {
  return Math.max(1, Math.min(DEFAULT_MIN_WRITE, Math.floor(maxUnwritten / 2), Math.max(batchSize, Math.ceil(misses / 8))));
}

export interface CachedEmbedResult {
  batch: EmbeddingBatch;
  /** Number of `embedder.embed` calls made (0 when everything was cached). */
  modelCalls: number;
  /** Unique texts served from the store / embedded now. */
  hits: number;
  misses: number;
}

/**
 * Embeds `texts`, calling the model only for unique texts the store does not have, in batches.
 * Finished batches are written while the model embeds the next ones (`WriteBehind`: one write in
 * flight, started once `writeSize` vectors wait; batches finished meanwhile queue and go together,
 * and the model waits once `maxUnwritten` vectors are unwritten, so a crash loses at most those), so
 * storage and model overlap. The call returns only once every write has landed, so a read-back sees
 * them all. A cancelled or failed run still waits for the writes of its finished batches, so it keeps
 * its finished work. A failed write stops the run at the next batch and is what the call throws.
 * Progress counts unique texts (cached ones count as done at once). Throws `CancelledError` if
 * `signal` is aborted (checked before each batch).
 */
export async function cachedEmbed(
  embedder: Embedder,
  store: EmbeddingStore,
  texts: readonly string[],
  opts: CachedEmbedOptions = {},
): Promise<CachedEmbedResult> {
  const { signal, onProgress } = opts;
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_EMBED_BATCH));
  const maxUnwritten = Math.max(batchSize, Math.floor(opts.maxUnwritten ?? DEFAULT_MAX_UNWRITTEN));
  const dim = embedder.dim;
  throwIfCancelled(signal);

  // Deduplicate: identical texts are hashed, looked up and embedded once.
  const uniqueTexts = [...new Set(texts)];
  // Synchronous: one async digest per text cost more than the model (see sha256.ts).
  const keys = uniqueTexts.map((text) => ({ modelId: embedder.id, hash: sha256HexSync(text) }));
  const found = await store.get(keys);

  const vectors = new Map<string, Float32Array>();
  const missing: number[] = [];
  uniqueTexts.forEach((text, i) => {
    const v = found[i];
    // A stored vector of the wrong length (corrupt or foreign) counts as a miss.
    if (v && v.length === dim) vectors.set(text, v);
    else missing.push(i);
  });
  const hits = uniqueTexts.length - missing.length;
  let done = hits;
  onProgress?.({ done, total: uniqueTexts.length });

  let modelCalls = 0;
  const writer = new WriteBehind(store, writeSize(missing.length, batchSize, maxUnwritten));
  try {
    for (let start = 0; start < missing.length; start += batchSize) {
      throwIfCancelled(signal);
      writer.throwIfFailed();
      const idx = missing.slice(start, start + batchSize);
      const out = await embedder.embed(
        idx.map((i) => uniqueTexts[i]!),
        { signal },
      );
      modelCalls++;
      if (out.dim !== dim || out.count !== idx.length) {
        throw new Error(`embedder ${embedder.id} returned ${out.count}×${out.dim}, expected ${idx.length}×${dim}`);
      }
      // At most `maxUnwritten` vectors wait for storage: a crash (a killed worker, a reload) loses
      // at most those and the batch being embedded, never an unbounded queue.
      await writer.waitForRoom(maxUnwritten);
      writer.throwIfFailed();
      writer.add(
        idx.map((i, row) => {
          const vector = out.data.slice(row * dim, (row + 1) * dim);
          vectors.set(uniqueTexts[i]!, vector);
          return { ...keys[i]!, vector };
        }),
      );
      done += idx.length;
      onProgress?.({ done, total: uniqueTexts.length });
    }
  } catch (err) {
    // Keep the finished batches: wait for their writes, then report why the run stopped. A failed
    // write (e.g. a full disk) is the more useful error, so it wins over what stopped the loop.
    await writer.drain();
    throw writer.failure ?? err;
  }
  await writer.drain();
  writer.throwIfFailed();

  const data = new Float32Array(texts.length * dim);
  texts.forEach((t, i) => data.set(vectors.get(t)!, i * dim));
  return { batch: { dim, count: texts.length, data }, modelCalls, hits, misses: missing.length };
}
