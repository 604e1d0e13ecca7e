/**
 * Experiences export (CSV and JSONL). Column names are the canonical import fields, so an
 * exported file imports again with the generic preset and no mapping; `human` tells hand labels
 * from judge or model scores.
 */
import { toCsv } from './csv-cell';
import type { Experience } from '../types';

export const EXPORT_COLUMNS = [
  'dataset',
  'id',
  'prompt',
  'tool',
  'score',
  'rater',
  'human',
  'score_source',
  'response',
  'feedback',
  'feedback_generated',
  'rubric',
  'category',
  'image',
  'image_id',
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number | boolean>;

/**
 * `image` is the file a person has: the attached image's name as imported (its relative path),
 * else the row's own `image` value; `image_id` is the internal id (`img:<dataset>:<tool>/<task>`).
 */
export function exportRow(e: Experience, imageNames?: ReadonlyMap<string, string>): ExportRow {
  const attached = e.imageId?.startsWith('img:') ? e.imageId : undefined;
  return {
    dataset: e.datasetId,
    id: e.taskId,
    prompt: e.prompt,
    tool: e.toolId,
    score: e.score,
    rater: e.rater,
    human: e.scoreSource === 'human',
    score_source: e.scoreSource,
    response: e.response ?? '',
    feedback: e.feedback ?? '',
    feedback_generated: e.feedbackGenerated === true,
    rubric: e.rubric ?? '',
    category: e.categories.join(';'),
    image: (attached && imageNames?.get(attached)) ?? (attached ? '' : (e.imageId ?? '')),
    image_id: attached ?? '',
  };
}

/** RFC 4180 CSV with a header row, formula-like cells neutralised (csv-cell.ts; our importer undoes the mark). */
export function experiencesToCsv(rows: Experience[], imageNames?: ReadonlyMap<string, string>): string {
  return toCsv([
    [...EXPORT_COLUMNS],
    ...rows.map((r) => {
      const row = exportRow(r, imageNames);
      return EXPORT_COLUMNS.map((c) => row[c]);
    }),
  ]);
}

/** One JSON object per line. */
export function experiencesToJsonl(rows: Experience[], imageNames?: ReadonlyMap<string, string>): string {
  return rows.map((r) => JSON.stringify(exportRow(r, imageNames))).join('\n') + (rows.length ? '\n' : '');
}
