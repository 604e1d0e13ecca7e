import Dexie, { type EntityTable, type Table } from 'dexie';
import { datasetCountsMiddleware } from './dataset-counts';
import type { CountLogRow } from './count-log';
import { upgradeToV7 } from './migrate-v7';
import { upgradeEmbeddingsToBlocks } from './embedding-blocks';
import { importKeysMiddleware, type ImportKeysRow } from './import-keys';
import { rekeyExperienceIds } from './migrate-v6';
import type { Dataset, Experience, ImportRecord, LabelItem, Preference, StoredImage, Tool } from '../core/types';
import type { Memory, MemoryEntry, Run } from '../core/records';
import type { EmbeddingBlockRow, EmbeddingKeysRow, EmbeddingRow, ImportBackup, SettingRow } from './rows';

// Row shapes of the tables that are not domain records live in rows.ts (the upgrade modules read
// them, and schema.ts imports those modules); re-exported for callers.
export type { EmbeddingBlockRow, EmbeddingKeysRow, EmbeddingRow, ImportBackup, SettingRow };

/**
 * The app database. Schema changes get a NEW version number with an upgrade function; never edit a
 * released version in place (users' browsers hold data in the old shape).
 *
 * Indexes are chosen for the queries the app makes, and kept few on the big table (every index
 * costs write time on imports): experiences by import (undo) only; by dataset, by dataset+tool and by
 * task they are primary-key ranges (v6 key order, core/ids); memory entries by memory+tool(+level).
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
  embeddingBlocks!: Table<EmbeddingBlockRow, string>;
  embeddingKeys!: Table<EmbeddingKeysRow, number, Omit<EmbeddingKeysRow, 'id'>>;
  items!: EntityTable<LabelItem, 'id'>;
  preferences!: EntityTable<Preference, 'id'>;
  /** Derived: per-dataset counts kept by {@link datasetCountsMiddleware} (v7: a log, see count-log.ts). */
  countLog!: Table<CountLogRow, number>;
  /** Derived: the keys each import wrote, kept by {@link importKeysMiddleware} (see import-keys.ts). */
  importKeys!: Table<ImportKeysRow, number>;

  constructor(name = 'toolmem') {
    super(name);
    // v1–v4 are declared as one: version 4's schema, in full. None of them had an upgrade function,
    // and Dexie needs only the versions that do (plus the schema they start from): a database at v1,
    // v2 or v3 opens straight into v4's shape, losing only what v4 dropped anyway. Each declared
    // version costs every page start a parse of the whole schema (~10 ms on a phone each).
    // v1 → v2: entries by [memoryId+validFrom], so the drift check finds a memory's earliest entry with
    //   one index read and skips every experience that arrived before it (see memory-checks.ts).
    // v3: experiences lose the [datasetId+taskId] index (a task's rows are a primary-key range).
    // v4: the `predictions` table goes; nothing ever wrote or read it.
    this.version(4).stores({
      tools: 'id, name',
      datasets: 'id, name, createdAt',
      experiences: 'id, importId, [datasetId+toolId]',
      imports: 'id, datasetId, startedAt',
      importBackups: '[importId+experienceId], importId',
      images: 'id, datasetId',
      memories: 'id, updatedAt',
      entries: 'id, memoryId, [memoryId+toolId], [memoryId+toolId+level], [memoryId+validFrom], supersededBy',
      runs: 'id, kind, state, startedAt',
      predictions: null,
      settings: 'key',
      embeddings: '[model+hash]',
      items: 'id, datasetId',
      preferences: 'id, datasetId, [datasetId+taskId]',
      datasetCounts: '[datasetId+kind+key+score]',
    });
    // v5 (embedding cache): vectors in blocks of up to 512 per row plus a hashes-only row per block,
    // instead of one row per vector — IndexedDB's cost per record made writing 4,000 cache misses
    // slower than embedding them (db/embedding-blocks.ts). The upgrade packs the old rows into blocks
    // (same hashes, same vectors: every cached text stays cached), then Dexie drops `embeddings`.
    this.version(5).stores({ embeddings: null, embeddingBlocks: 'id', embeddingKeys: '++id' }).upgrade(upgradeEmbeddingsToBlocks);
    // v6: experience ids become `datasetId|toolId|taskId|rater` (core/ids `experienceKey`), so a
    // dataset's rows and one tool's rows of it are primary-key ranges and the [datasetId+toolId]
    // index goes: one index entry less for every imported row (docs/reliability.md, "Import
    // throughput"). The key path stays `id`, so the table stays; the upgrade re-keys its rows and
    // every stored reference to them (import backups, memory entries' evidence) in place (migrate-v6.ts).
    this.version(6)
      .stores({ experiences: 'id, importId' })
      .upgrade((tx) => rekeyExperienceIds(tx.idbtrans));
    // v7 (import throughput, docs/reliability.md "Fifth pass"): the last index of `experiences`
    // (`importId`) goes. Its readers (an import's undo and rollback, the drift check's per-import
    // reads) read the `importKeys` lists instead: one record per write request rather than one index
    // entry per row (import-keys.ts). And the dataset counts become a log of differences per
    // dataset (count-log.ts) instead of a row per (tool, score), rater and task rewritten by every
    // write. The upgrade lists the stored rows and converts the count rows (migrate-v7.ts).
    this.version(7)
      .stores({ experiences: 'id', importKeys: '++seq, importId', datasetCounts: null, countLog: '++seq, [datasetId+kind]' })
      .upgrade((tx) => upgradeToV7(tx.idbtrans));
    this.use(datasetCountsMiddleware);
    this.use(importKeysMiddleware);
  }
}
