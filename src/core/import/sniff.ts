/**
 * Recognises files that are not text at all before any reader sees them: compressed archives,
 * UTF-16 text and binary files renamed `.csv`. The input arrives already decoded as UTF-8 (bytes that
 * are not UTF-8 became U+FFFD), so signatures are matched on what the decoder made of them.
 * Without this, such files reach the CSV reader and fail with a misleading "no column" message.
 */
import { ParseError } from '../errors';

const REPLACEMENT = '\uFFFD';

/** Line and column (1-based) of character `index` in `text`. */
function position(text: string, index: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return `line ${line}, column ${index - lineStart + 1}`;
}

/** Share of NUL characters in the first `n` characters (UTF-16 ASCII text is about one half). */
function nulShare(head: string, n = 4096): number {
  const sample = head.slice(0, n);
  if (sample.length === 0) return 0;
  let nul = 0;
  for (let i = 0; i < sample.length; i++) if (sample.charCodeAt(i) === 0) nul++;
  return nul / sample.length;
}

/**
 * Throws a ParseError naming what the file really is when its head shows it is not UTF-8 text.
 * `head` is the first decoded characters of the file (BOM already removed for UTF-8).
 */
export function assertTextFile(head: string, fileName: string): void {
  // gzip: 1F 8B (0x8B is not valid UTF-8 on its own, so it decodes as U+FFFD).
  if (head.charCodeAt(0) === 0x1f && head[1] === REPLACEMENT) {
    throw new ParseError(
      'The file is gzip-compressed (it starts with the gzip signature 1F 8B), not CSV/JSON text. Decompress it first (for example `gunzip FILE`) and import the extracted file.',
      fileName,
      0,
    );
  }
  if (head.startsWith('PK\u0003\u0004')) {
    throw new ParseError('The file is a ZIP archive (it starts with the signature "PK"), not CSV/JSON text. Extract it first and import the file inside.', fileName, 0);
  }
  const nul = head.indexOf('\u0000');
  if (nul === -1) return;
  // UTF-16 with a byte-order mark (FF FE or FE FF → two U+FFFD), or without one: every other byte is 0.
  if (head.startsWith(REPLACEMENT + REPLACEMENT) || nulShare(head) > 0.3) {
    throw new ParseError(
      'The file is UTF-16 encoded (every other byte is 0), but imports must be UTF-8. Save it as UTF-8 (Excel: "CSV UTF-8"; other editors: Save As → Encoding UTF-8) and import it again.',
      fileName,
      0,
    );
  }
  throw new ParseError(
    `The file is binary, not text: it contains a NUL byte at ${position(head, nul)}. CSV, JSON and JSONL files are plain text; check that you picked the right file (an image, spreadsheet or database file cannot be imported as it is).`,
    fileName,
    0,
  );
}
