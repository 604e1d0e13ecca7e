/**
 * runImport: reader → preset → validator → sink, in batches. Memory stays bounded by the batch size
 * (plus the duplicate-key index and the error list), so multi-hundred-MB files import in a worker.
 */
import { dictFrom } from '../data-keys';
import type { Experience, LabelItem, RowError, ScoreScale } from '../types';
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

/** Scale for data without a declared one: the smallest common scale that holds every score seen. */
export function inferScale(min: number, max: number, allIntegers: boolean): ScoreScale {
  const scale = (lo: number, hi: number, integer: boolean): ScoreScale => ({ min: lo, max: hi, direction: 'higher-better', integer });
  if (!Number.isFinite(min)) return scale(1, 5, true);
  if (allIntegers && min >= 1 && max <= 5) return scale(1, 5, true);
  if (min >= 0 && max <= 1) return scale(0, 1, allIntegers);
  if (allIntegers && min >= 1 && max <= 10) return scale(1, 10, true);
  if (min >= 0 && max <= 10) return scale(0, 10, allIntegers);
  if (min >= 0 && max <= 100) return scale(0, 100, allIntegers);
  return scale(min, max, allIntegers);
}

export async function runImport(input: ImportInput, opts: ImportOptions, sink: ImportSink): Promise<ImportSummary> {
  const startedAt = Date.now();
  const batchSize = Math.max(1, opts.batchSize ?? DEFAULT_BATCH);
  // Keyed by tool names from the file (any string, `__proto__` included): a Map, see core/data-keys.
  const tools = new Map<string, ToolTally & { sum: number; scored: number }>();
  const errors: RowError[] = [];
  const counts = { rowsRead: 0, accepted: 0, unscored: 0, rejected: 0, added: 0, updated: 0, unchanged: 0 };
  const observed = { min: Infinity, max: -Infinity, allIntegers: true };
  let lastProgress = 0;
  let bytesRead = 0;

  const report = (force: boolean): void => {
    if (!opts.onProgress) return;
    const now = Date.now();
    if (!force && now - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = now;
    const seconds = Math.max((now - startedAt) / 1000, 1e-3);
    opts.onProgress({
      bytesRead,
      totalBytes: opts.totalBytes,
      rowsRead: counts.rowsRead,
      accepted: counts.accepted,
      rejected: counts.rejected,
      rowsPerSecond: Math.round(counts.rowsRead / seconds),
    });
  };

  const opened = await openImport(input, opts, (bytes) => {
    bytesRead = bytes;
    report(false);
  });
  const validator = new RowValidator({
    fileName: opts.fileName,
    datasetId: opts.datasetId,
    importId: opts.importId,
    now: opts.now,
    scale: opened.scale,
    knownTools: opts.knownTools,
    toolChoices: opts.toolChoices,
  });

  const tally = (tool: string): ToolTally & { sum: number; scored: number } => {
    let t = tools.get(tool);
    if (!t) tools.set(tool, (t = { accepted: 0, rejected: 0, meanScore: null, sum: 0, scored: 0 }));
    return t;
  };
  const reject = (error: RowError, tool?: string): void => {
    counts.rowsRead += 1;
    counts.rejected += 1;
    // Bounded: the raw record of a 20 MB line or a 100,000-column row is not kept whole (bounded.ts).
    errors.push(boundRowError(error));
    if (tool && tool.trim() !== '') tally(tool.trim()).rejected += 1;
  };
  let batch: Experience[] = [];
  let items: LabelItem[] = [];
  const flush = async (): Promise<void> => {
    if (items.length > 0) {
      throwIfAborted(opts.signal);
      await sink.writeItems?.(items);
      items = [];
    }
    if (batch.length === 0) return;
    throwIfAborted(opts.signal);
    const result = await sink.writeBatch(batch);
    counts.added += result.added;
    counts.updated += result.updated;
    counts.unchanged += result.unchanged;
    batch = [];
    report(true);
  };
  const accept = async (experience: Experience): Promise<void> => {
    counts.rowsRead += 1;
    counts.accepted += 1;
    const t = tally(experience.toolId);
    t.accepted += 1;
    t.scored += 1;
    t.sum += experience.score;
    observed.min = Math.min(observed.min, experience.score);
    observed.max = Math.max(observed.max, experience.score);
    if (!Number.isInteger(experience.score)) observed.allIntegers = false;
    batch.push(experience);
    if (batch.length >= batchSize) await flush();
  };
  // A row without a score is kept as an output awaiting labels: accepted, and counted apart.
  const keepUnscored = async (item: LabelItem): Promise<void> => {
    counts.rowsRead += 1;
    counts.accepted += 1;
    counts.unscored += 1;
    tally(item.toolId).accepted += 1;
    items.push(item);
    if (items.length >= batchSize) await flush();
  };
  const take = async (checked: Checked, tool: string): Promise<void> => {
    if (checked.error) reject(checked.error, tool);
    else if (checked.unscored) await keepUnscored(checked.unscored);
    else await accept(checked.experience);
  };

  let records = 0;
  for await (const item of opened.items) {
    if (++records % CANCEL_CHECK_EVERY === 0) throwIfAborted(opts.signal);
    if (item.error) {
      reject(item.error);
      continue;
    }
    const mapped = opened.prepared.map(item.record);
    for (const error of mapped.errors) reject(error);
    for (const row of mapped.rows) await take(validator.check(row), row.tool);
  }
  // Rows a preset could only complete at the end of the file (openai-evals joins events by sample).
  const last = opened.prepared.finish?.();
  for (const error of last?.errors ?? []) reject(error);
  for (const row of last?.rows ?? []) await take(validator.check(row), row.tool);
  await flush();
  bytesRead = opened.source.bytesRead;
  report(true);

  const scale = opened.scale ?? inferScale(observed.min, observed.max, observed.allIntegers);
  const preset = opened.preset;
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
    scaleInferred: opened.scale === null,
    // The summary's JSON shape (CLI --json, RPC reply) is an object: a null-prototype one.
    tools: dictFrom([...tools].map(([tool, t]) => [tool, { accepted: t.accepted, rejected: t.rejected, meanScore: t.scored > 0 ? t.sum / t.scored : null }])),
    ...counts,
    errors,
    datasetDefaults: {
      name: opened.prepared.name ?? preset.defaults.name,
      scale,
      raterPolicy: preset.defaults.raterPolicy,
      modality: preset.defaults.modality,
    },
    bytesRead,
    durationMs: Date.now() - startedAt,
  };
  if (opened.prepared.mapping) summary.mapping = opened.prepared.mapping;
  if (opened.prepared.judge) summary.judge = opened.prepared.judge;
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
  const result: PreviewResult = { format: opened.format, preset: opened.preset.id, confidence: opened.confidence, headers: opened.headers, rows, errors, samples };
  if (opened.prepared.mapping) result.mapping = opened.prepared.mapping;
  if (opened.prepared.judge) result.judge = opened.prepared.judge;
  return result;
}
