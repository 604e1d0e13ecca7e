/**
 * The memory as a JSON file (`toolmem build-memory --out`), format version 1. Provisional: another
 * module will formalise it; keep additions backwards compatible and bump `version` otherwise.
 * Only valid entries are written (history stays in the app); tools and entries are in a stable
 * order (tool id; level proficient → weak; entry id) so two builds can be diffed.
 */
import { LEVELS, type Level, type Memory, type MemoryEntry, type Run, type ScoreScale } from '../types';
import { buildConfig, buildMetrics, type ClusterStat } from './job';

export const MEMORY_FILE_VERSION = 1 as const;

export interface MemoryFileEntry {
  id: string;
  level: Level;
  value: 2 | 1 | -1 | -2;
  text: string;
  origin: MemoryEntry['origin'];
  support: number;
  /** Experience ids. */
  evidence: string[];
  /** Task ids of the evidence (what a person can look up in the data). */
  evidenceTasks: string[];
  pinned: boolean;
  validFrom: number;
  /** For evidence-cluster entries: the statistics behind the claim. */
  stats?: ClusterStat;
}

export interface MemoryFileV1 {
  version: typeof MEMORY_FILE_VERSION;
  kind: 'toolmem-memory';
  memory: { id: string; name: string; datasetIds: string[]; embeddingModel: string; createdAt: number; updatedAt: number };
  build: {
    runId: string;
    state: Run['state'];
    datasetId: string;
    scale: ScoreScale;
    split: { train?: number; seed?: number; trainTasks: string[] };
    engine: string;
    settings: Record<string, unknown>;
    metrics: Record<string, unknown>;
  };
  tools: { id: string; counts: Record<Level, number>; entries: MemoryFileEntry[] }[];
  /** Superseded or retired versions not written here. */
  historyCount: number;
}

export function memoryToFile(memory: Memory, entries: readonly MemoryEntry[], run: Run, taskOf: (experienceId: string) => string | undefined, trainTasks: readonly string[]): MemoryFileV1 {
  const config = buildConfig(run);
  const { clusterStats, ...metrics } = buildMetrics(run);
  const valid = entries.filter((e) => e.validTo === null);
  const toolIds = [...new Set([...config.tools, ...valid.map((e) => e.toolId)])].sort();
  const levelRank = (l: Level) => LEVELS.indexOf(l);
  return {
    version: MEMORY_FILE_VERSION,
    kind: 'toolmem-memory',
    memory: { id: memory.id, name: memory.name, datasetIds: memory.datasetIds, embeddingModel: memory.embeddingModel, createdAt: memory.createdAt, updatedAt: memory.updatedAt },
    build: {
      runId: run.id,
      state: run.state,
      datasetId: config.datasetId,
      scale: config.scale,
      split: { ...config.split, trainTasks: [...trainTasks] },
      engine: config.engine,
      settings: { ...config.settings },
      metrics: { ...metrics },
    },
    tools: toolIds.map((id) => {
      const mine = valid.filter((e) => e.toolId === id).sort((a, b) => levelRank(a.level) - levelRank(b.level) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const counts = { proficient: 0, good: 0, bad: 0, weak: 0 };
      for (const e of mine) counts[e.level]++;
      return {
        id,
        counts,
        entries: mine.map((e) => ({
          id: e.id,
          level: e.level,
          value: e.value,
          text: e.text,
          origin: e.origin,
          support: e.support,
          evidence: [...e.evidence],
          evidenceTasks: [...new Set(e.evidence.map((x) => taskOf(x) ?? x))],
          pinned: e.pinned,
          validFrom: e.validFrom,
          ...(clusterStats[e.id] ? { stats: clusterStats[e.id] } : {}),
        })),
      };
    }),
    historyCount: entries.length - valid.length,
  };
}
