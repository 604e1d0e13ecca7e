/**
 * One import run, and what undoes it: rows written batch by batch (each batch one transaction)
 * tagged with the import id, so a failure, a cancel or a closed tab (`recoverImports`) rolls back
 * exactly what the import wrote, and a dataset the import created is removed when it is left empty.
 */
import { runImport } from '../../core/import';
import type { ImportSink, ImportSummary } from '../../core/import/types';
import { CancelledError } from '../../core/errors';
import type { Repositories } from '../../core/repositories';
import type { ImportRecord, Tool } from '../../core/types';
import type { CallContext } from '../../rpc';
import { blobBytes } from '../../platform/blob';
import type { ImportApi, ImportOutcome, ImportRequest } from './api';
import type { readOf } from './request';
import { heldLocks, importLockName, whenFree, type LockManagerLike } from '../../platform/locks';

/** Errors kept on the import record (the full list is in the rejected-rows download). */
const KEPT_ERRORS = 10_000;

/** Files from this size on are written in {@link BIG_BATCH}-row batches. */
const BIG_FILE_BYTES = 8 * 1024 * 1024;
const BIG_BATCH = 10_000;

/**
 * Rows per batch (= per transaction). Each IndexedDB transaction has a fixed cost (commit, the
 * counts middleware's read and write of the batch's count rows): a 100k-row file takes 10 instead
 * of 50 (7–30% faster in one quiet stage run, not measurable above the noise of the loaded ones;
 * docs/reliability.md, "Import throughput"). Small files keep the pipeline's 2,000, so their
 * progress and a cancel still come within a few thousand rows. Memory stays bounded by one batch
 * (10,000 rows ≈ 10 MB), two for a fresh dataset (one read while the one before is written).
 */
function batchSizeFor(bytes: number): number | undefined {
  return bytes >= BIG_FILE_BYTES ? BIG_BATCH : undefined;
}

/** Nothing left in the dataset: no experience and no output awaiting labels. */
export async function isEmpty(repos: Repositories, datasetId: string): Promise<boolean> {
  return (await repos.experiences.count(datasetId)) === 0 && (await repos.labels.items(datasetId)).length === 0;
}

/** Removes what the import wrote and marks it `state`; a dataset it created and left empty goes too. */
export async function rollBack(repos: Repositories, record: ImportRecord, state: ImportRecord['state'], createdDataset: boolean) {
  await repos.experiences.undoImport(record.id);
  await repos.labels.removeImportItems(record.datasetId, record.id);
  record.state = state;
  record.finishedAt = Date.now();
  await repos.imports.put(record);
  if (createdDataset && (await isEmpty(repos, record.datasetId))) {
    const others = (await repos.imports.byDataset(record.datasetId)).filter((r) => r.id !== record.id && r.state === 'completed');
    if (others.length === 0) await repos.datasets.remove(record.datasetId);
  }
}

/**
 * Imports left `running` whose lock is free (a closed or reloaded tab, a crashed worker) are rolled
 * back; a held lock gets `graceMs` to be released (right after a reload the old page's worker may
 * still be ending); still held after that, the import is alive in another tab.
 */
export async function recoverImports(repos: Repositories, locks: LockManagerLike | null, graceMs: number): Promise<{ rolledBack: number; files: string[] }> {
  const held = await heldLocks(locks);
  const files: string[] = [];
  const settle = async (id: string) => {
    const record = await repos.imports.get(id);
    if (record?.state !== 'running') return;
    // The import created its dataset when the dataset is stamped with the import's start and file.
    const dataset = await repos.datasets.get(record.datasetId);
    const createdDataset = !!dataset && dataset.createdAt === record.startedAt && dataset.source === record.fileName;
    await rollBack(repos, record, 'failed', createdDataset);
    // Removing the emptied dataset removes its history too; keep this record as evidence of the failure.
    if (!(await repos.imports.get(record.id))) await repos.imports.put(record);
    files.push(record.fileName);
  };
  const waiting: Promise<unknown>[] = [];
  for (const record of (await repos.imports.list()).filter((r) => r.state === 'running')) {
    if (!held.has(importLockName(record.id))) await settle(record.id);
    else if (locks && graceMs > 0) waiting.push(whenFree(locks, importLockName(record.id), graceMs, () => settle(record.id)));
  }
  await Promise.all(waiting);
  return { rolledBack: files.length, files };
}

/** One import, with its lock held: write batch by batch, then the dataset, tools and the record; roll back on any failure. */
export async function runOne(
  repos: Repositories,
  req: ImportRequest,
  ctx: CallContext<ImportApi['import']['progress']>,
  read: Awaited<ReturnType<typeof readOf>>,
  record: ImportRecord,
  now: number,
): Promise<ImportOutcome> {
  const { target } = read;
  await repos.imports.put(record);
  // An empty dataset cannot hold any of the rows yet: skip the read-before-write (much faster).
  const fresh = (await repos.experiences.count(target.id)) === 0;
  const { sink, flushed, settled } = importSink(repos, record.id, fresh);
  const createdDataset = !target.existing;
  try {
    const summary = await runImport(
      read.input,
      {
        ...read.options,
        totalBytes: req.file.size,
        importId: record.id,
        now,
        signal: ctx.signal,
        onProgress: (p) => ctx.progress(p),
        batchSize: batchSizeFor(req.file.size),
        // The one second pass: when the scale must be inferred (no scale given, none from the dataset or
        // the preset), the scores are read before anything is written, so an outlier is a row error and
        // an undecidable scale refuses the file before a row is stored. Holding the rows instead would
        // make memory grow with the file. Every other import reads the file once (request.ts, readOf).
        reopen: () => blobBytes(req.file),
      },
      sink,
    );
    await flushed();
    const keepDataset = await storeOutcome(repos, req, read.target, record, summary, now);
    return { summary, record, createdDataset: keepDataset, ...(createdDataset && !keepDataset ? { datasetNotCreated: true } : {}) };
  } catch (err) {
    await settled();
    await rollBack(repos, record, err instanceof CancelledError ? 'cancelled' : 'failed', createdDataset);
    throw err;
  }
}

/**
 * Where the pipeline writes an import's rows.
 *
 * A fresh dataset's batch is added whole or fails whole (writeImportBatch), so its result is
 * known before it is written: the pipeline reads and validates the next batch while this one is
 * written. One write at a time (memory: two batches); a write's failure surfaces at the next
 * batch or after the last, before anything else is written, and a rollback waits for the write
 * in flight, so it undoes every row this import wrote. Progress counts a batch once it is handed
 * to the database.
 */
function importSink(
  repos: Repositories,
  importId: string,
  fresh: boolean,
): { sink: ImportSink; flushed: () => Promise<unknown>; settled: () => Promise<unknown> } {
  let inFlight: Promise<unknown> | undefined;
  const settled = async () => inFlight?.catch(() => undefined);
  const sink: ImportSink = fresh
    ? {
        writeBatch: async (rows) => {
          await inFlight;
          const write = repos.experiences.writeImportBatch(importId, rows, { fresh });
          inFlight = write;
          void settled(); // its failure is awaited later, not unhandled meanwhile
          return { added: rows.length, updated: 0, unchanged: 0 };
        },
      }
    : { writeBatch: (rows) => repos.experiences.writeImportBatch(importId, rows, { fresh }) };
  // Rows without a score: outputs awaiting labels (issue #26), after any experience write in flight.
  sink.writeItems = async (items) => {
    await inFlight;
    await repos.labels.putImportedItems(items);
  };
  return { sink, flushed: async () => inFlight, settled };
}

/** A finished import's dataset (when it keeps rows), tools and record; whether the dataset was created. */
async function storeOutcome(
  repos: Repositories,
  req: ImportRequest,
  target: Awaited<ReturnType<typeof readOf>>['target'],
  record: ImportRecord,
  summary: ImportSummary,
  now: number,
): Promise<boolean> {
  const defaults = summary.datasetDefaults;
  // A new dataset that would hold no row is not created: an all-rejected file leaves nothing behind.
  const keepDataset = !target.existing && summary.accepted > 0;
  if (keepDataset) {
    await repos.datasets.put({
      id: target.id,
      name: target.name,
      source: req.file.name,
      preset: summary.preset,
      scale: summary.scale,
      raterPolicy: req.raterPolicy ?? defaults.raterPolicy,
      createdAt: now,
    });
  }
  const tools: Tool[] = Object.entries(summary.tools)
    .filter(([, t]) => t.accepted > 0)
    .map(([id]) => ({ id, name: id, modality: defaults.modality, description: '', createdAt: now }));
  await repos.tools.ensure(tools);
  Object.assign(record, {
    preset: summary.preset,
    state: 'completed',
    rowsRead: summary.rowsRead,
    accepted: summary.added,
    unchanged: summary.unchanged,
    updated: summary.updated,
    rejected: summary.rejected,
    ...(summary.unscored ? { unscored: summary.unscored } : {}),
    errors: summary.errors.slice(0, KEPT_ERRORS),
    finishedAt: Date.now(),
  } satisfies Partial<ImportRecord>);
  await repos.imports.put(record);
  return keepDataset;
}
