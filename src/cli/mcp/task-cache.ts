/**
 * Bounded caches of the select path (issue #36): a task text that comes again — an agent asking
 * the same question, a router retrying — is not embedded again. A `Map` keeps insertion order, so
 * the least recently used key is its first one: a hit moves its key to the end, an insert past
 * `max` drops the first. Keys are the full text (never a hash: two texts must never share a
 * vector), bounded by `maxKeyChars` so one cache holds at most max × maxKeyChars characters.
 */
import type { Embedder } from '../../core/embed';

/** An optional second bound: the values' summed weight (e.g. bytes), the least recently used dropped first. */
export interface LruWeight<K, V> {
  maxWeight: number;
  weight(key: K, value: V): number;
}

export class LruCache<K, V> {
  private readonly map = new Map<K, V>();
  private total = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly max: number,
    private readonly sized?: LruWeight<K, V>,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** The summed weight of the values held (0 without a weight bound). */
  get weight(): number {
    return this.total;
  }

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  /** Holds `value` as the most recent; a value heavier than the whole weight bound is not held (an older one of its key stays). */
  set(key: K, value: V): void {
    if (this.max <= 0) return;
    const w = this.sized ? this.sized.weight(key, value) : 0;
    if (this.sized && w > this.sized.maxWeight) return;
    this.remove(key);
    this.map.set(key, value);
    this.total += w;
    while (this.map.size > this.max || (this.sized && this.total > this.sized.maxWeight)) this.remove(this.map.keys().next().value as K);
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  private remove(key: K): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.map.delete(key);
    if (this.sized) this.total -= this.sized.weight(key, old);
  }
}

/** Texts embedded at most (default); about 4,096 × (100 floats + the text) ≈ 2–3 MB. */
export const EMBEDDING_CACHE_ENTRIES = 4096;
/** Longer texts are embedded every time rather than held (a prompt is a few hundred characters). */
export const EMBEDDING_CACHE_KEY_CHARS = 2048;

/**
 * One text's vector, from the cache or the embedder. Vectors are shared read-only (nothing
 * writes into a task's vector); the embedder is called with one text, exactly as without a cache,
 * so a cached vector is the bytes a fresh call would give.
 */
export class EmbeddingCache {
  private readonly lru: LruCache<string, Float32Array>;
  private entries = new Map<string, Float32Array>();

  constructor(
    readonly embedderId: string,
    max = EMBEDDING_CACHE_ENTRIES,
    private readonly maxKeyChars = EMBEDDING_CACHE_KEY_CHARS,
  ) {
    this.lru = new LruCache(max);
  }

  get stats(): { size: number; hits: number; misses: number } {
    return { size: this.lru.size, hits: this.lru.hits, misses: this.lru.misses };
  }

  /**
   * The vectors of a memory's entry texts: those the previous memory generation had are reused, the
   * others embedded in one batch (a reload of a memory that kept most of its entries embeds only
   * the new ones, on the thread that answers requests). Holds the last generation's texts only.
   */
  async entryVectors(texts: readonly string[], embed: (texts: string[]) => Promise<Float32Array[]>): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.entries.has(t)))];
    const fresh = missing.length ? await embed(missing) : [];
    const known = new Map<string, Float32Array>(missing.map((t, i) => [t, fresh[i]!]));
    const out = texts.map((t) => known.get(t) ?? this.entries.get(t)!);
    this.entries = new Map(texts.map((t, i) => [t, out[i]!]));
    return out;
  }

  async vector(embedder: Embedder, text: string): Promise<Float32Array> {
    if (embedder.id !== this.embedderId) throw new Error(`embedding cache of ${this.embedderId} asked for ${embedder.id}`);
    const cacheable = text.length <= this.maxKeyChars;
    const hit = cacheable ? this.lru.get(text) : undefined;
    if (hit) return hit;
    const batch = await embedder.embed([text]);
    const v = batch.data.slice(0, batch.dim);
    if (cacheable) this.lru.set(text, v);
    return v;
  }
}
