/**
 * Reading a memory file for `toolmem serve`, bounded: the file's size is checked from stat before
 * a byte is read (a file over `maxBytes` is refused without reading it), at most `maxBytes` + 1
 * bytes are ever read (a file that grows while it is read is refused too), only regular files are
 * opened (a FIFO or a device would block or never end), and the bytes are hashed and parsed with
 * the memory-format parser. Runs on the main thread for the first load (no client is waiting yet)
 * and in the parse worker (memory-worker.ts) for every reload, so a large or hostile file never
 * holds the thread that answers requests.
 */
import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { formatIssues, parseMemoryFile, type MemoryFile } from '../../core/memory-format';

/** Default of `--max-memory-bytes`: far above a real memory (a GenAI-Bench memory is ~0.5 MB). */
export const DEFAULT_MAX_MEMORY_BYTES = 64 * 1024 * 1024;

export class MemoryLoadError extends Error {
  override name = 'MemoryLoadError';
}

export interface ReadMemory {
  file: MemoryFile;
  /** SHA-256 of the bytes parsed (hex, first 16 characters): names the version in every answer. */
  sha: string;
  bytes: number;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB (${n.toLocaleString('en-US')} bytes)`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB (${n.toLocaleString('en-US')} bytes)`;
  return `${n} bytes`;
}

const tooLarge = (size: number, max: number) =>
  new MemoryLoadError(`the file is ${formatBytes(size)}, more than the limit of ${formatBytes(max)} (--max-memory-bytes); refused without reading it`);

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code ?? 'error';

/** What tells one version of a file from the next without reading it: inode, size and times. */
export const statIdentity = (info: Stats): string => `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;

/** The file's stat (also given to `seen`, refused or not); MemoryLoadError when it is not a regular file or is over `maxBytes`. */
export async function checkMemorySize(path: string, maxBytes: number, seen?: (info: Stats) => void): Promise<Stats> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    throw new MemoryLoadError(`cannot read the file (${errno(err)})`);
  }
  seen?.(info);
  if (!info.isFile()) throw new MemoryLoadError('not a regular file');
  if (info.size > maxBytes) throw tooLarge(info.size, maxBytes);
  return info;
}

/** At most `maxBytes` + 1 bytes of a regular file (non-blocking open: a FIFO never blocks the read). */
async function readBounded(path: string, maxBytes: number): Promise<Buffer> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new MemoryLoadError(`cannot read the file (${errno(err)})`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new MemoryLoadError('not a regular file');
    if (info.size > maxBytes) throw tooLarge(info.size, maxBytes);
    const buf = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(info.size + 1, 64 * 1024)));
    let length = 0;
    for (;;) {
      if (length === buf.length) break;
      const { bytesRead } = await handle.read(buf, length, buf.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes)
      throw new MemoryLoadError(`the file grew past the limit of ${formatBytes(maxBytes)} (--max-memory-bytes) while it was read; refused`);
    if (length === buf.length) throw new MemoryLoadError('the file grew while it was read; refused (write it next to the old one and rename it over)');
    return buf.subarray(0, length);
  } catch (err) {
    if (err instanceof MemoryLoadError) throw err;
    throw new MemoryLoadError(`cannot read the file (${errno(err)})`);
  } finally {
    await handle.close();
  }
}

/** Reads, hashes, parses and validates a memory file; MemoryLoadError for every refusal. */
export async function readMemoryFile(path: string, maxBytes: number): Promise<ReadMemory> {
  const bytes = await readBounded(path, maxBytes);
  const sha = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  let text: string;
  try {
    text = bytes.toString('utf8');
  } catch {
    throw new MemoryLoadError('the file is too large to decode as text');
  }
  const parsed = parseMemoryFile(text);
  if (!parsed.ok) throw new MemoryLoadError(formatIssues(parsed.issues));
  return { file: parsed.file, sha, bytes: bytes.length };
}
