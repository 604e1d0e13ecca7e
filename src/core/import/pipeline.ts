/**
 * runImport: reader → preset → validator → sink, in batches. Memory stays bounded by the batch size
 * (plus the duplicate-key index and the error list), so multi-hundred-MB files import in a worker.
 */
import { dictFrom } from '../data-keys';
import { ValidationError } from '../errors';
import type { Experience, LabelItem, RowError } from '../types';
import { ScoreObserver, type ScaleDecision } from './scale-inference';
import { openImport, type OpenOptions } from './open-import';
import { throwIfAborted, type ImportInput } from './text-source';
import { boundRowError } from './bounded';
import type { CanonicalRow, ImportOptions, ImportSink, ImportSummary, PreviewResult, ToolTally } from './types';
import { RowValidator, type Checked } from './validate';
import { sampleRecord } from './record-sample';

/** Records sent with a preview for the mapping's path picker. */
const PREVIEW_SAMPLES = 5;

const DEFAULT_BATCH = 2000;
const PROGRESS_EVERY_MS = 200;
const CANCEL_CHECK_EVERY = 256;

export { inferScale } from './scale-inference';

/**
 * The scale decided from a first read of the scores (scale-inference.ts), before anything is
 * written; undefined when the input cannot be read twice or a sidecar stream could not be re-read.
 */
async function prescanScale(opts: ImportOptions): Promise<ScaleDecision | undefined> {
  const sidecars = opts.sidecars ? Object.values(opts.sidecars).filter((v) => v !== undefined) : [];
  if (!opts.reopen || sidecars.length > 0) return undefined;
  const { onProgress: _progress, ...quiet } = opts;
  const opened = await openImport(opts.reopen(), quiet);
  const validator = new RowValidator({ fileName: opts.fileName, datasetId: opts.datasetId, importId: opts.importId, now: opts.now, scale: null });
  const observer = new ScoreObserver();
  const see = (rows: CanonicalRow[]): void => {
    for (const row of rows) {
      const checked = validator.check(row);
      if (checked.experience) observer.add(checked.experience.score, row.scaleHint);
      else if (checked.unscored) observer.unscored += 1;
    }
  };
  let records = 0;
  try {
    for await (const item of opened.items) {
      if (++records % CANCEL_CHECK_EVERY === 0) throwIfAborted(opts.signal);
      if (item.record) see(opened.prepared.map(item.record).rows);
    }
    see(opened.prepared.finish?.().rows ?? []);
  } finally {
    await opened.close();
  }
  return observer.decide(opts.fileName);
}

type Tally = ToolTally & { sum: number; scored: number };

/** What one import has counted and holds to write: per-tool tallies, the (bounded) errors, the batch in hand, the progress. */
class ImportRun {
  // Keyed by tool names from the file (any string, `__proto__` included): a Map, see core/data-keys.
  readonly tools = new Map<string, Tally>();
  readonly errors: RowError[] = [];
  readonly counts = { rowsRead: 0, accepted: 0, unscored: 0, rejected: 0, added: 0, updated: 0, unchanged: 0 };
  readonly observer = new ScoreObserver();
  bytesRead = 0;
  #lastProgress = 0;
  #batch: Experience[] = [];
  #items: LabelItem[] = [];

  constructor(
    private readonly opts: ImportOptions,
    private readonly sink: ImportSink,
    readonly startedAt: number,
    private readonly batchSize: number,
  ) {}

  report(force: boolean): void {
    if (!this.opts.onProgress) return;
    const now = Date.now();
    if (!force && now - this.#lastProgress < PROGRESS_EVERY_MS) return;
    this.#lastProgress = now;
    const seconds = Math.max((now - this.startedAt) / 1000, 1e-3);
    const { rowsRead, accepted, rejected } = this.counts;
    this.opts.onProgress({
      bytesRead: this.bytesRead,
      totalBytes: this.opts.totalBytes,
      rowsRead,
      accepted,
      rejected,
      rowsPerSecond: Math.round(rowsRead / seconds),
    });
  }

  tally(tool: string): Tally {
    let t = this.tools.get(tool);
    if (!t) this.tools.set(tool, (t = { accepted: 0, rejected: 0, meanScore: null, sum: 0, scored: 0 }));
    return t;
  }

  reject(error: RowError, tool?: string): void {
    this.counts.rowsRead += 1;
    this.counts.rejected += 1;
    // Bounded: the raw record of a 20 MB line or a 100,000-column row is not kept whole (bounded.ts).
    this.errors.push(boundRowError(error));
    if (tool && tool.trim() !== '') this.tally(tool.trim()).rejected += 1;
  }

  async flush(): Promise<void> {
    if (this.#items.length > 0) {
      throwIfAborted(this.opts.signal);
      await this.sink.writeItems?.(this.#items);
      this.#items = [];
    }
    if (this.#batch.length === 0) return;
    throwIfAborted(this.opts.signal);
    const result = await this.sink.writeBatch(this.#batch);
    this.counts.added += result.added;
    this.counts.updated += result.updated;
    this.counts.unchanged += result.unchanged;
    this.#batch = [];
    this.report(true);
  }

  async take(checked: Checked, row: CanonicalRow): Promise<void> {
    if (checked.error) this.reject(checked.error, row.tool);
    else if (checked.unscored) await this.#keepUnscored(checked.unscored);
    else await this.#accept(checked.experience, row);
  }

  async #accept(experience: Experience, row: CanonicalRow): Promise<void> {
    this.counts.rowsRead += 1;
    this.counts.accepted += 1;
    const t = this.tally(experience.toolId);
    t.accepted += 1;
    t.scored += 1;
    t.sum += experience.score;
    this.observer.add(experience.score, row.scaleHint);
    this.#batch.push(experience);
    if (this.#batch.length >= this.batchSize) await this.flush();
  }

  /** A row without a score is kept as an output awaiting labels: accepted, and counted apart. */
  async #keepUnscored(item: LabelItem): Promise<void> {
    this.counts.rowsRead += 1;
    this.counts.accepted += 1;
    this.counts.unscored += 1;
    this.observer.unscored += 1;
    this.tally(item.toolId).accepted += 1;
    this.#items.push(item);
    if (this.#items.length >= this.batchSize) await this.flush();
  }
}

type Opened = Awaited<ReturnType<typeof openImport>>;

export async function runImport(input: ImportInput, opts: ImportOptions, sink: ImportSink): Promise<ImportSummary> {
  const run = new ImportRun(opts, sink, Date.now(), Math.max(1, opts.batchSize ?? DEFAULT_BATCH));
  const opened = await openImport(input, opts, (bytes) => {
    run.bytesRead = bytes;
    run.report(false);
  });
  let prescan: ScaleDecision | undefined;
  try {
    prescan = opened.scale === null ? await prescanScale(opts) : undefined;
  } catch (err) {
    await opened.close();
    throw err;
  }
  const validator = new RowValidator({
    fileName: opts.fileName,
    datasetId: opts.datasetId,
    importId: opts.importId,
    now: opts.now,
    scale: opened.scale ?? prescan?.scale ?? null,
    knownTools: opts.knownTools,
    toolChoices: opts.toolChoices,
  });
  let records = 0;
  for await (const item of opened.items) {
    if (++records % CANCEL_CHECK_EVERY === 0) throwIfAborted(opts.signal);
    if (item.error) {
      run.reject(item.error);
      continue;
    }
    const mapped = opened.prepared.map(item.record);
    for (const error of mapped.errors) run.reject(error);
    for (const row of mapped.rows) await run.take(validator.check(row), row);
  }
  // Rows a preset could only complete at the end of the file (openai-evals joins events by sample).
  const last = opened.prepared.finish?.();
  for (const error of last?.errors ?? []) run.reject(error);
  for (const row of last?.rows ?? []) await run.take(validator.check(row), row);
  // A log that yielded nothing at all (a cancelled Inspect run): say what it holds instead of "done, 0 rows".
  if (run.counts.rowsRead === 0 && opened.prepared.empty) throw new ValidationError(opened.prepared.empty());
  await run.flush();
  run.bytesRead = opened.source.bytesRead;
  run.report(true);
  return summaryOf(run, opened, opts, prescan, validator);
}

function summaryOf(run: ImportRun, opened: Opened, opts: ImportOptions, prescan: ScaleDecision | undefined, validator: RowValidator): ImportSummary {
  // Without a pre-scan the rows are written already: an undecidable scale is guessed and the note says so.
  const decision = opened.scale ? undefined : (prescan ?? run.observer.decide(opts.fileName, false));
  const scale = opened.scale ?? (decision as ScaleDecision).scale;
  const preset = opened.preset;
  // "the scale of every promptfoo results file": the preset's label without its parenthesis of file names.
  const scaleNote = opts.scale
    ? 'given for this import'
    : opened.scale
      ? `the scale of every ${preset.label.replace(/\s*\(.*\)\s*$/, '')} file`
      : (decision as ScaleDecision).note;
  const summary: ImportSummary = {
    importId: opts.importId,
    datasetId: opts.datasetId,
    fileName: opts.fileName,
    format: opened.format,
    preset: preset.id,
    confidence: opened.confidence,
    detectedPreset: opened.detected,
    headers: opened.headers,
    scale,
    scaleInferred: opened.scale === null && decision?.inferred !== false,
    scaleNote,
    ...(decision?.undecided ? { scaleUndecided: true } : {}),
    // The summary's JSON shape (CLI --json, RPC reply) is an object: a null-prototype one.
    tools: dictFrom(
      [...run.tools].map(([tool, t]) => [tool, { accepted: t.accepted, rejected: t.rejected, meanScore: t.scored > 0 ? t.sum / t.scored : null }]),
    ),
    ...run.counts,
    errors: run.errors,
    datasetDefaults: {
      name: opened.prepared.name ?? preset.defaults.name,
      scale,
      raterPolicy: preset.defaults.raterPolicy,
      modality: preset.defaults.modality,
    },
    bytesRead: run.bytesRead,
    durationMs: Date.now() - run.startedAt,
  };
  if (opened.prepared.mapping) summary.mapping = opened.prepared.mapping;
  if (opened.prepared.judge) summary.judge = opened.prepared.judge;
  if (opened.prepared.notes?.length) summary.notes = opened.prepared.notes;
  const nearMissTools = validator.nearMisses();
  if (nearMissTools.length) summary.nearMissTools = nearMissTools;
  return summary;
}

/** Same options as an import; what only matters for writing (importId, now, batchSize, …) is optional and ignored. */
export type PreviewOptions = OpenOptions & Partial<ImportOptions>;

/** First `n` canonical rows plus the errors met on the way, for a live mapping preview. Stops reading early. */
export async function previewRows(input: ImportInput, opts: PreviewOptions, n: number): Promise<PreviewResult> {
  const opened = await openImport(input, opts);
  const validator = new RowValidator({
    fileName: opts.fileName,
    datasetId: opts.datasetId ?? 'preview',
    importId: 'preview',
    now: 0,
    scale: opened.scale,
    knownTools: opts.knownTools,
    toolChoices: opts.toolChoices,
  });
  const rows: CanonicalRow[] = [];
  const errors: RowError[] = [];
  const samples: unknown[] = [];
  let ended = true;
  try {
    outer: for await (const item of opened.items) {
      if (item.error) {
        errors.push(boundRowError(item.error));
        continue;
      }
      if (samples.length < PREVIEW_SAMPLES) samples.push(sampleRecord(item.record.data));
      const mapped = opened.prepared.map(item.record);
      errors.push(...mapped.errors.map(boundRowError));
      for (const row of mapped.rows) {
        if (rows.length >= n) {
          ended = false;
          break outer;
        }
        const checked = validator.check(row);
        if (checked.error) errors.push(boundRowError(checked.error));
        rows.push(row);
      }
      if (rows.length >= n) {
        ended = false;
        break;
      }
    }
    // A file shorter than the preview: rows held back to the end are part of what the import stores.
    const last = ended ? opened.prepared.finish?.() : undefined;
    errors.push(...(last?.errors ?? []).map(boundRowError));
    for (const row of (last?.rows ?? []).slice(0, Math.max(0, n - rows.length))) {
      const checked = validator.check(row);
      if (checked.error) errors.push(boundRowError(checked.error));
      rows.push(row);
    }
  } finally {
    await opened.close();
  }
  if (ended && rows.length === 0 && errors.length === 0 && opened.prepared.empty) throw new ValidationError(opened.prepared.empty());
  const result: PreviewResult = {
    format: opened.format,
    preset: opened.preset.id,
    confidence: opened.confidence,
    headers: opened.headers,
    rows,
    errors,
    samples,
  };
  if (opened.prepared.notes?.length) result.notes = opened.prepared.notes;
  if (opened.prepared.mapping) result.mapping = opened.prepared.mapping;
  if (opened.prepared.judge) result.judge = opened.prepared.judge;
  return result;
}
