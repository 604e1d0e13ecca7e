/**
 * Wraps the caller's `AsyncIterable<string>` (fs stream in the CLI, File.stream() + TextDecoder in
 * the worker, arrays in tests). It strips a leading UTF-8 BOM, counts UTF-8 bytes for progress,
 * honours cancellation between chunks and lets detection peek at the head without losing it.
 */
import { CancelledError } from '../errors';

const BOM = '\uFEFF';

/** UTF-8 length of a string without allocating (progress is reported in bytes, input is text). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError('Import cancelled');
}

export class TextSource {
  bytesRead = 0;
  private readonly iterator: AsyncIterator<string>;
  private readonly buffered: string[] = [];
  private bufferedLength = 0;
  private done = false;
  private sawText = false;

  constructor(
    input: AsyncIterable<string>,
    private readonly signal?: AbortSignal,
    private readonly onChunk?: (bytesRead: number) => void,
  ) {
    this.iterator = input[Symbol.asyncIterator]();
  }

  /** Next chunk from the underlying input (BOM removed), or null at the end. */
  private async pull(): Promise<string | null> {
    if (this.done) return null;
    throwIfAborted(this.signal);
    const next = await this.iterator.next();
    if (next.done) {
      this.done = true;
      return null;
    }
    let chunk = String(next.value);
    this.bytesRead += utf8Length(chunk);
    if (!this.sawText && chunk.length > 0) {
      this.sawText = true;
      if (chunk.startsWith(BOM)) chunk = chunk.slice(1);
    }
    this.onChunk?.(this.bytesRead);
    return chunk;
  }

  /** Reads ahead until at least `minChars` are buffered (or the input ends); returns the buffered head. */
  async peek(minChars: number): Promise<string> {
    while (this.bufferedLength < minChars) {
      const chunk = await this.pull();
      if (chunk === null) break;
      if (chunk.length === 0) continue;
      this.buffered.push(chunk);
      this.bufferedLength += chunk.length;
    }
    return this.buffered.join('');
  }

  /** Every chunk: the peeked head first, then the rest of the input. */
  async *chunks(): AsyncGenerator<string> {
    try {
      while (this.buffered.length > 0) {
        const chunk = this.buffered.shift() as string;
        this.bufferedLength -= chunk.length;
        yield chunk;
      }
      for (;;) {
        const chunk = await this.pull();
        if (chunk === null) return;
        if (chunk.length > 0) yield chunk;
      }
    } finally {
      // Stopping early (preview, errors) must release the underlying stream.
      if (!this.done) {
        this.done = true;
        await this.iterator.return?.();
      }
    }
  }

  /** Closes the input without reading the rest. */
  async close(): Promise<void> {
    if (!this.done) {
      this.done = true;
      await this.iterator.return?.();
    }
  }
}
