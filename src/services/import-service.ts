import { runImport, previewRows, detectPreset, presetDefaults, findNearMissTools, readSamples, logDatasetName, countRows } from '../core/import';
import type { ImportSink } from '../core/import/types';
import { CancelledError } from '../core/errors';
import { newId, slugify } from '../core/ids';
import type { Repositories } from '../core/repositories';
import type { Dataset, ImportRecord, Tool } from '../core/types';
import type { Handlers } from '../rpc';
import { statsFromCounts } from '../core/stats/dataset-stats';
import { costStats, type ToolCostStat } from '../core/cost/tool-cost';
import { experiencesToCsv, experiencesToJsonl } from '../core/export/experiences';
import { blobBytes, blobHead, blobText } from './blob-text';
import { blobSource } from '../core/import/parquet-reader';
import { attachImages, type ThumbnailMaker } from './image-attach';
import type { ImportApi, ImportOutcome, ImportRequest } from './import-api';
import { browserLocks, heldLocks, holdLock, importLockName, whenFree, type LockManagerLike } from './liveness';

/** Errors kept on the import record (the full list is in the rejected-rows download). */
const KEPT_ERRORS = 10_000;

function sidecarsOf(req: ImportRequest) {
  return {
    ...(req.skills ? { skills: blobText(req.skills) } : {}),
    ...(req.prompts ? { prompts: blobText(req.prompts) } : {}),
    ...(req.results ? { results: blobBytes(req.results) } : {}),
    ...(req.scenarioState ? { scenarioState: blobBytes(req.scenarioState) } : {}),
    ...(req.runSpec ? { runSpec: blobBytes(req.runSpec) } : {}),
  };
}

/** The request's reading options, as the import itself uses them (so a scan sees what the import will). */
function optionsOf(req: ImportRequest, target: { existing?: Dataset }) {
  return {
    ...(req.preset ? { preset: req.preset } : {}),
    ...(req.mapping ? { mapping: req.mapping } : {}),
    ...(req.scale ? { scale: req.scale } : target.existing ? { scale: target.existing.scale } : {}),
    ...(req.judgeColumn ? { judgeColumn: req.judgeColumn } : {}),
    ...(req.scoreSource ? { scoreSource: req.scoreSource } : {}),
    ...(req.toolChoices ? { toolChoices: req.toolChoices } : {}),
    ...(req.defaultTool ? { defaultTool: req.defaultTool } : {}),
    // Parquet is read from its footer: slices of the File, never the whole file (parquet-reader.ts).
    randomAccess: blobSource(req.file),
  };
}

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
  async function datasetFor(req: ImportRequest): Promise<{ id: string; name: string; existing?: Dataset }> {
    const head = await blobHead(req.file);
    const guess = detectPreset(req.file.name, head);
    // One dataset per Inspect task and per HELM run, unless the user named one.
    const logName = req.datasetName?.trim()
      ? undefined
      : await logDatasetName({ head, fileName: req.file.name, randomAccess: blobSource(req.file), ...(req.runSpec ? { runSpec: blobBytes(req.runSpec) } : {}) });
    const name = req.datasetName?.trim() || logName || presetDefaults(req.preset ?? guess.preset, req.file.name).name;
    const id = slugify(name);
    const existing = await repos.datasets.get(id);
    return { id, name, ...(existing ? { existing } : {}) };
  }

  /** Nothing left in the dataset: no experience and no output awaiting labels. */
  async function isEmpty(datasetId: string): Promise<boolean> {
    return (await repos.experiences.count(datasetId)) === 0 && (await repos.labels.items(datasetId)).length === 0;
  }

  async function rollBack(record: ImportRecord, state: ImportRecord['state'], createdDataset: boolean) {
    await repos.experiences.undoImport(record.id);
    await repos.labels.removeImportItems(record.datasetId, record.id);
    record.state = state;
    record.finishedAt = Date.now();
    await repos.imports.put(record);
    if (createdDataset && (await isEmpty(record.datasetId))) {
      const others = (await repos.imports.byDataset(record.datasetId)).filter((r) => r.id !== record.id && r.state === 'completed');
      if (others.length === 0) await repos.datasets.remove(record.datasetId);
    }
  }

  return {
    async preview(req) {
      const target = await datasetFor(req);
      const tools = (await repos.tools.list()).map((t) => t.id);
      const preview = await previewRows(
        blobBytes(req.file),
        {
          fileName: req.file.name,
          datasetId: target.id,
          importId: 'preview',
          now: Date.now(),
          knownTools: tools,
          sidecars: sidecarsOf(req),
          ...(req.preset ? { preset: req.preset } : {}),
          ...(req.mapping ? { mapping: req.mapping } : {}),
          ...(req.scale ? { scale: req.scale } : {}),
          ...(req.judgeColumn ? { judgeColumn: req.judgeColumn } : {}),
          ...(req.scoreSource ? { scoreSource: req.scoreSource } : {}),
          ...(req.toolChoices ? { toolChoices: req.toolChoices } : {}),
          ...(req.defaultTool ? { defaultTool: req.defaultTool } : {}),
          randomAccess: blobSource(req.file),
        },
        req.rows ?? 8,
      );
      return { ...preview, datasetName: target.name };
    },

    async samples(req) {
      return readSamples(blobBytes(req.file), { fileName: req.file.name, ...(req.preset ? { preset: req.preset } : {}), randomAccess: blobSource(req.file) }, req.rows ?? 5);
    },

    async nearMissTools(req, ctx) {
      const target = await datasetFor(req);
      const knownTools = (await repos.tools.list()).map((t) => t.id);
      return findNearMissTools(blobBytes(req.file), { fileName: req.file.name, datasetId: target.id, knownTools, sidecars: sidecarsOf(req), signal: ctx.signal, ...optionsOf(req, target) });
    },

    async countRows(req, ctx) {
      const target = await datasetFor(req);
      const knownTools = (await repos.tools.list()).map((t) => t.id);
      return countRows(blobBytes(req.file), { fileName: req.file.name, datasetId: target.id, knownTools, sidecars: sidecarsOf(req), signal: ctx.signal, ...optionsOf(req, target) });
    },

    async import(req, ctx): Promise<ImportOutcome> {
      const target = await datasetFor(req);
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
        return await runOne(req, ctx, target, record, now);
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
      if (await isEmpty(record.datasetId)) await repos.datasets.remove(record.datasetId);
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

    async recover({ graceMs = 0 }) {
      // Imports whose lock is free were left `running` by a closed/reloaded tab or a crashed worker.
      // A held lock gets `graceMs` to be released (right after a reload the old page's worker may
      // still be ending); still held after that, the import is alive in another tab.
      const held = await heldLocks(locks);
      const files: string[] = [];
      const settle = async (id: string) => {
        const record = await repos.imports.get(id);
        if (record?.state !== 'running') return;
        // The import created its dataset when the dataset is stamped with the import's start and file.
        const dataset = await repos.datasets.get(record.datasetId);
        const createdDataset = !!dataset && dataset.createdAt === record.startedAt && dataset.source === record.fileName;
        await rollBack(record, 'failed', createdDataset);
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
    },
  };

  /** One import, with its lock held: write batch by batch, then the dataset, tools and the record; roll back on any failure. */
  async function runOne(
    req: ImportRequest,
    ctx: Parameters<Handlers<ImportApi>['import']>[1],
    target: Awaited<ReturnType<typeof datasetFor>>,
    record: ImportRecord,
    now: number,
  ): Promise<ImportOutcome> {
    await repos.imports.put(record);
    // An empty dataset cannot hold any of the rows yet: skip the read-before-write (much faster).
    const fresh = (await repos.experiences.count(target.id)) === 0;
    // A fresh dataset's batch is added whole or fails whole (writeImportBatch), so its result is
    // known before it is written: the pipeline reads and validates the next batch while this one is
    // written. One write at a time (memory: two batches); a write's failure surfaces at the next
    // batch or after the last, before anything else is written, and a rollback waits for the write
    // in flight, so it undoes every row this import wrote. Progress counts a batch once it is handed
    // to the database.
    let inFlight: Promise<unknown> | undefined;
    const settled = () => inFlight?.catch(() => undefined);
    const sink: ImportSink = fresh
      ? {
          writeBatch: async (rows) => {
            await inFlight;
            const write = repos.experiences.writeImportBatch(record.id, rows, { fresh });
            inFlight = write;
            void settled(); // its failure is awaited later, not unhandled meanwhile
            return { added: rows.length, updated: 0, unchanged: 0 };
          },
        }
      : { writeBatch: (rows) => repos.experiences.writeImportBatch(record.id, rows, { fresh }) };
    // Rows without a score: outputs awaiting labels (issue #26), after any experience write in flight.
    sink.writeItems = async (items) => {
      await inFlight;
      await repos.labels.putImportedItems(items);
    };
    const knownTools = (await repos.tools.list()).map((t) => t.id);
    const createdDataset = !target.existing;
    try {
      const summary = await runImport(
        blobBytes(req.file),
        {
          fileName: req.file.name,
          totalBytes: req.file.size,
          datasetId: target.id,
          importId: record.id,
          now,
          knownTools,
          sidecars: sidecarsOf(req),
          signal: ctx.signal,
          onProgress: (p) => ctx.progress(p),
          batchSize: batchSizeFor(req.file.size),
          // The scores are read once before anything is written when the scale must be inferred.
          reopen: () => blobBytes(req.file),
          ...optionsOf(req, target),
        },
        sink,
      );
      await inFlight;
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
      return { summary, record, createdDataset: keepDataset, ...(createdDataset && !keepDataset ? { datasetNotCreated: true } : {}) };
    } catch (err) {
      await settled();
      await rollBack(record, err instanceof CancelledError ? 'cancelled' : 'failed', createdDataset);
      throw err;
    }
  }
}
