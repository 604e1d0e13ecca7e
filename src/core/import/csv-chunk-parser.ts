/**
 * Incremental CSV tokenizer on top of Papa Parse's low-level `Papa.Parser`, fed the way Papa's own
 * ChunkStreamer feeds it: parse the unparsed tail plus the new chunk with `ignoreLastRow`, keep the
 * text after `meta.cursor` (the possibly incomplete last row) for the next round. This keeps quoted
 * fields with newlines intact across chunk boundaries without ever holding the whole file.
 * Line endings are made uniform first (csv-newlines.ts), so CR, LF and CRLF may be mixed in a file.
 */
import Papa from 'papaparse';
import type { Parser } from 'papaparse';
import { clipInput } from '../text/quote';
import { CsvNewlines } from './csv-newlines';

export const DELIMITER_CANDIDATES = [',', '\t', ';', '|'] as const;

type PapaError = { code?: string; row?: number; index?: number };
type PapaResult = { data: string[][]; errors: PapaError[]; meta: { cursor: number } };

export interface CsvChunkResult {
  rows: string[][];
  /** Set by `end()` when the file ends inside a quoted field: index (in `rows` order) of the broken row. */
  unclosedQuoteRow?: number;
  /** First characters of the unterminated field, for the error message. */
  unclosedQuoteSnippet?: string;
}

/** Counts candidate delimiters outside quotes in the header line; ties favour the earlier candidate. */
export function guessDelimiter(headerLine: string): string {
  const counts = new Map<string, number>(DELIMITER_CANDIDATES.map((d) => [d, 0]));
  let inQuotes = false;
  for (const ch of headerLine) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  let bestCount = 0;
  for (const d of DELIMITER_CANDIDATES) {
    const n = counts.get(d) ?? 0;
    if (n > bestCount) {
      best = d;
      bestCount = n;
    }
  }
  return best;
}

/**
 * Index of the first line break outside quotes, or -1 when the header line is not complete yet.
 * Resumes where the previous call stopped (`scan`), so a 20 MB first line fed in chunks stays linear.
 */
function headerLineEnd(text: string, scan: { at: number; inQuotes: boolean }): number {
  for (let i = scan.at; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') scan.inQuotes = !scan.inQuotes;
    else if (!scan.inQuotes && (ch === '\n' || ch === '\r')) return i;
  }
  scan.at = text.length;
  return -1;
}

export class CsvChunkParser {
  delimiter: string | undefined;
  private parser: Parser | undefined;
  private newlines: CsvNewlines | undefined;
  /** Text before the first line break (the delimiter is guessed from it); not yet normalised. */
  private head = '';
  private readonly headScan = { at: 0, inQuotes: false };
  /** Normalised text not parsed yet. */
  private pending = '';
  /** Do not re-parse a tail without a complete row until it has grown to this length (keeps 1 MB fields linear). */
  private retryAt = 0;

  constructor(delimiter?: string) {
    this.delimiter = delimiter;
  }

  /** Adds a chunk; returns the rows completed by it. */
  push(chunk: string): string[][] {
    if (this.newlines) this.pending += this.newlines.push(chunk);
    else {
      this.head += chunk;
      if (!this.init(false)) return [];
    }
    if (this.pending.length < this.retryAt) return [];
    return this.run(true).rows;
  }

  /** Flushes the last row; reports an unterminated quoted field. */
  end(): CsvChunkResult {
    if (!this.parser) this.init(true);
    if (this.pending.length === 0) return { rows: [] };
    return this.run(false);
  }

  /** Guesses the delimiter from the first line; needs that line to be complete (or EOF). */
  private init(atEnd: boolean): boolean {
    const end = headerLineEnd(this.head, this.headScan);
    if (end === -1 && !atEnd) return false;
    const firstLine = end === -1 ? this.head : this.head.slice(0, end);
    this.delimiter ??= guessDelimiter(firstLine);
    // Every record ends in LF once normalised, whatever the file used.
    this.newlines = new CsvNewlines(this.delimiter);
    this.pending = this.newlines.push(this.head);
    this.head = '';
    this.parser = new Papa.Parser({ delimiter: this.delimiter, newline: '\n', quoteChar: '"', header: false });
    return true;
  }

  private run(ignoreLastRow: boolean): CsvChunkResult {
    const parser = this.parser as Parser;
    const result = parser.parse(this.pending, 0, ignoreLastRow) as PapaResult;
    const rows = result.data;
    if (ignoreLastRow) {
      const cursor = result.meta.cursor;
      this.pending = this.pending.slice(cursor);
      this.retryAt = rows.length === 0 ? this.pending.length * 2 : 0;
      return { rows };
    }
    this.pending = '';
    const missing = result.errors.find((e) => e.code === 'MissingQuotes');
    if (missing && typeof missing.row === 'number') {
      const broken = rows[missing.row];
      // First line of the unterminated field, so the user can find it.
      const field = broken ? (broken[broken.length - 1] ?? '') : '';
      const snippet = clipInput(field.split(/\r?\n|\r/)[0] ?? '', 40);
      return { rows: rows.slice(0, missing.row), unclosedQuoteRow: missing.row, unclosedQuoteSnippet: snippet };
    }
    return { rows };
  }
}
