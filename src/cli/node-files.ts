/** Node-only file access for the CLI: files become the `AsyncIterable<string>` the core expects. */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { ByteSource } from '../core/import/parquet-reader';

export class FileReadError extends Error {
  override name = 'FileReadError';
}

/** Size of a readable regular file; a FileReadError with a plain message otherwise. */
export async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new FileReadError(`cannot read ${path}: it is not a file`);
    return info.size;
  } catch (err) {
    if (err instanceof FileReadError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new FileReadError(`cannot read ${path}: ${why}`);
  }
}

/**
 * The file's bytes in chunks, for the import: the core decodes them itself, so invalid UTF-8 is
 * told apart from a U+FFFD the file really contains (core/import/utf8-decode.ts).
 */
export function byteChunks(path: string): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Uint8Array>;
}

/** UTF-8 text chunks (invalid bytes become U+FFFD; sidecars and the preset guess only). */
export function textChunks(path: string): AsyncIterable<string> {
  return createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 }) as AsyncIterable<string>;
}

/** The first `chars` characters of a file (for preset detection before the import). */
export async function headOf(path: string, chars = 64 * 1024): Promise<string> {
  let head = '';
  for await (const chunk of textChunks(path)) {
    head += chunk;
    if (head.length >= chars) break;
  }
  return head;
}

/**
 * Random access to a file (Parquet's footer is at its end): each read opens, reads and closes, so
 * no handle outlives the import, and only the ranges asked for are in memory.
 */
export function fileRange(path: string, size: number): ByteSource {
  return {
    size,
    async read(start, end) {
      const handle = await open(path, 'r');
      try {
        const bytes = new Uint8Array(Math.max(0, Math.min(end, size) - start));
        let done = 0;
        while (done < bytes.length) {
          const { bytesRead } = await handle.read(bytes, done, bytes.length - done, start + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return done === bytes.length ? bytes : bytes.subarray(0, done);
      } finally {
        await handle.close();
      }
    },
  };
}
