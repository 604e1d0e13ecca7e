/**
 * Format detection and one push-style reader interface over the three formats. Readers are
 * synchronous state machines (push a chunk, get the records it completed) so detection can run them
 * on a first chunk and the pipeline can drive them from any async source.
 */
import { ParseError } from '../errors';
import { CsvRecordReader } from './csv-records';
import { JsonScanner } from './json-scanner';
import { JsonContainerScanner } from './json-container';
import { JsonlReader } from './jsonl-reader';
import { clipRaw } from './bounded';
import { parseJsonRecord } from './json-value';
import { quote } from '../text/quote';
import { TextSource, type ImportInput } from './text-source';
import type { HeaderIssues, InputFormat, ReadItem, SourceRecord } from './types';

export interface RecordReader {
  readonly format: InputFormat;
  /** CSV header once read; null for JSON formats (their "headers" are the first record's keys). */
  readonly headers: string[] | null;
  readonly delimiter?: string;
  /** CSV only: header cells the reader had to rename (repeated or empty names). */
  readonly headerIssues?: HeaderIssues | undefined;
  /** JSON with a container: the document around the records (json-container.ts), once reached. */
  readonly document?: Record<string, unknown> | undefined;
  push(chunk: string): ReadItem[];
  /** Flushes; throws ParseError when the file as a whole is unreadable. */
  end(): ReadItem[];
}

function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = base.lastIndexOf('.');
  return dot === -1 ? '' : base.slice(dot + 1).toLowerCase();
}

/** True when the first line is a JSON object on its own and another line follows: JSON Lines. */
function looksLikeJsonLines(head: string): boolean {
  const text = head.trimStart();
  const nl = text.indexOf('\n');
  if (nl === -1) return false;
  try {
    const first: unknown = JSON.parse(text.slice(0, nl));
    return (
      typeof first === 'object' &&
      first !== null &&
      !Array.isArray(first) &&
      text
        .slice(nl + 1)
        .trimStart()
        .startsWith('{')
    );
  } catch {
    return false;
  }
}

/** Format from the extension, corrected by the first non-whitespace character when they disagree. */
export function detectFormat(fileName: string, head: string): InputFormat {
  const ext = extensionOf(fileName);
  const first = head.trimStart()[0] ?? '';
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  if (ext === 'csv' || ext === 'tsv' || ext === 'tab' || ext === 'psv') return 'csv';
  if (ext === 'json') return first === '{' && looksLikeJsonLines(head) ? 'jsonl' : 'json';
  if (first === '[') return 'json';
  if (first === '{') return looksLikeJsonLines(head) ? 'jsonl' : 'json';
  return 'csv';
}

/**
 * Why a top-level member is not a record. Under a top-level object every member must be one record
 * (keyed by its id); a wrapper like `{"records": [...]}` is the usual mistake, so it is named.
 */
function notARecord(index: number, key: string | undefined, found: string): string {
  if (key === undefined) return `member ${index}: expected an object, found ${found}`;
  const base = `member ${index} (${quote(key)}): expected an object (a top-level JSON object must map ids to records), found ${found}`;
  return found === 'an array' ? `${base}; if the records are in this array, import a file whose top level is the array itself` : base;
}

/** Top-level JSON members → records; the scanner finds members, JSON.parse reads each one. */
class JsonRecordReader implements RecordReader {
  readonly format = 'json' as const;
  readonly headers = null;
  private readonly scanner: JsonScanner | JsonContainerScanner;

  /** `container`: keys down to the array that holds the records (json-container.ts); the top level when absent. */
  constructor(
    private readonly fileName: string,
    container?: readonly string[],
  ) {
    this.scanner = container?.length ? new JsonContainerScanner(fileName, container) : new JsonScanner(fileName);
  }

  get document(): Record<string, unknown> | undefined {
    return this.scanner instanceof JsonContainerScanner ? this.scanner.document : undefined;
  }

  push(chunk: string): ReadItem[] {
    return this.scanner.push(chunk).map((m) => {
      const raw = m.key === undefined ? { member: clipRaw(m.text) } : { key: clipRaw(m.key, 200), member: clipRaw(m.text) };
      // Depth, repeated keys and syntax are checked in json-value.ts (bounded reasons).
      const parsed = parseJsonRecord(m.text, { line: m.line, column: m.column });
      const column = m.key === undefined ? '' : quote(m.key).slice(1, -1);
      if (parsed.error !== undefined) return { error: { file: this.fileName, row: m.index, column, reason: `member ${m.index}: ${parsed.error}`, raw } };
      if (parsed.found) return { error: { file: this.fileName, row: m.index, column, reason: notARecord(m.index, m.key, parsed.found.kind), raw } };
      const value = parsed.value;
      const record = { row: m.index, data: value as Record<string, unknown> };
      return { record: m.key === undefined ? record : { ...record, key: m.key } };
    });
  }

  end(): ReadItem[] {
    this.scanner.end();
    return [];
  }
}

class JsonlRecordReader implements RecordReader {
  readonly format = 'jsonl' as const;
  readonly headers = null;
  private readonly inner: JsonlReader;
  constructor(fileName: string) {
    this.inner = new JsonlReader(fileName);
  }
  push(chunk: string): ReadItem[] {
    return this.inner.push(chunk);
  }
  end(): ReadItem[] {
    return this.inner.end();
  }
}

class CsvReader implements RecordReader {
  readonly format = 'csv' as const;
  private readonly inner: CsvRecordReader;
  constructor(fileName: string, delimiter?: string) {
    this.inner = new CsvRecordReader(fileName, delimiter);
  }
  get headers(): string[] | null {
    return this.inner.headers;
  }
  get delimiter(): string | undefined {
    return this.inner.delimiter;
  }
  get headerIssues(): HeaderIssues | undefined {
    return this.inner.headerIssues;
  }
  push(chunk: string): ReadItem[] {
    return this.inner.push(chunk);
  }
  end(): ReadItem[] {
    return this.inner.end();
  }
}

/** `container` (JSON only): keys down to the array of records inside the top-level object. */
export function createReader(format: InputFormat, fileName: string, delimiter?: string, container?: readonly string[]): RecordReader {
  if (format === 'csv') return new CsvReader(fileName, delimiter);
  if (format === 'jsonl') return new JsonlRecordReader(fileName);
  if (format === 'parquet') throw new Error('Parquet files are read by parquet-reader.ts, not by a text reader');
  if (format === 'eval') throw new Error('Inspect .eval archives are read by eval-archive.ts, not by a text reader');
  return new JsonRecordReader(fileName, container);
}

/** Drives a reader from an async chunk source. */
export async function* readItems(chunks: AsyncIterable<string>, reader: RecordReader): AsyncGenerator<ReadItem> {
  for await (const chunk of chunks) {
    for (const item of reader.push(chunk)) yield item;
  }
  for (const item of reader.end()) yield item;
}

/** Reads a whole (small) sidecar file into records; row errors in a sidecar are fatal. */
export async function readAllRecords(input: ImportInput, fileName: string, format: InputFormat): Promise<{ headers: string[]; records: SourceRecord[] }> {
  const reader = createReader(format, fileName);
  const records: SourceRecord[] = [];
  for await (const item of readItems(new TextSource(input).chunks(), reader)) {
    if (item.error) throw new ParseError(`${fileName}, row ${item.error.row}: ${item.error.reason}`, fileName, item.error.row);
    records.push(item.record);
  }
  return { headers: reader.headers ?? Object.keys(records[0]?.data ?? {}), records };
}
