import Dexie, { type EntityTable, type Table } from 'dexie';
import { datasetCountsMiddleware, type DatasetCountRow } from './dataset-counts';
import type { Dataset, Experience, ImportRecord, LabelItem, Memory, MemoryEntry, Preference, Run, StoredImage, Tool } from '../core/types';

/** A stored row that an import replaced; undoing the import puts it back. */
export interface ImportBackup {
  importId: string;
  experienceId: string;
  previous: Experience;
}

/** A cached embedding: one text embedded by one model (key: model id + SHA-256 of the text). */
export interface EmbeddingRow {
  model: string;
  hash: string;
  vector: Float32Array;
}

export interface SettingRow {
  key: string;
  value: unknown;
}

/**
 * The app database. Schema changes get a NEW version number with an upgrade function; never edit a
 * released version in place (users' browsers hold data in the old shape).
 *
 * Indexes are chosen for the queries the app makes, and kept few on the big table (every index
 * costs write time on imports): experiences by dataset+tool (a prefix of it serves "by dataset") and
 * import (undo), a task's rows by a primary-key range (v3); memory entries by memory+tool(+level).
 */
export class ToolMemDB extends Dexie {
  tools!: EntityTable<Tool, 'id'>;
  datasets!: EntityTable<Dataset, 'id'>;
  experiences!: EntityTable<Experience, 'id'>;
  imports!: EntityTable<ImportRecord, 'id'>;
  importBackups!: Table<ImportBackup, [string, string]>;
  images!: EntityTable<StoredImage, 'id'>;
  memories!: EntityTable<Memory, 'id'>;
  entries!: EntityTable<MemoryEntry, 'id'>;
  runs!: EntityTable<Run, 'id'>;
  settings!: EntityTable<SettingRow, 'key'>;
  embeddings!: Table<EmbeddingRow, [string, string]>;
  items!: EntityTable<LabelItem, 'id'>;
  preferences!: EntityTable<Preference, 'id'>;
  /** Derived: per-dataset counts kept by {@link datasetCountsMiddleware} (see dataset-counts.ts). */
  datasetCounts!: Table<DatasetCountRow, [string, string, string, number | string]>;

  constructor(name = 'toolmem') {
    super(name);
    this.version(1).stores({
      tools: 'id, name',
      datasets: 'id, name, createdAt',
      experiences: 'id, importId, [datasetId+toolId], [datasetId+taskId]',
      imports: 'id, datasetId, startedAt',
      importBackups: '[importId+experienceId], importId',
      images: 'id, datasetId',
      memories: 'id, updatedAt',
      entries: 'id, memoryId, [memoryId+toolId], [memoryId+toolId+level], supersededBy',
      runs: 'id, kind, state, startedAt',
      predictions: 'id, runId, [runId+toolId]',
      settings: 'key',
      embeddings: '[model+hash]',
      items: 'id, datasetId',
      preferences: 'id, datasetId, [datasetId+taskId]',
      datasetCounts: '[datasetId+kind+key+score]',
    });
    // v2: entries by [memoryId+validFrom], so the drift check finds a memory's earliest entry with
    // one index read and skips every experience that arrived before it (see memory-checks.ts).
    this.version(2).stores({
      entries: 'id, memoryId, [memoryId+toolId], [memoryId+toolId+level], [memoryId+validFrom], supersededBy',
    });
    // v3: experiences lose the [datasetId+taskId] index. Its one query, a task's rows (labelling, the
    // drift check), reads a range of the primary key instead: every id starts with
    // `datasetId|taskId|` (core/ids `experienceKey`; a restored backup is checked for it). Each index
    // costs every imported row a key to compute, send and write (docs/reliability.md, "Import
    // throughput"). The rows themselves do not change, so there is nothing to upgrade but the schema.
    this.version(3).stores({
      experiences: 'id, importId, [datasetId+toolId]',
    });
    // v4: the `predictions` table goes. Nothing ever wrote or read it (evaluations keep their
    // predictions in the Run's metrics), so deleting it loses no data; the other tables keep v3's shape.
    this.version(4).stores({ predictions: null });
    this.use(datasetCountsMiddleware);
  }
}
