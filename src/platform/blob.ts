import type { ByteSource } from '../core/import/types';

/**
 * Streams a Blob/File as text chunks without ever holding the whole file in one string.
 * Invalid UTF-8 becomes U+FFFD (the decoder is not fatal), so one bad byte never aborts an import.
 */
export function blobText(blob: Blob): AsyncGenerator<string> {
  return chunksOf(blob.stream().pipeThrough(new TextDecoderStream('utf-8')));
}

/** The chunks a stream yields, its reader released however the consumer stops. */
function chunksOf<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  return replay([], stream.getReader(), false);
}

/**
 * A Blob/File's bytes in chunks, for the import: the core decodes them (core/import/utf8-decode.ts),
 * so invalid UTF-8 is told apart from a U+FFFD the file really contains.
 */
export function blobBytes(blob: Blob): AsyncGenerator<Uint8Array> {
  return chunksOf(blob.stream());
}

/** How much of a file the import looks at before reading it: format, preset and dataset-name detection. */
export const HEAD_BYTES = 64 * 1024;

/** One read of a file shared by the detection that precedes an import and the import itself (readOnce). */
export interface BlobRead {
  /** The first `headBytes` as text, decoded in one piece (a character cut at the end becomes U+FFFD). */
  head: string;
  /** The whole file's bytes: the chunks read for the head, then the rest of the same stream. Iterate once. */
  bytes: AsyncGenerator<Uint8Array>;
  /**
   * Random access to the same file. Reads inside the head are answered from the chunks already read
   * (the ZIP and Parquet signatures); others slice the file: Parquet's index and an `.eval` archive's
   * directory sit at the end, so those formats need random access besides the stream.
   */
  randomAccess: ByteSource;
}

/**
 * Opens the file's stream once and reads its first chunks (at least `headBytes`) for detection; the
 * import then continues the same stream, so a text file (CSV, JSONL, JSON) is read exactly once.
 */
export async function readOnce(blob: Blob, headBytes = HEAD_BYTES): Promise<BlobRead> {
  const reader = blob.stream().getReader();
  const kept: Uint8Array[] = [];
  let length = 0;
  let ended = false;
  while (length < headBytes) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    if (value) {
      kept.push(value);
      length += value.length;
    }
  }
  const start = new Uint8Array(length);
  let at = 0;
  for (const c of kept) {
    start.set(c, at);
    at += c.length;
  }
  return {
    head: new TextDecoder('utf-8').decode(start.subarray(0, headBytes)),
    bytes: replay(kept, reader, ended),
    randomAccess: {
      size: blob.size,
      // A copy: the caller may keep or change what it gets without touching the chunks the stream replays.
      read: async (from, to) => (to <= start.length ? start.slice(from, to) : new Uint8Array(await blob.slice(from, to).arrayBuffer())),
    },
  };
}

/** The chunks already read, then the rest of the stream (none when it `ended`); the reader is released however the consumer stops. */
async function* replay<T>(kept: T[], reader: ReadableStreamDefaultReader<T>, ended: boolean): AsyncGenerator<T> {
  try {
    while (kept.length > 0) yield kept.shift()!;
    if (ended) return;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
