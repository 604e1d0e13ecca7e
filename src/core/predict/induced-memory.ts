/**
 * The `memory` method of an evaluation: a capability memory induced from the training split alone
 * (evidence clusters, no LLM — src/core/memory/clusters.ts, the same analysis a build with engine
 * `none` runs), then the numeric memory predictor (memory.ts) on the test tasks.
 *
 * Entry vectors: the unit mean of the entry's evidence tasks' prompt vectors. A stored memory embeds
 * each entry's TEXT instead; here no embedder is at hand (core is pure and the harness passes only
 * prompt vectors), and the centroid is what the entry's text summarises (its typical task and words).
 *
 * Calibration: β per tool (pred = μ + β·signal) is fitted on the training tasks, as MemoryPredictor
 * does for a stored memory. Out-of-fold signals (`folds` ≥ 2: each fold's signal from a memory
 * induced without it) sound more honest — clusters are chosen for their scores — but measured worse
 * on GenAI-Bench (seeds 1–5, 200/800): MAE / RMSE / Pearson 0.999 / 1.186 / 0.149 with 5 folds vs
 * 0.992 / 1.178 / 0.153 in-sample; a fold's memory has other clusters than the final one, so its
 * signal calibrates the final memory poorly and β shrinks toward 0. In-sample it is (and 6× cheaper).
 */
import { evidenceClusters, type ClusterSettings, type GroupCache } from '../memory/clusters';
import { newEntry } from '../memory/plan';
import type { MemoryEntry } from '../records';
import { fitSlopes, memorySignal, slopePrediction, SnapshotRetriever, type MemorySnapshot } from './memory';
import type { NeighbourCut } from './knn';
import { buildTable, exampleKey, type TrainingTable } from './training-table';
import type { Predictor, PredictTask, ScorePrediction, TrainingExample, TrainingSet } from './types';
import { compareIds } from '../ids';

export interface InduceOptions {
  settings?: ClusterSettings;
  memoryId?: string;
  /** Dendrogram groups shared by tools with the same tasks (and across calls on the same tasks). */
  cache?: GroupCache;
}

const byTaskId = compareIds;

function unitMean(vectors: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(vectors[0]!.length);
  for (const v of vectors) for (let i = 0; i < v.length; i++) out[i]! += v[i]!;
  let norm = 0;
  for (const x of out) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

/**
 * Evidence-cluster memory of every tool of `set` (examples need prompt vectors; those without are
 * left out). Entry ids `{memoryId}:{tool}:c.{n}`, deterministic; time 0 (nothing is stored).
 */
export function induceClusterMemory(set: TrainingSet, opts: InduceOptions = {}): MemorySnapshot {
  const memoryId = opts.memoryId ?? 'induced';
  const cache = opts.cache ?? new Map();
  const byTool = new Map<string, TrainingExample[]>();
  for (const e of set.examples) {
    if (!e.vector || !Number.isFinite(e.score)) continue;
    const list = byTool.get(e.toolId) ?? [];
    list.push(e);
    byTool.set(e.toolId, list);
  }
  const entries: MemoryEntry[] = [];
  const vectors = new Map<string, Float32Array>();
  for (const toolId of [...byTool.keys()].sort()) {
    const list = byTool.get(toolId)!.sort((a, b) => byTaskId(a.taskId, b.taskId));
    const vecOf = new Map(list.map((e) => [exampleKey(e), e.vector!]));
    const clusters = evidenceClusters(
      {
        experienceIds: list.map(exampleKey),
        texts: list.map((e) => e.prompt),
        scores: list.map((e) => e.score),
        vectors: list.map((e) => e.vector!),
        direction: set.scale.direction,
      },
      opts.settings,
      cache,
    );
    clusters.forEach((c, n) => {
      const entry = newEntry({
        id: `${memoryId}:${toolId}:c.${n}`,
        memoryId,
        toolId,
        level: c.level,
        text: c.text,
        evidence: c.evidence,
        origin: 'stats',
        at: 0,
      });
      entries.push(entry);
      vectors.set(entry.id, unitMean(c.evidence.map((id) => vecOf.get(id)!)));
    });
  }
  return { entries, vectors };
}

export interface InducedMemoryOptions {
  /** Entries per level (default 12). */
  k?: number;
  cut?: NeighbourCut;
  settings?: ClusterSettings;
  /** Folds for an out-of-fold calibration (default 1 = in-sample; see the header). */
  folds?: number;
  evidence?: number;
}

export class InducedMemoryPredictor implements Predictor {
  readonly kind = 'sync' as const;
  readonly id = 'memory';
  readonly needs = { vectors: true, memory: true };
  private table: TrainingTable | null = null;
  private retriever: SnapshotRetriever | null = null;
  private slope: number[] = [];
  /** The memory induced on the whole training set (for inspection and tests). */
  memory: MemorySnapshot | null = null;

  constructor(private readonly opts: InducedMemoryOptions = {}) {}

  private makeRetriever(memory: MemorySnapshot): SnapshotRetriever {
    return new SnapshotRetriever(memory, this.opts.k ?? 12, this.opts.cut ?? 'fixed');
  }

  fit(train: TrainingSet): void {
    const table = buildTable(train, { useAllRaters: false });
    if (table.tasks.some((t) => !t.vector)) throw new Error("method 'memory' needs a prompt vector on every training task (embed the prompts first)");
    this.table = table;
    const cache: GroupCache = new Map();
    this.memory = induceClusterMemory(train, { settings: this.opts.settings, cache });
    this.retriever = this.makeRetriever(this.memory);
    // Signal of every (tool, training task): in-sample, or out-of-fold with `folds` ≥ 2.
    const folds = Math.min(this.opts.folds ?? 1, table.tasks.length);
    const signal = table.tools.map(() => new Float64Array(table.tasks.length));
    if (folds <= 1) {
      table.tools.forEach((tool, j) => table.tasks.forEach((task, i) => (signal[j]![i] = memorySignal(this.retriever!.retrieve(task, tool)))));
    } else {
      for (let f = 0; f < folds; f++) {
        const held = new Set(table.tasks.filter((_, i) => i % folds === f).map((t) => t.taskId));
        const inner = induceClusterMemory(
          { scale: train.scale, examples: train.examples.filter((e) => !held.has(e.taskId)) },
          { settings: this.opts.settings, memoryId: `fold${f}` },
        );
        const retriever = this.makeRetriever(inner);
        table.tasks.forEach((task, i) => {
          if (i % folds !== f) return;
          table.tools.forEach((tool, j) => (signal[j]![i] = memorySignal(retriever.retrieve(task, tool))));
        });
      }
    }
    // No signal at all (no entries): the slope is irrelevant; fitSlopes keeps the stored-memory fallback.
    this.slope = fitSlopes(table, (j, i) => signal[j]![i]!);
  }

  predict(task: PredictTask, toolId: string): ScorePrediction {
    const table = this.table;
    if (!table || !this.retriever) throw new Error('memory: predict before fit');
    if (!task.vector) throw new Error("method 'memory' needs the task's prompt vector");
    return slopePrediction(table, this.slope, toolId, this.retriever.retrieve(task, toolId), this.opts.evidence ?? 5);
  }
}
