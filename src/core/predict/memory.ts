/**
 * Extension point for the `memory` method: predicting a tool's score from its retrieved memory
 * entries (proficient +2, good +1, bad −1, weak −2). The memory itself is built elsewhere; this
 * module fixes what a memory predictor receives and offers a numeric, LLM-free version.
 *
 * Input: a `MemorySnapshot` — the entries (only valid ones, validTo === null, are used) and their
 * vectors, embedded with the same model as the task vectors. Retrieval as in the method: the k most
 * similar entries of EACH level (paper k = 12), or a cut at the knee of each level's curve.
 *
 *   signal(task, tool) = Σ max(0, simₑ)·valueₑ / Σ max(0, simₑ)        over the retrieved entries
 *   pred               = μ_tool + β_tool·signal
 * β_tool is fitted on the training examples (least squares through the tool mean, ≥ 0); without
 * training vectors it defaults to a quarter of the scale range per level step.
 * An LLM predictor (`toolmem-llm`) would take the same retrieved entries into its prompt instead.
 */
import { kneeTopNPerLevel, topKPerLevel } from '../retrieval/per-level';
import { VectorIndex } from '../retrieval/vector-index';
import { LEVELS, type Evidence, type Level } from '../types';
import type { MemoryEntry } from '../records';
import type { SerializedCapabilityModel } from '../capability/predictor';
import type { NeighbourCut } from './knn';
import { buildTable, type TrainingTable } from './training-table';
import { toPrediction, type Predictor, type PredictTask, type ScorePrediction, type TrainingSet } from './types';

export interface MemorySnapshot {
  entries: readonly MemoryEntry[];
  /** Entry id → unit vector (same embedding model as the tasks). */
  vectors: ReadonlyMap<string, Float32Array>;
  /** A capability memory's fitted predictor: the `memory` method then predicts with it as stored. */
  capability?: SerializedCapabilityModel;
}

export interface RetrievedEntry {
  entry: MemoryEntry;
  similarity: number;
}

/** What any memory-based predictor (numeric or LLM) gets for one (task, tool). */
export interface MemoryRetriever {
  retrieve(task: PredictTask, toolId: string): RetrievedEntry[];
}

export interface MemoryPredictorOptions {
  memory: MemorySnapshot;
  /** Entries per level (default 12). */
  k?: number;
  cut?: NeighbourCut;
  evidence?: number;
}

/** Per-level retrieval over a snapshot; reusable by an LLM predictor. */
export class SnapshotRetriever implements MemoryRetriever {
  private readonly index: VectorIndex<Level> | null;
  private readonly byId = new Map<string, MemoryEntry>();

  constructor(
    memory: MemorySnapshot,
    private readonly k = 12,
    private readonly cut: NeighbourCut = 'fixed',
  ) {
    const valid = memory.entries.filter((e) => e.validTo === null && memory.vectors.has(e.id));
    const dim = valid.length ? memory.vectors.get(valid[0]!.id)!.length : 0;
    this.index = dim > 0 ? new VectorIndex<Level>(dim) : null;
    for (const e of valid) {
      this.byId.set(e.id, e);
      this.index!.add({ id: e.id, tool: e.toolId, level: e.level, vector: memory.vectors.get(e.id)! });
    }
  }

  retrieve(task: PredictTask, toolId: string): RetrievedEntry[] {
    if (!this.index || this.k === 0) return [];
    if (!task.vector) throw new Error('memory retrieval needs the task vector');
    const perLevel =
      this.cut === 'knee' ? kneeTopNPerLevel(this.index, task.vector, toolId, { min: 1, max: this.k }) : topKPerLevel(this.index, task.vector, toolId, this.k);
    return LEVELS.flatMap((l) => perLevel[l])
      .map((h) => ({ entry: this.byId.get(h.id)!, similarity: h.score }))
      .sort((a, b) => b.similarity - a.similarity || (a.entry.id < b.entry.id ? -1 : 1));
  }
}

export function memorySignal(hits: readonly RetrievedEntry[]): number {
  let num = 0;
  let den = 0;
  for (const h of hits) {
    const w = Math.max(0, h.similarity);
    num += w * h.entry.value;
    den += w;
  }
  return den > 0 ? num / den : 0;
}

/**
 * Per tool, the least-squares slope of (true score − the tool's mean) on the memory signal, through
 * the origin and never negative: a memory that points the wrong way is ignored, not inverted. A tool
 * with no signal keeps a quarter of the scale (irrelevant while its signal stays 0). `signalAt`
 * answers undefined for a task it has no signal for; it is asked only where the truth is known.
 */
export function fitSlopes(table: TrainingTable, signalAt: (tool: number, task: number) => number | undefined): number[] {
  const fallback = (table.scale.max - table.scale.min) / 4;
  return table.tools.map((_tool, j) => {
    let sxy = 0;
    let sxx = 0;
    table.tasks.forEach((_task, i) => {
      const y = table.truth[j]![i]!;
      if (Number.isNaN(y)) return;
      const s = signalAt(j, i);
      if (s === undefined) return;
      sxy += s * (y - table.mean[j]!);
      sxx += s * s;
    });
    return sxx > 1e-9 ? Math.max(0, sxy / sxx) : fallback;
  });
}

/** The tool's mean moved by its slope × the signal of the retrieved entries, which are its evidence. */
export function slopePrediction(
  table: TrainingTable,
  slope: readonly number[],
  toolId: string,
  hits: readonly RetrievedEntry[],
  evidence: number,
): ScorePrediction {
  const j = table.toolIndex.get(toolId);
  const shown: Evidence[] = hits.slice(0, evidence).map((h) => ({ kind: 'entry', id: h.entry.id, similarity: h.similarity }));
  if (j === undefined) return toPrediction(table.globalMean, table.scale, shown);
  return toPrediction(table.mean[j]! + slope[j]! * memorySignal(hits), table.scale, shown);
}

export class MemoryPredictor implements Predictor {
  readonly kind = 'sync' as const;
  readonly id = 'memory';
  readonly needs = { vectors: true, memory: true };
  private readonly retriever: SnapshotRetriever;
  private table: TrainingTable | null = null;
  private slope: number[] = [];

  constructor(private readonly opts: MemoryPredictorOptions) {
    this.retriever = new SnapshotRetriever(opts.memory, opts.k ?? 12, opts.cut ?? 'fixed');
  }

  fit(train: TrainingSet): void {
    const table = buildTable(train, { useAllRaters: false });
    this.table = table;
    this.slope = fitSlopes(table, (j, i) => {
      const task = table.tasks[i]!;
      return task.vector ? memorySignal(this.retriever.retrieve(task, table.tools[j]!)) : undefined;
    });
  }

  predict(task: PredictTask, toolId: string): ScorePrediction {
    const table = this.table;
    if (!table) throw new Error('memory: predict before fit');
    return slopePrediction(table, this.slope, toolId, this.retriever.retrieve(task, toolId), this.opts.evidence ?? 5);
  }
}
