/**
 * CSV/TSV rows → records keyed by the header row. Row numbers are 1-based data rows (the header is
 * not counted, blank lines are skipped and not counted), so they match what a spreadsheet shows
 * below its header as long as no record spans several lines.
 */
import { dict } from '../data-keys';
import { ParseError } from '../errors';
import { unmarkCsvCell } from '../export/csv-cell';
import { clipList } from './bounded';
import { CsvChunkParser } from './csv-chunk-parser';
import type { HeaderIssues, ReadItem } from './types';

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

function isBlank(row: string[]): boolean {
  return row.length === 1 && (row[0] ?? '').trim() === '';
}

/**
 * Unique, non-empty column names: blanks become `column_N`, repeats get `_2`, `_3`. What was renamed
 * is reported, so a mapping that lands on an ambiguous or unnamed column can say exactly why.
 */
function normaliseHeader(cells: string[]): { headers: string[]; issues: HeaderIssues } {
  const seen = new Map<string, number>();
  const positions = new Map<string, { columns: number[]; names: string[] }>();
  const blanks: HeaderIssues['blanks'] = [];
  const headers = cells.map((cell, i) => {
    const trimmed = cell.trim();
    const base = trimmed || `column_${i + 1}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const name = n === 1 ? base : `${base}_${n}`;
    if (!trimmed) blanks.push({ column: i + 1, name });
    else {
      const entry = positions.get(base) ?? { columns: [], names: [] };
      entry.columns.push(i + 1);
      entry.names.push(name);
      positions.set(base, entry);
    }
    return name;
  });
  const duplicates = [...positions].filter(([, p]) => p.columns.length > 1).map(([name, p]) => ({ name, ...p }));
  return { headers, issues: { duplicates, blanks } };
}

export class CsvRecordReader {
  headers: string[] | null = null;
  headerIssues: HeaderIssues | undefined;
  private readonly tokens: CsvChunkParser;
  private dataRow = 0;

  constructor(
    private readonly fileName: string,
    delimiter?: string,
  ) {
    this.tokens = new CsvChunkParser(delimiter);
  }

  get delimiter(): string | undefined {
    return this.tokens.delimiter;
  }

  push(chunk: string): ReadItem[] {
    return this.consume(this.tokens.push(chunk));
  }

  /** Flushes the last row. Throws ParseError for an empty file or an unterminated quote. */
  end(): ReadItem[] {
    const last = this.tokens.end();
    const items = this.consume(last.rows);
    if (last.unclosedQuoteRow !== undefined) {
      const row = this.headers ? this.dataRow + 1 : 0;
      const where = row === 0 ? 'the header row' : `row ${row}`;
      // The snippet is the field's first line, clipped by clipInput ("… (N more)" when long).
      const snippet = last.unclosedQuoteSnippet ?? '';
      const cut = /… \([\d,]+ more\)$/.test(snippet) ? '' : '…';
      throw new ParseError(
        `Unclosed quote: ${where} opens a quoted field ("${snippet}${cut}") that is never closed before the end of the file.`,
        this.fileName,
        row,
      );
    }
    if (!this.headers) throw new ParseError('The file is empty: there is no header row.', this.fileName);
    return items;
  }

  private consume(rows: string[][]): ReadItem[] {
    const items: ReadItem[] = [];
    for (const row of rows) {
      if (isBlank(row)) continue;
      if (!this.headers) {
        this.setHeader(row);
        continue;
      }
      this.dataRow += 1;
      items.push(this.toItem(row));
    }
    return items;
  }

  private setHeader(row: string[]): void {
    if (row.every((cell) => cell.trim() === '')) {
      throw new ParseError('Missing header: the first row has no column names.', this.fileName, 0);
    }
    if (row.length > 1 && row.every((cell) => NUMERIC.test(cell))) {
      const shown = clipList(row.slice(0, 4), 200, 'cells');
      throw new ParseError(`Missing header: the first row (${shown}) holds only numbers, so it looks like data rather than column names.`, this.fileName, 0);
    }
    const { headers, issues } = normaliseHeader(row.map(unmarkCsvCell));
    this.headers = headers;
    if (issues.duplicates.length || issues.blanks.length) this.headerIssues = issues;
  }

  private toItem(row: string[]): ReadItem {
    const headers = this.headers as string[];
    const data = dict<unknown>(); // keyed by column names (data): a `__proto__` column stays a column
    headers.forEach((h, i) => {
      // A leading ' that neutralised a formula (our exports write it, see csv-cell.ts) is removed.
      data[h] = unmarkCsvCell(row[i] ?? '');
    });
    if (row.length === headers.length) return { record: { row: this.dataRow, data } };
    for (let i = headers.length; i < row.length; i++) data[`extra_${i - headers.length + 1}`] = unmarkCsvCell(row[i] ?? '');
    const which = row.length > headers.length ? 'more' : 'fewer';
    return {
      error: {
        file: this.fileName,
        row: this.dataRow,
        column: '',
        reason:
          `has ${row.length} fields but the header has ${headers.length} columns (${which} than expected; check quoting and the delimiter ` +
          `"${this.delimiter === '\t' ? '\\t' : this.delimiter}")`,
        raw: data,
      },
    };
  }
}
