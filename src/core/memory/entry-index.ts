/**
 * The valid entries of a memory with their embeddings, for the update step's context: the top k
 * entries of EACH level of one tool (the method's per-level retrieval), whose union is shown to the
 * model. Kept in step with the repository by applying the same plan after each committed update.
 * Constraint: only valid entries (validTo === null) are ever in the index.
 */
import { cachedEmbed, MemoryEmbeddingStore, rowOf, type Embedder, type EmbeddingStore } from '../embed';
import { topKPerLevel } from '../retrieval/per-level';
import { VectorIndex } from '../retrieval/vector-index';
import { LEVELS, type Level } from '../types';
import type { MemoryEntry } from '../records';
import type { UpdatePlan } from './plan';

export interface RetrievedEntry {
  entry: MemoryEntry;
  score: number;
}

export class EntryIndex {
  private readonly vectors: VectorIndex<Level>;
  private readonly entries = new Map<string, MemoryEntry>();

  constructor(
    private readonly embedder: Embedder,
    private readonly store: EmbeddingStore = new MemoryEmbeddingStore(),
  ) {
    this.vectors = new VectorIndex<Level>(embedder.dim);
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Embeds texts through the cache (one model call per batch of unseen texts). */
  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const { batch } = await cachedEmbed(this.embedder, this.store, texts, signal ? { signal } : {});
    return texts.map((_, i) => rowOf(batch, i));
  }

  async add(entries: readonly MemoryEntry[], signal?: AbortSignal): Promise<void> {
    // A tool's profile is a description the capability analysis rewrites, never an entry a
    // language-model update may edit or merge: it is not indexed for that retrieval.
    const valid = entries.filter((e) => e.validTo === null && !e.profile);
    const vecs = await this.embed(
      valid.map((e) => e.text),
      signal,
    );
    valid.forEach((e, i) => {
      this.entries.set(e.id, e);
      this.vectors.add({ id: e.id, tool: e.toolId, level: e.level, vector: vecs[i]! });
    });
  }

  /**
   * Mirrors a committed update. Callers embed `plan.added` texts BEFORE committing (see
   * `embed`), so here the vectors come from the cache and nothing can fail half-way.
   */
  async apply(plan: UpdatePlan, signal?: AbortSignal): Promise<void> {
    const added = plan.added.filter((e) => !e.profile);
    const vecs = await this.embed(
      added.map((e) => e.text),
      signal,
    );
    for (const s of plan.superseded) {
      this.entries.delete(s.id);
      this.vectors.remove(s.id);
    }
    added.forEach((e, i) => {
      this.entries.set(e.id, e);
      this.vectors.add({ id: e.id, tool: e.toolId, level: e.level, vector: vecs[i]! });
    });
  }

  /** The valid entries of `toolId` most similar to `query`, best first, across all levels. */
  nearest(query: ArrayLike<number>, toolId: string, k = 3): RetrievedEntry[] {
    return this.vectors.search(query, { k, tool: toolId }).map((h) => ({ entry: this.entries.get(h.id)!, score: h.score }));
  }

  /** Union of the top k per level for `toolId`, level by level (proficient → weak), best first. */
  retrieve(query: ArrayLike<number>, toolId: string, k: number, levels: readonly Level[] = LEVELS): RetrievedEntry[] {
    const perLevel = topKPerLevel(this.vectors, query, toolId, k, levels);
    return levels.flatMap((l) => perLevel[l].map((h) => ({ entry: this.entries.get(h.id)!, score: h.score })));
  }
}
