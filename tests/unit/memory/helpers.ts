/** Shared test doubles for the memory tests: a fast deterministic embedder and data factories. */
import type { Embedder, EmbeddingBatch } from '../../../src/core/embed';
import { normaliseRows } from '../../../src/core/embed';
import type { ChatMessage } from '../../../src/core/llm';
import { DEFAULT_INDUCE_SETTINGS, newEntry, type BuildConfig } from '../../../src/core/memory';
import type { Experience, Level, ScoreScale } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';

export const SCALE: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: true };

/** Bag of words hashed into `dim` buckets (FNV-1a), L2-normalised. Deterministic and fast. */
export function hashEmbedder(dim = 64): Embedder & { calls: number } {
  const e = {
    id: `hash-${dim}`,
    dim,
    calls: 0,
    async embed(texts: readonly string[]): Promise<EmbeddingBatch> {
      e.calls++;
      const data = new Float32Array(texts.length * dim);
      texts.forEach((t, i) => {
        for (const w of t
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean)) {
          let h = 0x811c9dc5;
          for (let c = 0; c < w.length; c++) h = Math.imul(h ^ w.charCodeAt(c), 0x01000193);
          data[i * dim + ((h >>> 0) % dim)]! += 1;
        }
      });
      return { dim, count: texts.length, data: normaliseRows(data, dim) };
    },
  };
  return e;
}

export function experience(i: number, over: Partial<Experience> = {}): Experience {
  const taskId = String(i).padStart(5, '0');
  const toolId = over.toolId ?? 'ToolA';
  return {
    id: `ds|${taskId}|${toolId}|r1`,
    datasetId: 'ds',
    taskId,
    prompt: `task ${i}: a red fox number ${i} jumping over ${i % 3 === 0 ? 'three' : 'two'} fences`,
    toolId,
    score: 1 + (i % 5),
    rater: 'r1',
    scoreSource: 'human',
    feedback: `feedback for ${i}`,
    categories: [],
    importId: 'test',
    createdAt: 0,
    ...over,
  };
}

export function entry(id: string, level: Level, text: string, over: Partial<MemoryEntry> = {}): MemoryEntry {
  return { ...newEntry({ id, memoryId: 'm1', toolId: 'ToolA', level, text, evidence: [`ev-${id}`], origin: 'llm', at: 1 }), ...over };
}

/** Alias (E1, E2…) under which an entry containing `fragment` was shown (first user message). */
export function aliasOf(messages: readonly ChatMessage[], fragment: string): string {
  const user = messages.find((m) => m.role === 'user')!.content;
  const line = user.split('\n').find((l) => /^\[E\d+\]/.test(l) && l.includes(fragment));
  if (!line) throw new Error(`entry "${fragment}" was not shown:\n${user}`);
  return /^\[(E\d+)\]/.exec(line)![1]!;
}

/** Everything about an entry except bookkeeping times that an undo legitimately changes. */
export function comparable(entries: readonly MemoryEntry[]) {
  return [...entries].sort((a, b) => (a.id < b.id ? -1 : 1)).map(({ updatedAt: _u, ...rest }) => rest);
}

export function buildConfigFor(tools: string[], over: Partial<BuildConfig> = {}, settings: Partial<BuildConfig['settings']> = {}): BuildConfig {
  return {
    memoryId: 'm1',
    memoryName: 'test memory',
    datasetId: 'ds',
    scale: SCALE,
    split: {},
    tools,
    engine: 'scripted',
    embeddingModel: 'hash-64',
    settings: { ...DEFAULT_INDUCE_SETTINGS, critiqueBelow: null, feedback: false, clusters: false, cluster: {}, ...settings },
    ...over,
  };
}
