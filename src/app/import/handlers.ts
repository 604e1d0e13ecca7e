import { previewRows, findNearMissTools, readSamples, countRows } from '../../core/import';
import { newId } from '../../core/ids';
import type { Repositories } from '../../core/repositories';
import type { ImportRecord } from '../../core/types';
import type { CallContext, Handlers } from '../../rpc';
import { statsFromCounts } from '../../core/stats/dataset-stats';
import { costStats, type ToolCostStat } from '../../core/cost/tool-cost';
import { experiencesToCsv, experiencesToJsonl } from '../../core/export/experiences';
import { readOnce } from '../../platform/blob';
import { attachImages, type ThumbnailMaker } from './images';
import type { ImportApi, ImportOutcome } from './api';
import { browserLocks, holdLock, importLockName, type LockManagerLike } from '../../platform/locks';
import { readOf } from './request';
import { isEmpty, recoverImports, runOne } from './run';

export interface ImportServiceOptions {
  /**
   * Web Locks (default `navigator.locks`): a running import holds `toolmem:import:<id>`, so `recover`
   * rolls back only imports whose tab is gone, never one another tab is still running.
   */
  locks?: LockManagerLike | null;
}

/**
 * Import handlers over any Repositories (Dexie in the worker; fake-indexeddb in Node tests).
 * Constraint: rows are written batch by batch (each batch one transaction) and tagged with the
 * import id, so a failure, a cancel or a closed tab (see `recover`) rolls back exactly what this
 * import wrote.
 */
export function createImportHandlers(repos: Repositories, makeThumbnail?: ThumbnailMaker, options: ImportServiceOptions = {}): Handlers<ImportApi> {
  const locks = options.locks === undefined ? browserLocks() : options.locks;
  return {
    preview: (req) => previewImport(repos, req),
    samples: (req) => sampleRecords(req),
    nearMissTools: (req, ctx) => nearMissTools(repos, req, ctx.signal),
    countRows: (req, ctx) => rowCounts(repos, req, ctx.signal),
    import: (req, ctx) => importFile(repos, locks, req, ctx),
    undo: ({ importId }) => undoImport(repos, importId),
    attachImages: (req, ctx) =>
      attachImages(repos, req, { signal: ctx.signal, onProgress: (p) => ctx.progress(p), ...(makeThumbnail ? { makeThumbnail } : {}) }),
    exportExperiences: ({ datasetId, format }) => exportExperiences(repos, datasetId, format),
    stats: ({ datasetId }) => datasetStats(repos, datasetId),
    toolCosts: ({ datasetId }) => toolCosts(repos, datasetId),
    recover: ({ graceMs = 0 }) => recoverImports(repos, locks, graceMs),
  };
}

type Req<K extends keyof ImportApi> = ImportApi[K]['req'];

/** The first records as read, for the path picker (the file opened once: its head names the format). */
async function sampleRecords(req: Req<'samples'>) {
  const file = await readOnce(req.file);
  return readSamples(file.bytes, { fileName: req.file.name, ...(req.preset ? { preset: req.preset } : {}), randomAccess: file.randomAccess }, req.rows ?? 5);
}

async function nearMissTools(repos: Repositories, req: Req<'nearMissTools'>, signal: AbortSignal) {
  const { input, options } = await readOf(repos, req);
  return findNearMissTools(input, { ...options, signal });
}

async function rowCounts(repos: Repositories, req: Req<'countRows'>, signal: AbortSignal) {
  const { input, options } = await readOf(repos, req);
  return countRows(input, { ...options, signal });
}

async function previewImport(repos: Repositories, req: Req<'preview'>) {
  const { target, input, options } = await readOf(repos, req);
  // The import's own options (optionsOf): an existing dataset's scale reads the rows as the import will.
  const preview = await previewRows(input, { ...options, importId: 'preview', now: Date.now() }, req.rows ?? 8);
  return { ...preview, datasetName: target.name };
}

/** Runs one import under its Web Lock, from a `running` record to its outcome. */
async function importFile(
  repos: Repositories,
  locks: LockManagerLike | null,
  req: Req<'import'>,
  ctx: CallContext<ImportApi['import']['progress']>,
): Promise<ImportOutcome> {
  const read = await readOf(repos, req);
  const now = Date.now();
  const record: ImportRecord = {
    id: newId('imp-'),
    datasetId: read.target.id,
    fileName: req.file.name,
    preset: req.preset ?? 'generic',
    state: 'running',
    rowsRead: 0,
    accepted: 0,
    unchanged: 0,
    updated: 0,
    rejected: 0,
    errors: [],
    startedAt: now,
  };
  // Held before the record says `running` and until it says otherwise (see `recover`).
  const release = locks ? await holdLock(locks, importLockName(record.id)) : null;
  try {
    return await runOne(repos, req, ctx, read, record, now);
  } finally {
    release?.();
  }
}

async function undoImport(repos: Repositories, importId: string): Promise<ImportRecord> {
  const record = await repos.imports.get(importId);
  if (!record) throw new Error(`Import ${importId} does not exist`);
  if (record.state !== 'completed') throw new Error(`Import “${record.fileName}” is ${record.state}; only completed imports can be undone`);
  await repos.experiences.undoImport(importId);
  await repos.labels.removeImportItems(record.datasetId, importId);
  record.state = 'undone';
  record.finishedAt = Date.now();
  await repos.imports.put(record);
  if (await isEmpty(repos, record.datasetId)) await repos.datasets.remove(record.datasetId);
  return record;
}

async function exportExperiences(repos: Repositories, datasetId: string, format: Req<'exportExperiences'>['format']): Promise<Blob> {
  const rows = await repos.experiences.byDataset(datasetId);
  rows.sort((a, b) => a.taskId.localeCompare(b.taskId, undefined, { numeric: true }) || a.toolId.localeCompare(b.toolId) || a.rater.localeCompare(b.rater));
  // The attached images' file names as imported (exports name the file a person has, issue #26).
  const names = new Map<string, string>();
  for (const id of new Set(rows.map((r) => r.imageId).filter((i): i is string => !!i?.startsWith('img:')))) {
    const image = await repos.images.get(id);
    if (image) names.set(id, image.name);
  }
  return format === 'csv'
    ? new Blob([experiencesToCsv(rows, names)], { type: 'text/csv;charset=utf-8' })
    : new Blob([experiencesToJsonl(rows, names)], { type: 'application/x-ndjson;charset=utf-8' });
}

async function datasetStats(repos: Repositories, datasetId: string) {
  const dataset = await repos.datasets.get(datasetId);
  if (!dataset) throw new Error(`Dataset ${datasetId} does not exist`);
  // From the counts kept on every write (db/dataset-counts.ts): equal to datasetStats(all rows).
  return statsFromCounts(await repos.experiences.counts(datasetId), dataset.scale);
}

async function toolCosts(repos: Repositories, datasetId: string): Promise<ToolCostStat[]> {
  // Tool by tool, keeping only the two numbers per row: a large dataset is never held whole.
  const out: ToolCostStat[] = [];
  for (const toolId of [...(await repos.experiences.countsByTool(datasetId)).keys()].sort()) {
    const rows = (await repos.experiences.byDatasetAndTool(datasetId, toolId)).map((e) => ({
      toolId,
      ...(e.cost !== undefined ? { cost: e.cost } : {}),
      ...(e.latencyMs !== undefined ? { latencyMs: e.latencyMs } : {}),
    }));
    const stat = costStats(rows).get(toolId);
    if (stat) out.push(stat);
  }
  return out;
}
