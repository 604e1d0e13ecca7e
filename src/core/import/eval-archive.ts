/**
 * Inspect AI's `.eval` log: a ZIP archive holding `_journal/start.json`, one `samples/<id>_epoch_<n>.json`
 * per sample and epoch, `summaries.json`, `reductions.json` and, written last, `header.json` (the
 * EvalLog without its samples: eval spec, plan, results, stats).
 *
 * The scorers a log counts as scores are in `header.json`, which sits at the end of the archive, and
 * the samples come first. So the header is read first by random access (the central directory at
 * the end names its offset; it is small), then the archive is streamed once from the start through
 * fflate's `Unzip`, which inflates one sample entry at a time: a large log is never held whole, only
 * the sample being parsed. Entries that are not samples are skipped without inflating.
 */
import { Unzip, UnzipInflate, inflateSync } from 'fflate';
import { ParseError } from '../errors';
import { quote } from '../text/quote';
import { clipRaw } from './bounded';
import { parseJsonRecord } from './json-value';
import type { ByteSource } from './parquet-reader';
import { throwIfAborted } from './text-source';
import type { ReadItem } from './types';

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const END64_LOCATOR = 0x07064b50;
/** The end record is at most 22 bytes plus a 65,535-byte comment from the end. */
const END_SEARCH = 22 + 0xffff;
/** Larger headers or directories are not an Inspect log (a header holds specs and metrics). */
const HEADER_MAX = 32 * 1024 * 1024;
const DIRECTORY_MAX = 64 * 1024 * 1024;
/** One sample's JSON; a larger one is reported as a row error instead of being parsed. */
export const SAMPLE_MAX = 256 * 1024 * 1024;

const SAMPLE = /^samples\/.+\.json$/;

export interface ArchiveEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** True when the bytes start with a ZIP local file header ("PK\3\4"). */
export function looksLikeZip(head: Uint8Array | undefined): boolean {
  return !!head && head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4;
}

const u16 = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, at: number): number => (u16(b, at) + u16(b, at + 2) * 0x10000) >>> 0;
const u64 = (b: Uint8Array, at: number): number => u32(b, at) + u32(b, at + 4) * 0x1_0000_0000;

/** The archive's entries, from its central directory (ZIP64 included). */
export async function readDirectory(source: ByteSource, fileName: string): Promise<ArchiveEntry[]> {
  const tailStart = Math.max(0, source.size - END_SEARCH);
  const tail = await source.read(tailStart, source.size);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) === END) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ParseError('The ZIP archive has no end record: the file is cut short or not a ZIP archive.', fileName);
  let count = u16(tail, end + 10);
  let size = u32(tail, end + 12);
  let offset = u32(tail, end + 16);
  if (offset === 0xffffffff || size === 0xffffffff || count === 0xffff) {
    const locator = end - 20;
    if (locator < 0 || u32(tail, locator) !== END64_LOCATOR) throw new ParseError('The ZIP64 archive lacks its end locator.', fileName);
    const at = u64(tail, locator + 8);
    const record = await source.read(at, at + 56);
    count = u64(record, 32);
    size = u64(record, 40);
    offset = u64(record, 48);
  }
  if (size > DIRECTORY_MAX || offset + size > source.size)
    throw new ParseError('The ZIP archive’s directory is damaged (it points past the end of the file).', fileName);
  const dir = await source.read(offset, offset + size);
  const entries: ArchiveEntry[] = [];
  let at = 0;
  for (let i = 0; i < count && at + 46 <= dir.length; i++) {
    if (u32(dir, at) !== CENTRAL) throw new ParseError(`The ZIP archive’s directory is damaged at entry ${i + 1}.`, fileName);
    const nameLength = u16(dir, at + 28);
    const extraLength = u16(dir, at + 30);
    const commentLength = u16(dir, at + 32);
    const entry: ArchiveEntry = {
      name: new TextDecoder().decode(dir.subarray(at + 46, at + 46 + nameLength)),
      method: u16(dir, at + 10),
      compressedSize: u32(dir, at + 20),
      size: u32(dir, at + 24),
      localOffset: u32(dir, at + 42),
    };
    // ZIP64 extra field: the 64-bit values, in this order, for those written as 0xFFFFFFFF.
    let x = at + 46 + nameLength;
    const xEnd = x + extraLength;
    while (x + 4 <= xEnd) {
      const id = u16(dir, x);
      const length = u16(dir, x + 2);
      if (id === 1) {
        let p = x + 4;
        if (entry.size === 0xffffffff) {
          entry.size = u64(dir, p);
          p += 8;
        }
        if (entry.compressedSize === 0xffffffff) {
          entry.compressedSize = u64(dir, p);
          p += 8;
        }
        if (entry.localOffset === 0xffffffff) entry.localOffset = u64(dir, p);
      }
      x += 4 + length;
    }
    entries.push(entry);
    at = xEnd + commentLength;
  }
  return entries;
}

/** One entry's bytes, inflated (deflate or stored; other methods are refused by name). */
export async function readEntry(source: ByteSource, entry: ArchiveEntry, fileName: string, max = HEADER_MAX): Promise<Uint8Array> {
  if (entry.size > max)
    throw new ParseError(
      `${quote(entry.name)} in the archive is ${entry.size.toLocaleString('en-US')} bytes; at most ${max.toLocaleString('en-US')} are read.`,
      fileName,
    );
  const local = await source.read(entry.localOffset, entry.localOffset + 30);
  if (u32(local, 0) !== LOCAL) throw new ParseError(`The ZIP archive is damaged: ${quote(entry.name)} has no local header.`, fileName);
  const start = entry.localOffset + 30 + u16(local, 26) + u16(local, 28);
  const data = await source.read(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateSync(data, { out: new Uint8Array(entry.size) });
  throw new ParseError(`${quote(entry.name)} is compressed with ZIP method ${entry.method}, which is not supported (only deflate and stored are).`, fileName);
}

export interface EvalArchive {
  entries: ArchiveEntry[];
  /** `header.json` (finished logs), else `_journal/start.json` (a log still running or cut short). */
  header: Record<string, unknown> | undefined;
  /** The name of the entry the header came from. */
  headerName: string | undefined;
  samples: number;
}

function parseHeader(bytes: Uint8Array, name: string, fileName: string): Record<string, unknown> {
  const parsed = parseJsonRecord(new TextDecoder().decode(bytes));
  if (parsed.value === undefined)
    throw new ParseError(`${quote(name)} in the archive is not a JSON object${parsed.error ? `: ${parsed.error}` : ''}.`, fileName);
  return parsed.value;
}

/** The directory and the header of an `.eval` archive (random access; the samples are streamed later). */
export async function openEvalArchive(source: ByteSource, fileName: string): Promise<EvalArchive> {
  const entries = await readDirectory(source, fileName);
  const headerEntry = entries.find((e) => e.name === 'header.json') ?? entries.find((e) => e.name === '_journal/start.json');
  const header = headerEntry ? parseHeader(await readEntry(source, headerEntry, fileName), headerEntry.name, fileName) : undefined;
  return { entries, header, headerName: headerEntry?.name, samples: entries.filter((e) => SAMPLE.test(e.name)).length };
}

/**
 * The sample entries as records, in archive order, streamed from `input` (the file's bytes from its
 * start). Row numbers count sample entries (1-based); the record's key is the entry name.
 */
export async function* evalSampleItems(
  input: AsyncIterable<string | Uint8Array>,
  fileName: string,
  signal?: AbortSignal,
  onBytes?: (n: number) => void,
): AsyncGenerator<ReadItem> {
  const ready: ReadItem[] = [];
  let failure: Error | undefined;
  let row = 0;
  const unzip = new Unzip((file) => {
    if (!SAMPLE.test(file.name)) return; // not started: skipped without inflating
    const index = ++row;
    const parts: Uint8Array[] = [];
    let length = 0;
    let tooLarge = false;
    file.ondata = (err, data, final) => {
      if (err) {
        failure = new ParseError(`The ZIP archive is damaged in ${quote(file.name)}: ${err.message}.`, fileName);
        return;
      }
      length += data.length;
      if (length > SAMPLE_MAX) tooLarge = true;
      else parts.push(data);
      if (!final) return;
      ready.push(sampleItem(file.name, index, tooLarge ? null : parts, length, fileName));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  let bytesRead = 0;
  const iterator = input[Symbol.asyncIterator]();
  try {
    for (;;) {
      throwIfAborted(signal);
      const next = await iterator.next();
      if (next.done) {
        unzip.push(new Uint8Array(0), true);
      } else {
        if (typeof next.value === 'string') throw new ParseError('An .eval archive must be read as bytes, not text.', fileName);
        bytesRead += next.value.length;
        onBytes?.(bytesRead);
        unzip.push(next.value, false);
      }
      if (failure) throw failure;
      while (ready.length > 0) yield ready.shift() as ReadItem;
      if (next.done) return;
    }
  } finally {
    await iterator.return?.();
  }
}

/**
 * One sample entry, inflated, as a record, or as a row error naming the entry: `parts` null when the
 * entry was over SAMPLE_MAX (its bytes were dropped as they came, so a huge entry never sits in memory).
 */
function sampleItem(name: string, index: number, parts: readonly Uint8Array[] | null, length: number, fileName: string): ReadItem {
  const column = quote(name).slice(1, -1);
  if (!parts) {
    return {
      error: {
        file: fileName,
        row: index,
        column,
        reason: `sample ${quote(name)} is over ${SAMPLE_MAX.toLocaleString('en-US')} bytes of JSON and was not read`,
        raw: { entry: name },
      },
    };
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  const parsed = parseJsonRecord(new TextDecoder().decode(bytes));
  if (parsed.value === undefined) {
    const why = parsed.error ?? `expected an object, found ${parsed.found?.kind ?? 'another value'}`;
    return {
      error: {
        file: fileName,
        row: index,
        column,
        reason: `sample ${quote(name)}: ${why}`,
        raw: { entry: name, member: clipRaw(new TextDecoder().decode(bytes.subarray(0, 4000))) },
      },
    };
  }
  return { record: { row: index, key: name, data: parsed.value } };
}
