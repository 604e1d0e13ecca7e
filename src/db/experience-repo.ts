import type { BatchWriteResult, ExperienceRepository } from '../core/repositories';
import Dexie from 'dexie';
import { throwIfCancelled } from '../core/embed';
import type { Experience } from '../core/types';
import type { ToolMemDB } from './schema';
import { withQuotaCheck } from './quota';
import { readDatasetCounts, replacingRows } from './dataset-counts';

/** Fields that define "the same row" for idempotent re-import (bookkeeping fields excluded). */
function sameContent(a: Experience, b: Experience): boolean {
  return (
    a.score === b.score &&
    a.prompt === b.prompt &&
    (a.response ?? '') === (b.response ?? '') &&
    (a.feedback ?? '') === (b.feedback ?? '') &&
    (a.rubric ?? '') === (b.rubric ?? '') &&
    (a.imageId ?? '') === (b.imageId ?? '') &&
    a.scoreSource === b.scoreSource &&
    a.categories.join('\u0000') === b.categories.join('\u0000')
  );
}

/** Rows per read when a whole dataset is scanned (see byDataset). */
export const SCAN_PAGE = 10_000;
/** Rows per read transaction in `byImport`. */
export const SCAN_CHUNK = 2_000;

export class DexieExperienceRepository implements ExperienceRepository {
  constructor(private readonly db: ToolMemDB) {}

  get(id: string) {
    return this.db.experiences.get(id);
  }

  /** Rows of one dataset, through the prefix of the [datasetId+toolId] index. */
  inDataset(datasetId: string) {
    return this.db.experiences.where('[datasetId+toolId]').between([datasetId, Dexie.minKey], [datasetId, Dexie.maxKey]);
  }

  /**
   * Every row of a dataset, read tool by tool in pages of {@link SCAN_PAGE} rows, each page its own
   * short transaction. One getAll of 200k rows holds the origin's IndexedDB backend for seconds and
   * every other read (a page opening, another worker) waits behind it; pages let them in between.
   * Same order as one scan of the [datasetId+toolId] index. Not a snapshot: rows written meanwhile
   * by another import may or may not be included (callers that need a snapshot use a transaction).
   */
  async byDataset(datasetId: string): Promise<Experience[]> {
    // Keys of the [datasetId+toolId] index: [datasetId, toolId] pairs, in index order.
    const toolIds = (await this.inDataset(datasetId).uniqueKeys()).map((key) => String(Array.isArray(key) ? key[1] : key));
    const out: Experience[] = [];
    for (const toolId of toolIds) {
      const byTool = () => this.db.experiences.where('[datasetId+toolId]').equals([datasetId, toolId]);
      for (let offset = 0; ; offset += SCAN_PAGE) {
        const page = await byTool().offset(offset).limit(SCAN_PAGE).toArray();
        for (const row of page) out.push(row);
        if (page.length < SCAN_PAGE) break;
      }
    }
    return out;
  }

  byDatasetAndTool(datasetId: string, toolId: string) {
    return this.db.experiences.where('[datasetId+toolId]').equals([datasetId, toolId]).toArray();
  }

  /**
   * A task's rows: the primary-key range of ids that start with `datasetId|taskId|` (every id is
   * `experienceKey(datasetId, taskId, toolId, rater)`; schema v3 dropped the task index). Ids are not
   * escaped, so the range may also hold another task's rows (task `a|b` lies inside task `a`'s
   * range): the exact dataset and task are checked on each row.
   */
  async byTask(datasetId: string, taskId: string): Promise<Experience[]> {
    const prefix = `${datasetId}|${taskId}|`;
    // Every string that starts with the prefix lies in [prefix, prefix with its last '|' raised to '}').
    const rows = await this.db.experiences.where(':id').between(prefix, `${prefix.slice(0, -1)}}`, true, false).toArray();
    return rows.filter((e) => e.datasetId === datasetId && e.taskId === taskId);
  }

  count(datasetId?: string) {
    return datasetId === undefined
      ? this.db.experiences.count()
      : this.inDataset(datasetId).count();
  }

  async countsByTool(datasetId: string): Promise<Map<string, number>> {
    // From the stored counts (db/dataset-counts.ts): a few rows, whatever the dataset's size.
    const counts = new Map<string, number>();
    for (const { toolId, n } of (await this.counts(datasetId)).scores) counts.set(toolId, (counts.get(toolId) ?? 0) + n);
    return new Map([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  counts(datasetId: string) {
    return readDatasetCounts(this.db, datasetId);
  }

  /** A `nextunique` key cursor over the `importId` index: one key per import, no row read. */
  async importIds(): Promise<string[]> {
    return (await this.db.experiences.orderBy('importId').uniqueKeys()) as string[];
  }

  /**
   * Keys first (an index scan), then the rows in chunks of {@link SCAN_CHUNK}, each its own short
   * transaction: one read of a 200k-row import would hold the origin's IndexedDB backend, and every
   * other read (a page opening), until it ends. Not a snapshot across chunks.
   */
  async byImport(importId: string, signal?: AbortSignal): Promise<Experience[]> {
    const keys = await this.db.experiences.where('importId').equals(importId).primaryKeys();
    const out: Experience[] = [];
    for (let start = 0; start < keys.length; start += SCAN_CHUNK) {
      throwIfCancelled(signal);
      for (const row of await this.db.experiences.bulkGet(keys.slice(start, start + SCAN_CHUNK))) if (row) out.push(row);
    }
    return out;
  }

  /** One page of a dataset's experiences (optionally of one tool), in index order. */
  page(datasetId: string, opts: { toolId?: string; offset: number; limit: number }): Promise<Experience[]> {
    const coll = opts.toolId === undefined ? this.inDataset(datasetId) : this.db.experiences.where('[datasetId+toolId]').equals([datasetId, opts.toolId]);
    return coll.offset(opts.offset).limit(opts.limit).toArray();
  }

  async put(experience: Experience) {
    await withQuotaCheck(() => this.db.experiences.put(experience));
  }

  async remove(id: string) {
    await this.db.experiences.delete(id);
  }

  writeImportBatch(importId: string, rows: Experience[], opts: { fresh?: boolean } = {}): Promise<BatchWriteResult> {
    if (opts.fresh) {
      // bulkAdd (not put): a key that exists after all aborts the batch instead of overwriting it.
      // The explicit transaction makes that all-or-nothing (a bare bulkAdd keeps the rows that worked).
      return withQuotaCheck(() =>
        this.db.transaction('rw', this.db.experiences, async () => {
          // The pipeline already stamps its rows with this import's id; copy only a row that is not.
          await this.db.experiences.bulkAdd(rows.map((row) => (row.importId === importId ? row : { ...row, importId })));
          return { added: rows.length, updated: 0, unchanged: 0 };
        }),
      );
    }
    return withQuotaCheck(() =>
      this.db.transaction('rw', this.db.experiences, this.db.importBackups, async () => {
        const existing = await this.db.experiences.bulkGet(rows.map((r) => r.id));
        const toWrite: Experience[] = [];
        const backups: { importId: string; experienceId: string; previous: Experience }[] = [];
        let added = 0;
        let updated = 0;
        let unchanged = 0;
        rows.forEach((row, i) => {
          const old = existing[i];
          if (!old) {
            added++;
            toWrite.push({ ...row, importId });
            return;
          }
          // Images are attached separately: a re-imported row without an image keeps the stored one.
          const next = row.imageId === undefined && old.imageId !== undefined ? { ...row, imageId: old.imageId } : row;
          if (sameContent(old, next)) {
            unchanged++;
          } else {
            updated++;
            // Keep the first backup taken by this import: the state before the import began.
            backups.push({ importId, experienceId: row.id, previous: old });
            toWrite.push({ ...next, importId, createdAt: old.createdAt });
          }
        });
        if (backups.length) {
          const seen = await this.db.importBackups.bulkGet(backups.map((b) => [b.importId, b.experienceId] as [string, string]));
          await this.db.importBackups.bulkAdd(backups.filter((_, i) => !seen[i]));
        }
        // The rows just read (in this transaction, nothing written to experiences since) are what the
        // put replaces: the counts middleware takes its differences from them instead of reading again.
        const trans = Dexie.currentTransaction?.idbtrans;
        if (trans) replacingRows(trans, new Map(rows.map((row, i) => [row.id, existing[i]])));
        await this.db.experiences.bulkPut(toWrite);
        return { added, updated, unchanged };
      }),
    );
  }

  async undoImport(importId: string): Promise<void> {
    await this.db.transaction('rw', this.db.experiences, this.db.importBackups, async () => {
      const backups = await this.db.importBackups.where('importId').equals(importId).toArray();
      const restored = new Set(backups.map((b) => b.experienceId));
      const ownKeys = await this.db.experiences.where('importId').equals(importId).primaryKeys();
      await this.db.experiences.bulkDelete(ownKeys.filter((k) => !restored.has(k)));
      await this.db.experiences.bulkPut(backups.map((b) => b.previous));
      await this.db.importBackups.where('importId').equals(importId).delete();
    });
  }
}
