/**
 * What an imported memory keeps of its file, types only: records.ts names it in `MemorySettings`,
 * so it may not import modules that read Memory rows (issue #29: no import cycles).
 */
import type { MemoryFile, MemoryFileEntry } from './schema';

type ClusterStats = NonNullable<MemoryFileEntry['stats']>;

/** What an imported (or merged-into) memory keeps in `Memory.settings.imported`. */
export interface ImportedBuild {
  /** The file's format version (exported again with it); absent in memories imported before version 2. */
  version?: 1 | 2 | 3 | 4;
  /** The file's build section as it was (calibration, training tasks, settings, metrics). */
  build: MemoryFile['build'];
  /** Every tool of the file, including tools without entries. */
  toolIds: string[];
  /** Entry id → what the entry rows do not hold. */
  entries: Record<string, { evidenceTasks: string[]; stats?: ClusterStats }>;
  /** `historyCount` minus the history entries the file carried (those that are not rows here). */
  historyNotStored: number;
  /** The file carried entry vectors (export writes them again when the cache holds them all). */
  embeddings: boolean;
  /** Tool id → the file's cost and latency of that tool (MCP `select_tool`), written back on export. */
  toolCosts?: Record<string, Pick<MemoryFile['tools'][number], 'cost' | 'latency'>>;
}
