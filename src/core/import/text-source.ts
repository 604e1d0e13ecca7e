/**
 * Wraps the caller's input (fs stream in the CLI, File.stream() in the worker, arrays in tests).
 * Byte chunks are decoded here (utf8-decode.ts: invalid bytes stay recognisable, a literal U+FFFD
 * is text); string chunks are taken as already-decoded text. It strips a leading UTF-8 BOM, counts
 * bytes for progress, keeps the first bytes for the encoding sniff (sniff.ts), honours
 * cancellation between chunks and lets detection peek at the head without losing it.
 */
import { CancelledError } from '../errors';
import { Utf8Decoder } from './utf8-decode';

/** What an import reads: raw bytes (preferred: exact UTF-8 checks) or decoded text. */
export type ImportInput = AsyncIterable<string | Uint8Array>;

/** Bytes kept from the start of a byte input for the encoding sniff. */
const HEAD_BYTES = 4096;

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
  /** First bytes of the file when the input is bytes (undefined for text input). */
  headBytes: Uint8Array | undefined;
  private readonly iterator: AsyncIterator<string | Uint8Array>;
  private readonly decoder = new Utf8Decoder();
  private decoderEnded = false;
  private readonly buffered: string[] = [];
  private bufferedLength = 0;
  private done = false;
  private sawText = false;

  constructor(
    input: ImportInput,
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
      // The decoder may hold the bytes of an unfinished sequence: they are invalid at the end.
      if (this.decoderEnded) return null;
      this.decoderEnded = true;
      const rest = this.decoder.end();
      return rest.length > 0 ? rest : null;
    }
    let chunk: string;
    if (typeof next.value === 'string') {
      chunk = next.value;
      this.bytesRead += utf8Length(chunk);
    } else {
      const bytes = next.value;
      if (!this.headBytes) this.headBytes = bytes.slice(0, HEAD_BYTES);
      else if (this.headBytes.length < HEAD_BYTES) {
        const more = new Uint8Array(Math.min(HEAD_BYTES, this.headBytes.length + bytes.length));
        more.set(this.headBytes);
        more.set(bytes.subarray(0, more.length - this.headBytes.length), this.headBytes.length);
        this.headBytes = more;
      }
      this.bytesRead += bytes.length;
      chunk = this.decoder.push(bytes);
    }
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
