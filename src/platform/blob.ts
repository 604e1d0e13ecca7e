/**
 * Streams a Blob/File as text chunks without ever holding the whole file in one string.
 * Invalid UTF-8 becomes U+FFFD (the decoder is not fatal), so one bad byte never aborts an import.
 */
export function blobText(blob: Blob): AsyncGenerator<string> {
  return chunksOf(blob.stream().pipeThrough(new TextDecoderStream('utf-8')));
}

/** The chunks a stream yields, its reader released however the consumer stops. */
async function* chunksOf<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A Blob/File's bytes in chunks, for the import: the core decodes them (core/import/utf8-decode.ts),
 * so invalid UTF-8 is told apart from a U+FFFD the file really contains.
 */
export function blobBytes(blob: Blob): AsyncGenerator<Uint8Array> {
  return chunksOf(blob.stream());
}

/** The first `bytes` of a blob as text, for format and preset detection. */
export async function blobHead(blob: Blob, bytes = 64 * 1024): Promise<string> {
  return new TextDecoder('utf-8').decode(await blob.slice(0, bytes).arrayBuffer());
}
