import { previewRows, findNearMissTools, readSamples, countRows } from '../core/import';
import { newId } from '../core/ids';
import type { Repositories } from '../core/repositories';
import type { ImportRecord } from '../core/types';
import type { Handlers } from '../rpc';
import { statsFromCounts } from '../core/stats/dataset-stats';
import { costStats, type ToolCostStat } from '../core/cost/tool-cost';
import { experiencesToCsv, experiencesToJsonl } from '../core/export/experiences';
import { blobBytes } from './blob-text';
import { blobSource } from '../core/import/parquet-reader';
import { attachImages, type ThumbnailMaker } from './image-attach';
import type { ImportApi, ImportOutcome } from './import-api';
import { browserLocks, holdLock, importLockName, type LockManagerLike } from './liveness';
import { readOf } from './import-request';
import { isEmpty, recoverImports, runOne } from './import-run';

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
    async preview(req) {
      const { target, options } = await readOf(repos, req);
      // The import's own options (optionsOf): an existing dataset's scale reads the rows as the import will.
      const preview = await previewRows(blobBytes(req.file), { ...options, importId: 'preview', now: Date.now() }, req.rows ?? 8);
      return { ...preview, datasetName: target.name };
    },

    async samples(req) {
      return readSamples(blobBytes(req.file), { fileName: req.file.name, ...(req.preset ? { preset: req.preset } : {}), randomAccess: blobSource(req.file) }, req.rows ?? 5);
    },

    async nearMissTools(req, ctx) {
      const { options } = await readOf(repos, req);
      return findNearMissTools(blobBytes(req.file), { ...options, signal: ctx.signal });
    },

    async countRows(req, ctx) {
      const { options } = await readOf(repos, req);
      return countRows(blobBytes(req.file), { ...options, signal: ctx.signal });
    },

    async import(req, ctx): Promise<ImportOutcome> {
      const read = await readOf(repos, req);
      const { target } = read;
      const now = Date.now();
      const record: ImportRecord = {
        id: newId('imp-'),
        datasetId: target.id,
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
    },

    async undo({ importId }) {
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
    },

    attachImages(req, ctx) {
      return attachImages(repos, req, { signal: ctx.signal, onProgress: (p) => ctx.progress(p), ...(makeThumbnail ? { makeThumbnail } : {}) });
    },

    async exportExperiences({ datasetId, format }) {
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
    },

    async stats({ datasetId }) {
      const dataset = await repos.datasets.get(datasetId);
      if (!dataset) throw new Error(`Dataset ${datasetId} does not exist`);
      // From the counts kept on every write (db/dataset-counts.ts): equal to datasetStats(all rows).
      return statsFromCounts(await repos.experiences.counts(datasetId), dataset.scale);
    },

    async toolCosts({ datasetId }) {
      // Tool by tool, keeping only the two numbers per row: a large dataset is never held whole.
      const out: ToolCostStat[] = [];
      for (const toolId of [...(await repos.experiences.countsByTool(datasetId)).keys()].sort()) {
        const rows = (await repos.experiences.byDatasetAndTool(datasetId, toolId)).map((e) => ({ toolId, ...(e.cost !== undefined ? { cost: e.cost } : {}), ...(e.latencyMs !== undefined ? { latencyMs: e.latencyMs } : {}) }));
        const stat = costStats(rows).get(toolId);
        if (stat) out.push(stat);
      }
      return out;
    },

    recover: ({ graceMs = 0 }) => recoverImports(repos, locks, graceMs),
  };
}
