/**
 * Recognises files that are not UTF-8 text before any reader sees them: compressed archives,
 * UTF-16 and UTF-32 text (with or without a byte-order mark) and binary files renamed `.csv`.
 * Without this, such files reach the CSV reader and fail with a misleading "no column" message.
 *
 * `sniffEncoding` is shared: the data importer (open-import.ts) and the memory-file loader call
 * it. It takes the first bytes of the file (exact) or, when only decoded text is at hand, the first
 * characters as a UTF-8 decoder made them: bytes that are not UTF-8 are then U+FFFD (any standard
 * decoder) or U+DC80–U+DCFF (utf8-decode.ts), and every ASCII byte, NUL included, is one character,
 * so the signatures below can still be matched.
 */
import { ParseError } from '../errors';

export type SniffedKind = 'gzip' | 'zip' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be' | 'binary';

export interface Sniffed {
  kind: SniffedKind;
  /** The sentence to show: what the file is and what to do. */
  message: string;
}

/** Bytes looked at (enough for a signature and for the share of NUL bytes). */
const SAMPLE = 4096;
/** A byte we know is ≥ 0x80 but not which (U+FFFD in decoded text). */
const UNKNOWN_HIGH = -1;
/** A decoded character that is valid non-ASCII text (several bytes, none of them 0). */
const TEXT = 0x100;

/** The head as byte values (see the module comment for decoded text). */
function bytesOf(head: string | Uint8Array): number[] {
  if (typeof head !== 'string') return Array.from(head.subarray(0, SAMPLE));
  const out: number[] = [];
  for (let i = 0; i < head.length && out.length < SAMPLE; i++) {
    const c = head.charCodeAt(i);
    if (c < 0x80) out.push(c);
    else if (c >= 0xdc80 && c <= 0xdcff) out.push(c - 0xdc00);
    else if (c === 0xfffd) out.push(UNKNOWN_HIGH);
    else out.push(TEXT);
  }
  return out;
}

/** `b` is the byte `want`, or an unknown high byte that may be it. */
function is(b: number | undefined, want: number): boolean {
  return b === want || (want >= 0x80 && b === UNKNOWN_HIGH);
}

const SAVE_AS_UTF8 = 'Save it as UTF-8 (Excel: "CSV UTF-8"; other editors: Save As → Encoding UTF-8) and import it again.';

function utf16(kind: 'utf-16le' | 'utf-16be'): Sniffed {
  return { kind, message: `The file is UTF-16 encoded (every other byte is 0), but imports must be UTF-8. ${SAVE_AS_UTF8}` };
}

function utf32(kind: 'utf-32le' | 'utf-32be', bom: boolean): Sniffed {
  const name = kind === 'utf-32le' ? 'UTF-32LE' : 'UTF-32BE';
  const why = bom ? `it starts with the byte-order mark ${kind === 'utf-32le' ? 'FF FE 00 00' : '00 00 FE FF'}` : 'three of every four bytes are 0';
  return { kind, message: `The file is UTF-32 encoded (${name}: ${why}), but imports must be UTF-8. ${SAVE_AS_UTF8}` };
}

/** Share of NUL bytes at each position modulo 4 (ASCII in UTF-16/32 leaves its zero bytes in fixed places). */
function nulPattern(b: number[]): number[] {
  const nul = [0, 0, 0, 0];
  const all = [0, 0, 0, 0];
  for (let i = 0; i < b.length; i++) {
    all[i % 4]! += 1;
    if (b[i] === 0) nul[i % 4]! += 1;
  }
  return nul.map((n, r) => (all[r] ? n / all[r]! : 0));
}

/** Line and column (1-based) of byte `index`. */
function position(b: number[], index: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index; i++) {
    if (b[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return `line ${line}, column ${index - lineStart + 1}`;
}

/**
 * What the file is when its head shows it is not UTF-8 text; null for UTF-8 (or ASCII) text.
 * `head`: the file's first bytes, or its first decoded characters (BOM of UTF-8 removed or not).
 */
export function sniffEncoding(head: string | Uint8Array): Sniffed | null {
  const b = bytesOf(head);
  if (b[0] === 0x1f && is(b[1], 0x8b)) {
    return {
      kind: 'gzip',
      message:
        'The file is gzip-compressed (it starts with the gzip signature 1F 8B), not CSV/JSON text. Decompress it first (for example `gunzip FILE`) ' +
        'and import the extracted file.',
    };
  }
  if (b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) {
    return {
      kind: 'zip',
      message: 'The file is a ZIP archive (it starts with the signature "PK"), not CSV/JSON text. Extract it first and import the file inside.',
    };
  }
  // Byte-order marks; UTF-32LE's (FF FE 00 00) starts like UTF-16LE's (FF FE), so it is tested first.
  if (is(b[0], 0xff) && is(b[1], 0xfe) && b[2] === 0 && b[3] === 0) return utf32('utf-32le', true);
  if (b[0] === 0 && b[1] === 0 && is(b[2], 0xfe) && is(b[3], 0xff)) return utf32('utf-32be', true);
  const firstNul = b.indexOf(0);
  if (is(b[0], 0xff) && is(b[1], 0xfe) && b[0] !== UNKNOWN_HIGH) return utf16('utf-16le');
  if (is(b[0], 0xfe) && is(b[1], 0xff) && b[0] !== UNKNOWN_HIGH) return utf16('utf-16be');
  if (b[0] === UNKNOWN_HIGH && b[1] === UNKNOWN_HIGH && firstNul !== -1) {
    // Decoded text hides which mark it was; ASCII after it shows the byte order (zero byte second: LE).
    return utf16(b[3] === 0 ? 'utf-16le' : 'utf-16be');
  }
  if (firstNul === -1) return null;
  const z = nulPattern(b);
  const [z0, z1, z2, z3] = z as [number, number, number, number];
  if (z1 > 0.9 && z2 > 0.9 && z3 > 0.9 && z0 < 0.5) return utf32('utf-32le', false);
  if (z0 > 0.9 && z1 > 0.9 && z2 > 0.9 && z3 < 0.5) return utf32('utf-32be', false);
  const share = z.reduce((a, x) => a + x, 0) / 4;
  if (share > 0.3) return utf16(z1 + z3 > z0 + z2 ? 'utf-16le' : 'utf-16be');
  return {
    kind: 'binary',
    message:
      `The file is binary, not text: it contains a NUL byte at ${position(b, firstNul)}. CSV, JSON and JSONL files are plain text; check ` +
      `that you picked the right file (an image, spreadsheet or database file cannot be imported as it is).`,
  };
}

/** Throws a ParseError naming what the file really is when its head shows it is not UTF-8 text. */
export function assertTextFile(head: string | Uint8Array, fileName: string): void {
  const sniffed = sniffEncoding(head);
  if (sniffed) throw new ParseError(sniffed.message, fileName, 0);
}
