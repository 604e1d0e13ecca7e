/**
 * Scoring from a memory file alone: the numeric memory predictor (src/core/predict/memory.ts —
 * same per-level retrieval and signal) with the per-tool calibration the file carries
 * (`build.calibration`: pred = mean + slope · signal), so a consumer such as the MCP server needs
 * no training data. Tools without a calibration use the scale midpoint and (max − min) / 4, the
 * memory predictor's own fallback.
 */
import { memorySignal, SnapshotRetriever, type MemorySnapshot, type RetrievedEntry } from '../predict/memory';
import { toPrediction, type Predictor, type PredictTask, type ScorePrediction } from '../predict/types';
import type { Evidence } from '../types';
import type { MemoryEntry } from '../records';
import { recordMap } from './records';
import type { MemoryFile, MemoryFileEntry, ToolCalibration } from './schema';

/** One valid entry of a file as a `MemoryEntry` row (valid since `validFrom`, never superseded). */
export function fileEntryRow(e: MemoryFileEntry, memoryId: string, toolId: string, id: string = e.id): MemoryEntry {
  return {
    id,
    memoryId,
    toolId,
    level: e.level,
    value: e.value,
    text: e.text,
    evidence: [...e.evidence],
    support: e.support,
    origin: e.origin,
    pinned: e.pinned,
    validFrom: e.validFrom,
    validTo: null,
    supersededBy: null,
    ...(e.facet ? { facet: structuredClone(e.facet) } : {}),
    ...(e.effect ? { effect: structuredClone(e.effect) } : {}),
    ...(e.verdict ? { verdict: structuredClone(e.verdict) } : {}),
    ...(e.profile ? { profile: structuredClone(e.profile) } : {}),
    createdAt: e.validFrom,
    updatedAt: e.validFrom,
  };
}

/** The file's valid entries as `MemoryEntry` rows (history is not retrieved). */
export function memoryEntriesOf(file: MemoryFile): MemoryEntry[] {
  return file.tools.flatMap((t) => t.entries.map((e) => fileEntryRow(e, file.memory.id, t.id)));
}

/** The vectors the file carries, when they were made with `model`; otherwise null (re-embed). */
export function fileVectors(file: MemoryFile, model: string): Map<string, Float32Array> | null {
  if (!file.embeddings || file.embeddings.model !== model) return null;
  return new Map(Object.entries(file.embeddings.vectors).map(([id, v]) => [id, Float32Array.from(v)]));
}

export interface FilePrediction extends ScorePrediction {
  signal: number;
  mean: number;
  slope: number;
  hits: RetrievedEntry[];
}

export class MemoryFilePredictor implements Predictor {
  readonly kind = 'sync' as const;
  readonly id = 'memory-file';
  readonly needs = { vectors: true, memory: true };
  readonly retriever: SnapshotRetriever;
  /** Tool id → calibration. A Map: a tool may be called `__proto__` or `constructor`. */
  private readonly calibrations: ReadonlyMap<string, ToolCalibration>;

  constructor(
    private readonly file: MemoryFile,
    snapshot: MemorySnapshot,
    private readonly opts: { k?: number; evidence?: number } = {},
  ) {
    this.retriever = new SnapshotRetriever(snapshot, opts.k ?? 12);
    this.calibrations = recordMap(file.build.calibration);
  }

  /** Calibrated from the file: nothing to fit. */
  fit(): void {}

  calibration(toolId: string): { mean: number; slope: number } {
    const c = this.calibrations.get(toolId);
    const { min, max } = this.file.build.scale;
    return c ?? { mean: (min + max) / 2, slope: (max - min) / 4 };
  }

  explain(task: PredictTask, toolId: string): FilePrediction {
    const hits = this.retriever.retrieve(task, toolId);
    const signal = memorySignal(hits);
    const { mean, slope } = this.calibration(toolId);
    const evidence: Evidence[] = hits.slice(0, this.opts.evidence ?? 5).map((h) => ({ kind: 'entry', id: h.entry.id, similarity: h.similarity }));
    return { ...toPrediction(mean + slope * signal, this.file.build.scale, evidence), signal, mean, slope, hits };
  }

  predict(task: PredictTask, toolId: string): ScorePrediction {
    const { score, clamped, evidence } = this.explain(task, toolId);
    return { score, clamped, evidence };
  }
}
