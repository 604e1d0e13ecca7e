/**
 * Per memory generation: what the tools' answers need that depends on the memory file alone, or
 * on the file and a task text, computed once and reused by every request that this generation
 * serves (issue #36: a select at the cost of its arithmetic). A new file (a hot reload) gets a
 * new generation, so nothing here can outlive the memory it was computed from. Everything is
 * read-only once made: answers share these objects and only ever serialise them.
 *
 *  - tasks: a task text → its PredictTask (vector from the process-wide EmbeddingCache). The same
 *    text gets the same object back, so what is keyed on the object below is found again.
 *  - facet membership: whether each facet's rule applies to a task — cue rules run regular
 *    expressions over the text, theme rules a dot product — is computed once per task object.
 *  - predictions: per task object and tool, the predictor's answer (a select's candidates are
 *    predicted from the same task-wide rows; the next request with that text reuses them).
 *  - derived parts: per prediction object, the answer lines made from it (its contributions).
 *  - fragments: per entry id, the part of an answer that says what the entry claims.
 * Memory is bounded by the task cache: at most PREDICTIONS_MAX predictions in all (fewer texts
 * are kept when the memory has many tools), everything else hangs off those objects (WeakMaps).
 */
import type { PredictTask } from '../../core/predict/types';
import type { DiscoveredFacet, FacetTask } from '../../core/capability/types';
import type { Embedder } from '../../core/embed';
import { EMBEDDING_CACHE_ENTRIES, EMBEDDING_CACHE_KEY_CHARS, LruCache, type EmbeddingCache } from './task-cache';

/** A facet rule test, as CapabilityMemoryPredictor takes it. */
export type AppliesFn = (facet: DiscoveredFacet, task: FacetTask) => boolean;

const UNKNOWN = 2;
/** Predictions kept at most (texts × tools): a few KB each, so a few tens of MB at worst. */
export const PREDICTIONS_MAX = 16_384;

export class MemoryGeneration {
  private readonly tasks: LruCache<string, PredictTask>;
  private readonly predictions = new WeakMap<object, Map<string, unknown>>();
  private readonly derivedParts = new WeakMap<object, Map<string, unknown>>();
  /** Per task object: per facet index 0 (does not apply), 1 (applies) or UNKNOWN (not asked yet). */
  private readonly membership = new WeakMap<object, Uint8Array>();
  private facetIndex: ReadonlyMap<DiscoveredFacet, number> = new Map();
  private readonly fragments = new Map<string, unknown>();

  constructor(
    private readonly embedder: Embedder,
    private readonly embeddings: EmbeddingCache,
    toolCount = 1,
  ) {
    this.tasks = new LruCache(Math.min(EMBEDDING_CACHE_ENTRIES, Math.max(256, Math.floor(PREDICTIONS_MAX / Math.max(1, toolCount)))));
  }

  /** The query task of a text (one object per text while it stays in the cache). */
  async task(text: string): Promise<PredictTask> {
    const known = this.tasks.get(text);
    if (known) return known;
    const task: PredictTask = { taskId: 'query', prompt: text, vector: await this.embeddings.vector(this.embedder, text) };
    if (text.length <= EMBEDDING_CACHE_KEY_CHARS) this.tasks.set(text, task);
    return task;
  }

  /**
   * `applies` with its answers kept per task object, for the facets of one predictor (set once,
   * right after the predictor is made; other facet objects are passed through uncached).
   */
  memoApplies(facets: readonly DiscoveredFacet[], applies: AppliesFn): AppliesFn {
    this.facetIndex = new Map(facets.map((f, i) => [f, i]));
    return (facet, task) => {
      const f = this.facetIndex.get(facet);
      if (f === undefined) return applies(facet, task);
      let row = this.membership.get(task);
      if (!row) this.membership.set(task, (row = new Uint8Array(this.facetIndex.size).fill(UNKNOWN)));
      if (row[f] === UNKNOWN) row[f] = applies(facet, task) ? 1 : 0;
      return row[f] === 1;
    };
  }

  /** `predict` with its answers kept per task object and tool (the same object back for a repeat). */
  memoPredict<P>(predict: (task: PredictTask, toolId: string) => P): (task: PredictTask, toolId: string) => P {
    return (task, toolId) => {
      let byTool = this.predictions.get(task) as Map<string, P> | undefined;
      if (!byTool) this.predictions.set(task, (byTool = new Map()));
      let p = byTool.get(toolId);
      if (p === undefined) byTool.set(toolId, (p = predict(task, toolId)));
      return p;
    };
  }

  /** The `part` made from `from` (an answer's lines from a prediction), made once per object. */
  derived<K extends object, V>(from: K, part: string, make: (from: K) => V): V {
    let parts = this.derivedParts.get(from);
    if (!parts) this.derivedParts.set(from, (parts = new Map()));
    let v = parts.get(part) as V | undefined;
    if (v === undefined) parts.set(part, (v = make(from)));
    return v;
  }

  /** The fragment of an entry id, made by `make` on first use. */
  fragment<T>(id: string, make: (id: string) => T): T {
    let v = this.fragments.get(id) as T | undefined;
    if (v === undefined) this.fragments.set(id, (v = make(id)));
    return v;
  }
}
