/**
 * The one CSV cell writer. Every CSV this project writes (experience export, rejected rows, the
 * Evaluate tables) goes through `csvCell` / `toCsv`; tests/unit/arch/csv-writers.test.ts fails if a
 * writer builds CSV any other way. Two jobs:
 *
 * 1. RFC 4180 quoting: a cell holding `"`, `,`, CR, LF, a byte-order mark or leading/trailing spaces
 *    is wrapped in double quotes with inner quotes doubled (the same cells Papa.unparse quoted, so
 *    files without formula-like text are byte-for-byte what they were).
 * 2. Formula neutralisation (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with
 *    `=`, `+`, `-`, `@`, TAB or CR as a formula. Such a cell gets a leading `'` (shown as text by
 *    Excel, LibreOffice and Google Sheets) and is always quoted. Beyond OWASP's list, because some
 *    spreadsheets trim or normalise on import: a trigger after leading whitespace (`  =1`) and the
 *    full-width forms `＝ ＋ － ＠` are neutralised too.
 *
 * Exception: a cell that is a plain decimal number (`-1`, `+3`, `-0.25`, `1e-7`) stays as it is, so
 * a negative score stays a number in a spreadsheet; a number cannot run anything.
 *
 * Round trip: the mark is reversible. A cell that already starts with `'` before a trigger
 * (`'=x`) gets one more `'`, and `unmarkCsvCell` (used by our CSV reader) removes exactly one `'`
 * when what follows needs the mark, so export → import gives back the stored text exactly.
 */

export type CsvValue = string | number | boolean | null | undefined;

const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Optional `'` marks, then a trigger: one of = + - @ TAB CR (and full-width = + - @), or whitespace then = + - @. */
const FORMULA_START = /^'*(?:[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]|\s+[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;
const NEEDS_QUOTES = /[",\r\n\uFEFF]|^[ \t]|[ \t]$/;

/** True when a spreadsheet could read the text as a formula (see the rule above). */
export function needsFormulaMark(text: string): boolean {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
}

/** The text as a CSV field: neutralised when formula-like, quoted when RFC 4180 requires it. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  const marked = needsFormulaMark(text);
  const out = marked ? `'${text}` : text;
  return marked || NEEDS_QUOTES.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
}

/** Reverses the mark of `csvCell` on a field as read (quotes already removed). */
export function unmarkCsvCell(text: string): string {
  return text.startsWith("'") && needsFormulaMark(text.slice(1)) ? text.slice(1) : text;
}

/** Rows (the first is usually the header) as CSV text: `,`-separated, `\n` between rows, no final newline. */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\n');
}
