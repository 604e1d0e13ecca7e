/**
 * The memory `toolmem-llm` (and `hybrid`) reads when no stored memory is given: the capability
 * analysis of the training split (src/core/capability — facets, each tool × facet effect, the
 * entries), the same analysis a build without a model stores and the `memory` method predicts with.
 *
 * Retrieval is by rule, not by embedding: a tool's entries whose facet APPLIES to the task (a cue
 * in the prompt, a category tag, a theme centroid near the prompt's vector), strongest claimed
 * effect first, at most k per level. "Similarity" is 1 for every hit (the facet applies or not);
 * an entry's text already states its effect and evidence.
 */
import { CapabilityMemoryPredictor } from '../capability/predictor';
import { applies } from '../capability/facets';
import type { CapabilityEntry } from '../capability/entries';
import { LEVELS } from '../types';
import type { MemoryEntry } from '../records';
import type { MemoryRetriever, MemorySnapshot, RetrievedEntry } from './memory';
import type { PredictTask, TrainingSet } from './types';

export class CapabilityRetriever implements MemoryRetriever {
  /** The entries as memory rows (time 0: nothing is stored), for evidence texts. */
  readonly snapshot: MemorySnapshot;
  private readonly byTool = new Map<string, { entry: MemoryEntry; source: CapabilityEntry }[]>();

  constructor(
    train: TrainingSet,
    private readonly k = 12,
  ) {
    const analysis = new CapabilityMemoryPredictor({ rules: { idPrefix: 'induced' } });
    analysis.fit(train);
    const entries: MemoryEntry[] = [];
    // Claims only: a tentative entry is never read as a fact by a predictor (issue #25).
    for (const e of analysis.entries.filter((x) => x.status === 'claim')) {
      const entry: MemoryEntry = {
        id: e.id,
        memoryId: 'induced',
        toolId: e.toolId,
        level: e.level,
        value: e.value,
        text: e.text,
        evidence: e.evidence,
        support: e.evidence.length,
        origin: 'stats',
        pinned: false,
        validFrom: 0,
        validTo: null,
        supersededBy: null,
        facet: e.facet,
        effect: e.effect,
        createdAt: 0,
        updatedAt: 0,
      };
      entries.push(entry);
      const list = this.byTool.get(e.toolId) ?? [];
      list.push({ entry, source: e });
      this.byTool.set(e.toolId, list);
    }
    this.snapshot = { entries, vectors: new Map() };
  }

  retrieve(task: PredictTask, toolId: string): RetrievedEntry[] {
    if (this.k === 0) return [];
    const hits = (this.byTool.get(toolId) ?? [])
      .filter(({ source }) => applies({ facet: source.facet, ...(source.centroid ? { centroid: source.centroid } : {}) }, task))
      .sort((a, b) => Math.abs(b.source.claim.delta) - Math.abs(a.source.claim.delta) || (a.entry.id < b.entry.id ? -1 : 1));
    return LEVELS.flatMap((level) => hits.filter((h) => h.entry.level === level).slice(0, this.k)).map((h) => ({ entry: h.entry, similarity: 1 }));
  }
}
