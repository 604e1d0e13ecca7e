/** Small helpers the presets share: reading cells as text, header checks, category lists. */
import { ValidationError } from '../../errors';
import { clipList } from '../bounded';
import { resolvePath } from '../record-path';
import type { ScoreScale } from '../../types';

export const LIKERT_1_5: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: true };

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

/** Splits `a;b; c` lists, dropping blanks and repeats. */
export function splitList(text: string, separator = ';'): string[] {
  return [...new Set(text.split(separator).map((s) => s.trim()).filter((s) => s !== ''))];
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
    `The ${preset} preset needs the column${missing.length > 1 ? 's' : ''} ${list}, which ${missing.length > 1 ? 'are' : 'is'} missing. The file has: ${clipList(headers) || '(no columns)'}.`,
  );
}
