/**
 * A built memory as a `toolmem-memory` file (format version 1: src/core/memory-format,
 * docs/memory-format.md). What `toolmem build-memory --out` writes and the app exports. The result
 * is already canonical (key order, tools by id, entries proficient → weak then by id), so
 * `JSON.stringify(file, null, 2)` + newline equals `serializeMemoryFile(file)`.
 *
 * Calibration (`build.calibration`, used by the MCP server's predict_score/select_tool): per tool,
 * `mean` = the tool's mean training score (the evidence clusters' `overall`), and `slope` = the
 * least-squares fit, through that mean, of each cluster's mean deviation on its level value,
 * weighted by cluster size (≥ 0; (max − min) / 4 when the tool has no cluster statistics).
 * A caller with the training data may pass its own (e.g. a fitted MemoryPredictor's).
 */
import { fileCostFields, type ToolCostStat } from '../cost/tool-cost';
import type { JointModel } from '../capability/fit';
import { dict, dictFrom, own } from '../data-keys';
import {
  canonicalMemoryFile,
  MEMORY_FORMAT_VERSION,
  fileEmbeddings,
  fileMemoryHeader,
  fileToolHeader,
  toFileEntry,
  toHistoryEntry,
  type MemoryFile,
  type MemoryFileEntry,
  type ToolCalibration,
} from '../memory-format';
import type { Tool } from '../types';
import type { Memory, MemoryEntry, BuildRun } from '../records';
import { buildConfig, buildMetrics, type ClusterStat } from './job';

export { MEMORY_FORMAT_VERSION as MEMORY_FILE_VERSION } from '../memory-format';
/** Kept for earlier callers: the formal type. */
export type MemoryFileV1 = MemoryFile;

export interface MemoryToFileOptions {
  /** Tool descriptions (name, modality, description, card price); tools not listed get their id, `other`, ''. */
  tools?: readonly (Pick<Tool, 'id' | 'name' | 'modality' | 'description'> & Partial<Pick<Tool, 'price' | 'latencyMs'>>)[];
  /** Per tool, the training data's median cost and latency (core/cost/tool-cost): used where the card has none. */
  costStats?: ReadonlyMap<string, ToolCostStat>;
  /** Also write superseded/retired entries (`history`). */
  history?: boolean;
  /** Entry vectors to include (model = memory.embeddingModel), so consumers can skip re-embedding. */
  vectors?: ReadonlyMap<string, ArrayLike<number>>;
  /** Per-tool calibration to write instead of the one derived from the cluster statistics. */
  calibration?: Record<string, ToolCalibration>;
}

function fileEntry(e: MemoryEntry, taskOf: (experienceId: string) => string | undefined, stats: ClusterStat | undefined): MemoryFileEntry {
  return toFileEntry(e, [...new Set(e.evidence.map((x) => taskOf(x) ?? x))], stats);
}

/** Calibration from the evidence clusters' statistics (see the header). */
export function calibrationFromStats(
  entries: readonly MemoryEntry[],
  clusterStats: Record<string, ClusterStat>,
  trainTasks: number,
  range: number,
): Record<string, ToolCalibration> {
  const out = dict<ToolCalibration>(); // tool ids are data: null prototype (core/data-keys)
  const byTool = new Map<string, { value: number; s: ClusterStat }[]>();
  for (const e of entries) {
    const s = own(clusterStats, e.id); // entry ids of imported memories are any string
    if (!s) continue;
    const list = byTool.get(e.toolId) ?? [];
    list.push({ value: e.value, s });
    byTool.set(e.toolId, list);
  }
  for (const [toolId, list] of byTool) {
    const mean = list[0]!.s.overall;
    let sxy = 0;
    let sxx = 0;
    for (const { value, s } of list) {
      sxy += s.size * value * (s.mean - mean);
      sxx += s.size * value * value;
    }
    out[toolId] = { mean, slope: sxx > 1e-9 ? Math.max(0, sxy / sxx) : range / 4, n: trainTasks };
  }
  return out;
}

/**
 * Calibration of a capability memory for readers of the retrieval signal (format version 1 style):
 * the tool's training mean and slope 0 — the capability model (build.capability.model) is what
 * predicts; a reader that only knows calibration predicts each tool's mean, never a wrong signal.
 */
export function calibrationFromModel(model: JointModel, trainTasks: number): Record<string, ToolCalibration> {
  return dictFrom(model.tools.map((t, j) => [t, { mean: model.mu[j]!, slope: 0, n: trainTasks }] as const));
}

export function memoryToFile(
  memory: Memory,
  entries: readonly MemoryEntry[],
  run: BuildRun,
  taskOf: (experienceId: string) => string | undefined,
  trainTasks: readonly string[],
  options: MemoryToFileOptions = {},
): MemoryFile {
  const config = buildConfig(run);
  // The capability counters travel in build.capability.report, not twice.
  const { clusterStats, capability: _counters, ...metrics } = buildMetrics(run);
  const cap = memory.capability;
  const valid = entries.filter((e) => e.validTo === null);
  const old = entries.filter((e) => e.validTo !== null);
  const toolIds = [...new Set([...config.tools, ...valid.map((e) => e.toolId)])].sort();
  const described = new Map((options.tools ?? []).map((t) => [t.id, t]));
  const file: MemoryFile = {
    version: MEMORY_FORMAT_VERSION,
    kind: 'toolmem-memory',
    memory: fileMemoryHeader(memory),
    build: {
      runId: run.id,
      state: run.state,
      datasetId: config.datasetId,
      scale: { ...config.scale },
      split: { ...config.split, trainTasks: [...trainTasks] },
      engine: config.engine,
      settings: { ...config.settings },
      metrics: { ...metrics },
      calibration:
        options.calibration ??
        (cap?.model
          ? calibrationFromModel(cap.model.model, trainTasks.length)
          : calibrationFromStats(valid, clusterStats, trainTasks.length, config.scale.max - config.scale.min)),
      ...(cap ? { capability: structuredClone(cap) } : {}),
    },
    tools: toolIds.map((id) => {
      const mine = valid.filter((e) => e.toolId === id);
      const t = described.get(id);
      return {
        ...fileToolHeader(id, mine, t),
        entries: mine.map((e) => fileEntry(e, taskOf, own(clusterStats, e.id))),
        ...fileCostFields(t, options.costStats?.get(id)),
      };
    }),
    historyCount: old.length,
    ...(options.history ? { history: old.map((e) => toHistoryEntry(e, fileEntry(e, taskOf, own(clusterStats, e.id)))) } : {}),
    ...fileEmbeddings(memory, valid, options.vectors),
  };
  return canonicalMemoryFile(file);
}
