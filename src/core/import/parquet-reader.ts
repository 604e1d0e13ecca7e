/**
 * Parquet files (any Hugging Face dataset file) → records, streamed one row group at a time with
 * hyparquet. Parquet keeps its index in a footer at the end of the file, so it needs random access
 * (`ByteSource`: a Blob in the worker, a file handle in the CLI), not the text stream of the other
 * formats. Memory holds the footer and one decoded row group (a 1M-row file with 10,000-row groups
 * holds 10,000 rows at a time; bench/parquet-bench.ts measures it). Records then go through the
 * generic mapping, nested paths included (`meta.source`, `answers[0]`).
 *
 * Values are turned into what JSON records hold, so the rest of the pipeline (validation, error
 * reports, the dialog's path picker) sees the same kinds of data: 64-bit integers become numbers
 * (text when beyond 2^53, so no digit is lost), timestamps ISO-8601 text, binary columns (image
 * bytes) a short `[binary, N bytes]` note instead of the bytes.
 */
import { parquetMetadataAsync, parquetReadObjects, parquetSchema, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { ParseError } from '../errors';
import { quote } from '../text/quote';
import { throwIfAborted } from './text-source';
import type { ByteSource, ReadItem } from './types';

// The interface lives in types.ts (the reader options name it); re-exported for callers.
export type { ByteSource };

const MAGIC = [0x50, 0x41, 0x52, 0x31]; // "PAR1", at the start and the end of every Parquet file
/** Nesting kept (records elsewhere are limited to 64 levels too, json-value.ts). */
const MAX_DEPTH = 64;

/** True when the first bytes (or decoded characters) are Parquet's magic number. */
export function looksLikeParquet(head: string | Uint8Array | undefined): boolean {
  if (head === undefined) return false;
  return MAGIC.every((b, i) => (typeof head === 'string' ? head.charCodeAt(i) : head[i]) === b);
}

/** A decoded Parquet value as a JSON-like value (see the module comment). */
export function plainValue(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value !== 'object') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return `[binary, ${value.length} bytes]`;
  if (depth >= MAX_DEPTH) return '[nested too deeply]';
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return Array.from(value as ArrayLike<unknown>, (v) => plainValue(v, depth + 1));
  // Own data properties, defined (not assigned) so a column named `__proto__` is a key like any other.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v, depth + 1)]));
}

function asyncBuffer(file: ByteSource, onRead: (bytes: number) => void): AsyncBuffer {
  return {
    byteLength: file.size,
    async slice(start: number, end?: number): Promise<ArrayBuffer> {
      const bytes = await file.read(start, end ?? file.size);
      onRead(bytes.length);
      return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? (bytes.buffer as ArrayBuffer)
        : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    },
  };
}

export interface ParquetOpened {
  headers: string[];
  rows: number;
  rowGroups: number;
  items: AsyncGenerator<ReadItem>;
}

/** Reads the footer (throws a ParseError for a broken file) and returns the records as a stream. */
export async function openParquet(
  file: ByteSource,
  fileName: string,
  options: { signal?: AbortSignal; onBytes?: (bytesRead: number) => void } = {},
): Promise<ParquetOpened> {
  let bytesRead = 0;
  const buffer = asyncBuffer(file, (n) => {
    bytesRead += n;
    options.onBytes?.(Math.min(bytesRead, file.size));
  });
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(buffer);
  } catch (err) {
    throw new ParseError(`The Parquet file cannot be read: ${quote(err instanceof Error ? err.message : String(err), 300)}.`, fileName);
  }
  const headers = parquetSchema(metadata).children.map((c) => c.element.name);
  async function* items(): AsyncGenerator<ReadItem> {
    let rowStart = 0;
    let row = 0;
    for (const group of metadata.row_groups) {
      throwIfAborted(options.signal);
      const count = Number(group.num_rows);
      let rows: Record<string, unknown>[];
      try {
        rows = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd: rowStart + count });
      } catch (err) {
        throw new ParseError(
          `The Parquet file cannot be read at rows ${rowStart + 1}–${rowStart + count}: ${quote(err instanceof Error ? err.message : String(err), 300)}.`,
          fileName,
          rowStart + 1,
        );
      }
      for (const r of rows) yield { record: { row: ++row, data: plainValue(r) as Record<string, unknown> } };
      rowStart += count;
    }
  }
  return { headers, rows: Number(metadata.num_rows), rowGroups: metadata.row_groups.length, items: items() };
}

/** A ByteSource over bytes already in memory (tests, small files). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: async (start, end) => bytes.subarray(start, end) };
}

/** A ByteSource over a Blob (the worker's File): only the slices hyparquet asks for are read. */
export function blobSource(blob: Blob): ByteSource {
  return { size: blob.size, read: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()) };
}
