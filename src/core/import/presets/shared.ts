/** Small helpers the presets share: reading cells as text, header checks, category lists. */
import { ValidationError } from '../../errors';
import { clipList } from '../bounded';
import { resolvePath } from '../record-path';
import { renderRubric } from '../rubric';
import type { CanonicalRow, FieldMapping, Preset, SourceRecord } from '../types';
import type { ScoreScale } from '../../types';

export const LIKERT_1_5: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: true };
/** A probability or pass rate: continuous in [0, 1]. */
export const UNIT_CONTINUOUS: ScoreScale = { min: 0, max: 1, direction: 'higher-better', integer: false };

/**
 * A cell as text: strings as they are, numbers printed, objects as JSON, missing as ''. `column` is
 * a column name or a nested path (`response.output`, record-path.ts; an exact column name wins).
 */
export function cell(data: Record<string, unknown>, column: string | undefined): string {
  if (!column) return '';
  // Own cells only: a column named `toString` or `__proto__` missing from a record is missing, not
  // Object.prototype's member (core/data-keys; resolvePath reads own properties only).
  const value = resolvePath(data, column);
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Optional text field: undefined when empty, so stored experiences carry no empty strings. */
export function optional(data: Record<string, unknown>, column: string | undefined): string | undefined {
  const text = cell(data, column);
  return text.trim() === '' ? undefined : text;
}

/** Score cell: numbers stay numbers, everything else becomes text for validation to judge. */
export function scoreCell(data: Record<string, unknown>, column: string): string | number | null | undefined {
  const value = resolvePath(data, column);
  if (typeof value === 'number' || value === null || value === undefined) return value;
  return cell(data, column);
}

/** Defaults of a text→text export: the raters' mean is the ground truth unless the user picks one; `scale: null` is inferred. */
export function textDefaults(name: string, scale: ScoreScale | null): Preset['defaults'] {
  return { name, scale, raterPolicy: { kind: 'mean' }, modality: 'text→text' };
}

/** Where each field of a one-experience-per-record export is read; the map is kept as provenance. */
export type RowColumns = FieldMapping & { id: string; prompt: string; tool: string; score: string };

/**
 * One judged experience read from named columns (the task id falls back to the row number). The
 * rater and categories are the preset's to say: each export names its judge and topics its own way.
 */
export function judgedRow(record: SourceRecord, columns: RowColumns, rater: string, categories: string[]): CanonicalRow {
  const d = record.data;
  return {
    taskId: cell(d, columns.id).trim() || String(record.row),
    prompt: cell(d, columns.prompt),
    tool: cell(d, columns.tool),
    score: scoreCell(d, columns.score),
    rater,
    response: optional(d, columns.response),
    feedback: optional(d, columns.feedback),
    rubric: columns.rubric === undefined ? undefined : renderRubric(resolvePath(d, columns.rubric)),
    categories,
    scoreSource: 'judge',
    source: { row: record.row, columns: { ...columns }, raw: d },
  };
}

/** Splits `a;b; c` lists, dropping blanks and repeats. */
export function splitList(text: string, separator = ';'): string[] {
  return [
    ...new Set(
      text
        .split(separator)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

export function uniqueNonEmpty(values: (string | undefined)[]): string[] {
  return [...new Set(values.map((v) => (v ?? '').trim()).filter((v) => v !== ''))];
}

/** Fraction of `wanted` present in `headers` (case-sensitive: presets match exact export formats). */
export function headerCoverage(headers: string[], wanted: string[]): number {
  const set = new Set(headers);
  return wanted.filter((w) => set.has(w)).length / wanted.length;
}

/** Throws a ValidationError naming the missing columns and what the file has instead. */
export function requireColumns(preset: string, headers: string[], required: string[]): void {
  const set = new Set(headers);
  const missing = required.filter((r) => !set.has(r));
  if (missing.length === 0) return;
  const list = missing.map((m) => `'${m}'`).join(', ');
  throw new ValidationError(
    `The ${preset} preset needs the column${missing.length > 1 ? 's' : ''} ${list}, which ${missing.length > 1 ? 'are' : 'is'} missing. The file ` +
      `has: ${clipList(headers) || '(no columns)'}.`,
  );
}

// What the points of a preset's scale mean, in our own words, for the language-model prompts
// (predict and feedback: a model that knows "3 = some details wrong" reads a score better than one
// that sees a bare "3 of 5"). A preset lists one only when its scale has one fixed meaning.

/** GenAI-Bench (and its long-prompt variant): human 1–5 ratings of prompt faithfulness. */
export const GENAI_BENCH_MEANING = [
  'Human raters judged how faithfully the generated image (or video) shows what the prompt asks for:',
  '1 = it does not show the prompt at all or shows something else;',
  '2 = it gets the main subject but misses or contradicts much of the prompt;',
  '3 = it shows the gist but several requested details (counts, attributes, relations, text) are wrong or missing;',
  '4 = it matches the prompt except for one or two small details;',
  '5 = it matches every part of the prompt.',
].join('\n');

/** BiGGen and Prometheus: a judge's 1–5 score against the task's own rubric. */
export const RUBRIC_1_5_MEANING = [
  'A judge scored the response against the task’s own rubric (shown with the task when known):',
  '1 = the rubric’s lowest description (the response fails the criterion);',
  '3 = it meets the criterion in part;',
  '5 = the rubric’s highest description (it fully meets the criterion).',
].join('\n');
