import type { BatchWriteResult, ExperienceRepository } from '../core/repositories';
import Dexie from 'dexie';
import { throwIfCancelled } from '../core/embed';
import type { Experience } from '../core/types';
import type { ToolMemDB } from './schema';
import { withQuotaCheck } from './quota';
import { readDatasetCounts, readDatasetSummary, replacingRows } from './dataset-counts';
import { ImportKeyLists } from './import-keys';
import { compareIds, prefixRange } from '../core/ids';

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

/**
 * Sorts rows by their parts (tool, task, rater) in natural order. The collator is slow next to a
 * number comparison and a dataset has few distinct parts (1,600 tasks in 28,800 rows): each distinct
 * part is ranked once with `compareIds`, and the rows are sorted by their ranks.
 */
function sortByParts<T extends { parts: string[] }>(rows: T[]): T[] {
  const width = Math.max(0, ...rows.map((r) => r.parts.length));
  const ranks = Array.from({ length: width }, (_, i) => {
    const distinct = [...new Set(rows.flatMap((r) => (i < r.parts.length ? [r.parts[i]!] : [])))].sort(compareIds);
    return new Map(distinct.map((part, rank) => [part, rank]));
  });
  const ranked = rows.map((r) => ({ r, key: r.parts.map((part, i) => ranks[i]!.get(part)!) }));
  ranked.sort((a, b) => {
    for (let i = 0; i < Math.min(a.key.length, b.key.length); i++) if (a.key[i] !== b.key[i]) return a.key[i]! - b.key[i]!;
    return a.key.length - b.key.length;
  });
  return ranked.map((x) => x.r);
}

/**
 * Rows per read when a whole dataset is scanned (see byDataset, scanDataset). Small enough that a
 * page a caller derives from and drops dies young in V8's young generation instead of piling up as
 * old garbage: the tab's peak during a 200k-row evaluation was 602 MB with pages of 10,000 rows and
 * 474 MB with 2,000, the read itself a few seconds longer (bench:scale, docs/reliability.md).
 */
export const SCAN_PAGE = 2_000;
/** Rows per read transaction in `byImport`. */
export const SCAN_CHUNK = 2_000;

export class DexieExperienceRepository implements ExperienceRepository {
  private readonly lists: ImportKeyLists;
  constructor(private readonly db: ToolMemDB) {
    this.lists = new ImportKeyLists(db);
  }

  get(id: string) {
    return this.db.experiences.get(id);
  }

  /**
   * Rows of one dataset: the primary-key range of ids that start with `datasetId|` (core/ids
   * `experienceKey` puts the dataset first, then the tool; schema v6 dropped the [datasetId+toolId]
   * index). Ids are not escaped, so the range may also hold rows of a dataset whose id starts with
   * `datasetId|`: the row's own dataset is checked.
   */
  inDataset(datasetId: string) {
    const [lower, upper] = prefixRange(`${datasetId}|`);
    return this.db.experiences
      .where(':id')
      .between(lower, upper, true, false)
      .filter((e) => e.datasetId === datasetId);
  }

  /** One tool's rows of a dataset: the key range `datasetId|toolId|`, the row's own fields checked (tool `a|b` lies inside tool `a`'s range). */
  private inTool(datasetId: string, toolId: string) {
    const [lower, upper] = prefixRange(`${datasetId}|${toolId}|`);
    return this.db.experiences
      .where(':id')
      .between(lower, upper, true, false)
      .filter((e) => e.datasetId === datasetId && e.toolId === toolId);
  }

  /**
   * Every row of a dataset, in pages of {@link SCAN_PAGE} rows of its key range, each page its own
   * short transaction. One getAll of 200k rows holds the origin's IndexedDB backend for seconds and
   * every other read (a page opening, another worker) waits behind it; pages let them in between.
   * Each page starts after the last key of the one before (no offset to skip). Key order: tool by
   * tool, then task and rater. Not a snapshot: rows written meanwhile by another import may or may
   * not be included (callers that need a snapshot use a transaction).
   */
  async byDataset(datasetId: string): Promise<Experience[]> {
    const out: Experience[] = [];
    await this.scanDataset(datasetId, (rows) => {
      for (const row of rows) out.push(row);
    });
    return out;
  }

  async scanDataset(datasetId: string, onPage: (rows: readonly Experience[]) => void): Promise<void> {
    const [lower, upper] = prefixRange(`${datasetId}|`);
    for (let from = lower, first = true; ; first = false) {
      const page = await this.db.experiences.where(':id').between(from, upper, first, false).limit(SCAN_PAGE).toArray();
      onPage(page.filter((row) => row.datasetId === datasetId));
      if (page.length < SCAN_PAGE) break;
      from = page[page.length - 1]!.id;
    }
  }

  byDatasetAndTool(datasetId: string, toolId: string) {
    return this.inTool(datasetId, toolId).toArray();
  }

  /**
   * A task's rows: for each tool of the dataset (its stored count rows name them: a few), the key
   * range `datasetId|toolId|taskId|`, read in one transaction. Ids are not escaped, so a range may
   * also hold another task's rows (task `a|b` lies inside task `a`'s range): the exact dataset, tool
   * and task are checked on each row.
   */
  async byTask(datasetId: string, taskId: string): Promise<Experience[]> {
    return this.db.transaction('r', this.db.experiences, this.db.countLog, async () => {
      const tools = await this.toolIds(datasetId);
      const perTool = await Promise.all(
        tools.map((toolId) => {
          const [lower, upper] = prefixRange(`${datasetId}|${toolId}|${taskId}|`);
          return this.db.experiences.where(':id').between(lower, upper, true, false).toArray();
        }),
      );
      return perTool.flatMap((rows, i) => rows.filter((e) => e.datasetId === datasetId && e.toolId === tools[i] && e.taskId === taskId));
    });
  }

  /** The dataset's tools, from its stored (tool, score) counts (db/count-log: a few rows). */
  private toolIds(datasetId: string): Promise<string[]> {
    // `.then`, not `await`: this runs inside byTask's transaction (see db/count-log `logRows`).
    return readDatasetSummary(this.db, datasetId).then((c) => [...new Set(c.scores.map((s) => s.toolId))]);
  }

  /**
   * Rows of a dataset, from its stored counts (db/dataset-counts: kept exact by every write): a few
   * rows read, where counting the key range would read every row to check its dataset.
   */
  async count(datasetId?: string) {
    if (datasetId === undefined) return this.db.experiences.count();
    return (await readDatasetSummary(this.db, datasetId)).scores.reduce((sum, r) => sum + r.n, 0);
  }

  async countsByTool(datasetId: string): Promise<Map<string, number>> {
    // From the stored (tool, score) counts (db/count-log.ts): a few rows, no per-task rows.
    const counts = new Map<string, number>();
    for (const { toolId, n } of (await readDatasetSummary(this.db, datasetId)).scores) counts.set(toolId, (counts.get(toolId) ?? 0) + n);
    return new Map([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  counts(datasetId: string) {
    return readDatasetCounts(this.db, datasetId);
  }

  /** Every import id that has written rows, from the import key lists (db/import-keys.ts), no row read. */
  importIds(): Promise<string[]> {
    return this.lists.importIds();
  }

  /**
   * The import's listed rows that are still its own, in chunks, each its own short transaction: one
   * read of a 200k-row import would hold the origin's IndexedDB backend, and every other read (a page
   * opening), until it ends. Not a snapshot across chunks.
   */
  async byImport(importId: string, signal?: AbortSignal): Promise<Experience[]> {
    const out: Experience[] = [];
    await this.lists.rowsOf(
      importId,
      (rows) => out.push(...rows),
      () => throwIfCancelled(signal),
      SCAN_CHUNK,
    );
    return out;
  }

  /**
   * One page of a dataset's experiences (optionally of one tool), by tool, then task, then rater, in
   * natural order (core/ids `compareIds`: task 2 before task 10). Key order is code-unit order (task
   * 10 before task 2), so the page cannot be a key range: the range's keys are read (no row), sorted
   * part by part, and the page's rows fetched by key. A key with exactly the parts it should have
   * names its fields (none holds `|`); any other (a part holds `|`, or it belongs to a dataset or tool
   * whose id starts like this one) is looked up and sorted by its row's own fields, or left out.
   */
  async page(datasetId: string, opts: { toolId?: string; offset: number; limit: number }): Promise<Experience[]> {
    const tool = opts.toolId;
    const prefix = tool === undefined ? `${datasetId}|` : `${datasetId}|${tool}|`;
    const [lower, upper] = prefixRange(prefix);
    return this.db.transaction('r', this.db.experiences, async () => {
      const keys = (await this.db.experiences.where(':id').between(lower, upper, true, false).primaryKeys()) as string[];
      const sorted: { key: string; parts: string[] }[] = [];
      const odd: string[] = [];
      for (const key of keys) {
        const parts = key.slice(prefix.length).split('|');
        if (parts.length === (tool === undefined ? 3 : 2)) sorted.push({ key, parts });
        else odd.push(key);
      }
      for (const e of odd.length ? await this.db.experiences.bulkGet(odd) : []) {
        if (e && e.datasetId === datasetId && (tool === undefined || e.toolId === tool))
          sorted.push({ key: e.id, parts: tool === undefined ? [e.toolId, e.taskId, e.rater] : [e.taskId, e.rater] });
      }
      const page = sortByParts(sorted).slice(opts.offset, opts.offset + opts.limit);
      const rows = await this.db.experiences.bulkGet(page.map((s) => s.key));
      return rows.filter((e): e is Experience => e !== undefined);
    });
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
    const db = this.db;
    await db.transaction('rw', db.experiences, db.importBackups, db.importKeys, async () => {
      const backups = await db.importBackups.where('importId').equals(importId).toArray();
      const restored = new Set(backups.map((b) => b.experienceId));
      const own: string[] = [];
      await this.lists.rowsOf(importId, (_, keys) => own.push(...keys.filter((k) => !restored.has(k))));
      await db.experiences.bulkDelete(own);
      await db.experiences.bulkPut(backups.map((b) => b.previous));
      await db.importBackups.where('importId').equals(importId).delete();
      // The import has no rows left: its lists go too (the restored rows are listed under their own imports).
      await this.lists.forget([importId]);
    });
  }
}
