/**
 * Streaming UTF-8 → string that keeps invalid bytes recognisable.
 *
 * Why not a plain TextDecoder: it turns every invalid byte into U+FFFD, and so does nothing to tell
 * a bad byte from a U+FFFD the file really contains (valid UTF-8 EF BF BD). Rows were rejected for
 * a literal U+FFFD. Here valid text is decoded by a fatal TextDecoder (native speed), and only a
 * chunk that fails takes the slow path, where each invalid byte B becomes the lone surrogate
 * U+DC00+B (0x80 ≤ B ≤ 0xFF: U+DC80–U+DCFF, Python's "surrogateescape"). Decoding valid UTF-8
 * never yields a lone surrogate, so validation can reject exactly the rows with bad bytes
 * (`hasInvalidUtf8`) and accept a literal U+FFFD.
 */

/** First character a bad byte decodes to (U+DC80 for byte 0x80 … U+DCFF for 0xFF). */
const ESCAPE_BASE = 0xdc00;

/** True when `text` holds a byte that was not valid UTF-8 (see the module comment). */
export function hasInvalidUtf8(text: string): boolean {
  return /[\uDC80-\uDCFF]/.test(text) && /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/.test(text);
}

/** Length of the valid UTF-8 sequence at `i`, 0 when the byte there starts no valid sequence, -1 when cut off by the end. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i] as number;
  if (b < 0x80) return 1;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) need = 1;
  else if (b >= 0xe0 && b <= 0xef) {
    need = 2;
    if (b === 0xe0) lo = 0xa0;
    if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3;
    if (b === 0xf0) lo = 0x90;
    if (b === 0xf4) hi = 0x8f;
  } else return 0;
  for (let k = 1; k <= need; k++) {
    if (i + k >= bytes.length) return -1;
    const c = bytes[i + k] as number;
    if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return 0;
  }
  return need + 1;
}

/** Bytes at the end of `bytes` that may be the start of a sequence completed by the next chunk. */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back] as number;
    if (b < 0x80) return 0;
    if (b >= 0xc0) return sequenceLength(bytes, bytes.length - back) === -1 ? back : 0;
  }
  return 0;
}

export class Utf8Decoder {
  /** Number of bytes that were not valid UTF-8 so far. */
  invalidBytes = 0;
  private carry: Uint8Array = new Uint8Array(0);
  private readonly fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly lenient = new TextDecoder('utf-8', { ignoreBOM: true });

  push(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.carry.length > 0) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.length);
    }
    const keep = incompleteTail(bytes);
    this.carry = keep > 0 ? bytes.slice(bytes.length - keep) : new Uint8Array(0);
    return this.decode(keep > 0 ? bytes.subarray(0, bytes.length - keep) : bytes);
  }

  /** What is left: an unfinished sequence at the end of the file is invalid. */
  end(): string {
    const rest = this.carry;
    this.carry = new Uint8Array(0);
    return rest.length > 0 ? this.decode(rest) : '';
  }

  private decode(bytes: Uint8Array): string {
    try {
      return this.fatal.decode(bytes);
    } catch {
      return this.slow(bytes);
    }
  }

  /** Valid runs decoded natively, each invalid byte escaped to U+DC80–U+DCFF. */
  private slow(bytes: Uint8Array): string {
    const parts: string[] = [];
    let runStart = 0;
    let i = 0;
    while (i < bytes.length) {
      const n = sequenceLength(bytes, i);
      if (n > 0) {
        i += n;
        continue;
      }
      if (i > runStart) parts.push(this.lenient.decode(bytes.subarray(runStart, i)));
      parts.push(String.fromCharCode(ESCAPE_BASE + (bytes[i] as number)));
      this.invalidBytes += 1;
      i += 1;
      runStart = i;
    }
    if (runStart < bytes.length) parts.push(this.lenient.decode(bytes.subarray(runStart)));
    return parts.join('');
  }
}
