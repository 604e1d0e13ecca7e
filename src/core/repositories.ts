/**
 * Storage interfaces the domain needs. src/db implements them with Dexie (browser, and Node tests
 * over fake-indexeddb); the CLI may implement them in memory. Core code depends only on these.
 */
import type { Dataset, Experience, ImportRecord, LabelItem, Level, Preference, StoredImage, Tool } from './types';
import type { BuildRun, Memory, MemoryEntry, Run, RunKind, RunOf } from './records';
import type { Superseded } from './memory/plan';
import type { DatasetCounts } from './stats/dataset-stats';
import type { BatchWriteResult } from './import/types';

// The import pipeline's write result lives with the pipeline's types (the import feature may not
// import the storage contracts, which name the records above it); re-exported for the repositories.
export type { BatchWriteResult };

/**
 * What the build job needs from storage beyond MemoryRepository (core/memory/repository.ts has the
 * in-memory implementation and the reasons): an update written in the same transaction as the
 * build Run's cursor, and an exact undo.
 */
export interface ApplyExtras {
  /** Run row to store in the same transaction (the build cursor). */
  run?: BuildRun;
  /** Memory row to store in the same transaction (a capability build's snapshot). */
  memory?: Memory;
}

export interface BuildMemoryRepository extends MemoryRepository {
  applyUpdate(superseded: Superseded[], added: MemoryEntry[], at: number, extras?: ApplyExtras): Promise<void>;
  revertUpdate(restore: readonly string[], remove: readonly string[], at: number, extras?: ApplyExtras): Promise<void>;
  getRun(id: string): Promise<BuildRun | undefined>;
}

export interface ToolRepository {
  get(id: string): Promise<Tool | undefined>;
  list(): Promise<Tool[]>;
  /** Insert tools that do not exist yet; existing ones are left as they are. */
  ensure(tools: Tool[]): Promise<void>;
  put(tool: Tool): Promise<void>;
}

export interface DatasetRepository {
  get(id: string): Promise<Dataset | undefined>;
  list(): Promise<Dataset[]>;
  put(dataset: Dataset): Promise<void>;
  /** Deletes the dataset with its experiences, imports and images, in one transaction. */
  remove(id: string): Promise<void>;
}

export interface ExperienceRepository {
  get(id: string): Promise<Experience | undefined>;
  byDataset(datasetId: string): Promise<Experience[]>;
  /**
   * A dataset's experiences in pages, each handed to `onPage` before the next is read: a caller that
   * keeps only what it derives (the ground truth of an evaluation) never holds the whole dataset.
   */
  scanDataset(datasetId: string, onPage: (rows: readonly Experience[]) => void): Promise<void>;
  byDatasetAndTool(datasetId: string, toolId: string): Promise<Experience[]>;
  byTask(datasetId: string, taskId: string): Promise<Experience[]>;
  /** One page of a dataset's experiences (optionally of one tool). */
  page(datasetId: string, opts: { toolId?: string; offset: number; limit: number }): Promise<Experience[]>;
  count(datasetId?: string): Promise<number>;
  /** Tool ids present in a dataset, with their experience counts. */
  countsByTool(datasetId: string): Promise<Map<string, number>>;
  /** The dataset's counts (per tool and score, per rater, distinct tasks), kept up to date on every write. */
  counts(datasetId: string): Promise<DatasetCounts>;
  /** The distinct import ids the stored rows carry (real imports, and `manual` for hand labels), keys only. */
  importIds(): Promise<string[]>;
  /** The rows last written by one import (or `manual`), read in short transactions; stops when `signal` aborts. */
  byImport(importId: string, signal?: AbortSignal): Promise<Experience[]>;
  put(experience: Experience): Promise<void>;
  /** Deletes one experience (undo of a hand label). */
  remove(id: string): Promise<void>;
  /**
   * Writes one import batch atomically. Rows equal to the stored row are left alone; rows that
   * replace a stored row keep a backup under `importId` so that undoing the import restores them.
   * `fresh`: the caller knows no row can exist yet (the dataset was empty when the import began),
   * so the read-before-write is skipped; a row that does exist anyway fails the batch (nothing is
   * overwritten).
   */
  writeImportBatch(importId: string, rows: Experience[], opts?: { fresh?: boolean }): Promise<BatchWriteResult>;
  /** Undo an import as a whole: delete rows it added, restore rows it replaced. */
  undoImport(importId: string): Promise<void>;
}

export interface ImportRepository {
  get(id: string): Promise<ImportRecord | undefined>;
  byDataset(datasetId: string): Promise<ImportRecord[]>;
  list(): Promise<ImportRecord[]>;
  put(record: ImportRecord): Promise<void>;
}

export interface MemoryRepository {
  get(id: string): Promise<Memory | undefined>;
  list(): Promise<Memory[]>;
  put(memory: Memory): Promise<void>;
  /** Valid (not superseded, not retired) entries of one tool, optionally of one level. */
  validEntries(memoryId: string, toolId: string, level?: Level): Promise<MemoryEntry[]>;
  allEntries(memoryId: string): Promise<MemoryEntry[]>;
  /** Every version (valid and superseded) of one tool's entries, optionally of one level: what the Memory page shows for a tool. */
  toolEntries(memoryId: string, toolId: string, level?: Level): Promise<MemoryEntry[]>;
  /** The tools that have entries in a memory, sorted — from the index, without reading an entry; a live read of it runs again when the entries change. */
  outline(memoryId: string): Promise<{ toolIds: string[] }>;
  /** How many entry rows (every version) a memory holds, from the index. Counting 20,000 takes ~0.1 s: not on a page's first paint. */
  entryCount(memoryId: string): Promise<number>;
  /** The earliest `validFrom` of a memory's entry rows (valid or not), or null without entries: one index read. */
  earliestValidFrom(memoryId: string): Promise<number | null>;
  /**
   * Replace a set of entries by their new versions in one transaction:
   * each superseded entry gets validTo/supersededBy, new entries are added. All or nothing.
   */
  applyUpdate(superseded: { id: string; supersededBy: string | null; reason?: string }[], added: MemoryEntry[], at: number): Promise<void>;
}

export interface RunRepository {
  get(id: string): Promise<Run | undefined>;
  /** Newest first; the runs of one kind come typed as that kind (no kind: every Run). */
  list<K extends RunKind = RunKind>(kind?: K): Promise<RunOf<K>[]>;
  put(run: Run): Promise<void>;
}

export interface ImageRepository {
  get(id: string): Promise<StoredImage | undefined>;
  put(image: StoredImage): Promise<void>;
  /** Stores images and the experiences (and label items) that now point at them, in one transaction. */
  putMany(images: StoredImage[], experiences: Experience[], items?: LabelItem[]): Promise<void>;
  countByDataset(datasetId: string): Promise<number>;
}

/** Items waiting for labels (added by hand, or imported without a score), and pairwise preferences. */
export interface LabelRepository {
  items(datasetId: string): Promise<LabelItem[]>;
  /** Stores an item (and its image, if any) in one transaction. */
  putItem(item: LabelItem, image?: StoredImage): Promise<void>;
  /**
   * Stores an import's rows without a score, in one transaction. An item already stored keeps what
   * it had: the import that first wrote it (so undoing a later re-import keeps it), its time and an
   * attached image; the rest (prompt, output) follows the file. Returns how many were new.
   */
  putImportedItems(items: LabelItem[]): Promise<number>;
  /** Deletes the items one import added (its undo and rollback). */
  removeImportItems(datasetId: string, importId: string): Promise<void>;
  /** Per tool: items of the dataset that no experience scores yet (an output still awaiting labels). */
  awaiting(datasetId: string): Promise<Map<string, number>>;
  /** The items themselves (those `awaiting` counts), in item-key order. */
  awaitingItems(datasetId: string): Promise<LabelItem[]>;
  preferences(datasetId: string): Promise<Preference[]>;
  putPreference(preference: Preference): Promise<void>;
  removePreference(id: string): Promise<void>;
}

export interface Repositories {
  tools: ToolRepository;
  datasets: DatasetRepository;
  experiences: ExperienceRepository;
  imports: ImportRepository;
  memories: BuildMemoryRepository;
  runs: RunRepository;
  images: ImageRepository;
  labels: LabelRepository;
}
