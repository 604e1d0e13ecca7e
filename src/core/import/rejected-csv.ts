/**
 * Rejected rows as a CSV the user can fix and import again: the raw columns as they were read, plus
 * an `error` column saying where and why. `toCsv` quotes and neutralises formulas (csv-cell.ts):
 * the raw cells are untrusted input and the file is meant to be opened in a spreadsheet.
 */
import { own } from '../data-keys';
import { toCsv } from '../export/csv-cell';
import type { RowError } from '../types';

/** One-line description of a row error, e.g. `row 232, column models.DALLE_3[1]: score 41 is outside the scale 1–5`. */
export function describeRowError(error: RowError): string {
  // JSONL/JSON parse errors already start with their location ("line 7: …", "member 3: …").
  if (/^(line|member) \d+:/.test(error.reason)) return error.reason;
  const column = error.column ? `, column ${error.column}` : '';
  return `row ${error.row}${column}: ${error.reason}`;
}

function asCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function rejectedRowsCsv(errors: RowError[]): string {
  const fields: string[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    for (const key of Object.keys(e.raw ?? {})) {
      if (key !== 'error' && !seen.has(key)) {
        seen.add(key);
        fields.push(key);
      }
    }
  }
  fields.push('error');
  const data = errors.map((e) => [...fields.slice(0, -1).map((f) => asCell(own(e.raw, f))), describeRowError(e)]);
  return toCsv([fields, ...data]);
}
