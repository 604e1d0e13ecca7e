/**
 * One JSON record (a JSONL line or a top-level member of a JSON file) → a value, or a bounded reason.
 *
 * Constraints and reasons:
 * - Nesting is limited to MAX_JSON_DEPTH levels, checked on the text BEFORE JSON.parse, by an
 *   iterative scan. Every later walk over the value (JSON.stringify of a cell, the structured clone
 *   that carries a RowError across postMessage, the rejected-rows CSV) is recursive in the engine
 *   and dies with "Maximum call stack size exceeded" on deep values; no record deeper than the
 *   limit ever becomes a value.
 * - A key repeated in one object is a row error naming the key: JSON.parse silently keeps the last
 *   one, which would store a value the file's author may not have meant.
 * - Syntax errors are described by our own checker (`describeJsonError`), not by the engine's
 *   message: engines echo the input in their messages (unbounded) and do not say why (comments,
 *   trailing commas, single quotes, NaN …).
 */
import { clipInput, quote } from '../text/quote';

/** Deepest nesting of arrays/objects a record may have (the record object itself is level 1). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

interface Inspection {
  /** Deepest nesting seen (counted to the end when over the limit, so the message names it). */
  depth: number;
  duplicate?: { key: string; offset: number };
}

/** Index of the quote closing the string that opens at `open`, or -1 when it never closes. */
function stringEnd(text: string, open: number): number {
  let i = open + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q === -1) return -1;
    let slashes = 0;
    for (let j = q - 1; j > open && text.charCodeAt(j) === BACKSLASH; j--) slashes++;
    if (slashes % 2 === 0) return q;
    i = q + 1;
  }
}

/**
 * Depth and the first repeated key, in one pass that skips string contents with indexOf. It only
 * needs brackets, quotes and colons, so it terminates (and never recurses) on malformed text too.
 */
function inspect(text: string, maxDepth: number): Inspection {
  // One frame per open container: the keys seen so far when it is an object, null for an array.
  const frames: (Set<string> | null)[] = [];
  let depth = 0;
  let deepest = 0;
  let over = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) break;
      if (!over) {
        const frame = frames[frames.length - 1];
        // A string in an object directly followed by ':' is a key.
        let k = end + 1;
        while (k < text.length && text.charCodeAt(k) <= 0x20) k++;
        if (frame && text.charCodeAt(k) === 0x3a) {
          const token = text.slice(i, end + 1);
          let key = token.slice(1, -1);
          if (key.includes('\\')) {
            try {
              key = JSON.parse(token) as string;
            } catch {
              // A bad escape is reported by the syntax check.
            }
          }
          if (frame.has(key)) return { depth: deepest, duplicate: { key, offset: i } };
          frame.add(key);
        }
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (depth > maxDepth) over = true;
      // Past the limit only the depth is counted (no frames), so memory stays bounded.
      if (!over) frames.push(c === 0x7b ? new Set<string>() : null);
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth -= 1;
      if (!over) frames.pop();
    }
  }
  return { depth: deepest };
}

/** Line and column (1-based) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line += 1;
    start = nl + 1;
  }
  return { line, column: offset - start + 1 };
}

/** Where a record starts in its file (JSON members), so positions are the file's, not the member's. */
export interface Origin {
  line: number;
  column: number;
}

function at(text: string, offset: number, origin?: Origin): string {
  const { line, column } = lineColumn(text, offset);
  if (!origin) return `line ${line}, column ${column}`;
  return `line ${origin.line + line - 1}, column ${line === 1 ? origin.column + column - 1 : column}`;
}

/** "an array" / "an object" / "a string" … of the first value in `text` (valid JSON assumed). */
function kindOfStart(text: string): string {
  const c = text.trimStart()[0];
  if (c === '[') return 'an array';
  if (c === '{') return 'an object';
  return 'a value';
}

export type JsonRecordResult =
  | { value: Record<string, unknown>; found?: undefined; error?: undefined }
  /** `found`: the record is valid JSON (or too deep to parse) but not an object; what it is. */
  | { found: { kind: string; value?: unknown }; value?: undefined; error?: undefined }
  | { error: string; value?: undefined; found?: undefined };

/**
 * Parses one record's JSON text, which must be an object. The reason returned in `error` never
 * carries more than a bounded snippet of the input; callers prefix it with the place (`line 3: `).
 */
export function parseJsonRecord(text: string, origin?: Origin, maxDepth = MAX_JSON_DEPTH): JsonRecordResult {
  const seen = inspect(text, maxDepth);
  if (seen.depth > maxDepth) {
    // Not an object at all: that is the problem to report (it would be rejected even if shallow).
    if (kindOfStart(text) === 'an array') return { found: { kind: 'an array' } };
    return { error: `the record nests arrays and objects ${seen.depth.toLocaleString('en-US')} levels deep; the limit is ${maxDepth} levels` };
  }
  if (seen.duplicate) {
    return { error: `duplicate key ${quote(seen.duplicate.key)} in one object (${at(text, seen.duplicate.offset, origin)}); each key may appear only once` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { error: `invalid JSON: ${describeJsonError(text, origin)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { found: { kind: describeJsonType(value), value } };
  return { value: value as Record<string, unknown> };
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

// ---------------------------------------------------------------------------------------------
// Syntax errors: a small strict JSON checker that finds the first problem and says why. It runs
// only after JSON.parse failed, so its speed does not matter; it is iterative (explicit stack).

class JsonSyntax extends Error {
  constructor(
    readonly offset: number,
    readonly why: string,
  ) {
    super(why);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function charAt(text: string, i: number): string {
  return i < text.length ? quote(String.fromCodePoint(text.codePointAt(i) ?? 0)) : 'the end';
}

/** Why the value starting at `i` is not a JSON value (the common non-JSON spellings are named). */
function badValue(text: string, i: number): never {
  const rest = text.slice(i, i + 12);
  if (i >= text.length) throw new JsonSyntax(i, 'the text ends where a value should be');
  if (rest.startsWith('//') || rest.startsWith('/*'))
    throw new JsonSyntax(i, `comments are not allowed in JSON: remove the ${rest.slice(0, 2) === '//' ? '//' : '/* */'} comment`);
  if (rest.startsWith("'")) throw new JsonSyntax(i, 'strings must be in double quotes, not single quotes');
  if (/^[+-]?(NaN|Infinity)/.test(rest)) throw new JsonSyntax(i, `${/^[+-]?NaN/.test(rest) ? 'NaN' : 'Infinity'} is not a JSON number`);
  if (/^-?0[xXbBoO]/.test(rest)) throw new JsonSyntax(i, 'JSON numbers are decimal only (no hexadecimal, binary or octal)');
  if (/^[+]\d/.test(rest)) throw new JsonSyntax(i, "JSON numbers may not start with '+'");
  if (/^-?0\d/.test(rest)) throw new JsonSyntax(i, 'JSON numbers may not have leading zeros');
  if (/^-?\.\d/.test(rest)) throw new JsonSyntax(i, 'JSON numbers need a digit before the decimal point');
  if (/^(undefined|True|False|None|Null)\b/.test(rest))
    throw new JsonSyntax(i, `${clipInput(/^\w+/.exec(rest)?.[0] ?? '')} is not a JSON value (use true, false or null)`);
  throw new JsonSyntax(i, `unexpected ${charAt(text, i)} where a value should be`);
}

/** After `,` or the opening bracket: the usual mistakes between members. */
function expectedMember(text: string, i: number, closer: string, afterComma: boolean): never {
  const rest = text.slice(i, i + 2);
  if (rest === '//' || rest === '/*') throw new JsonSyntax(i, `comments are not allowed in JSON: remove the ${rest === '//' ? '//' : '/* */'} comment`);
  if (afterComma && text[i] === closer) throw new JsonSyntax(i, `trailing comma before '${closer}'`);
  if (text[i] === "'") throw new JsonSyntax(i, 'keys must be in double quotes, not single quotes');
  if (/[A-Za-z_$]/.test(text[i] ?? '')) throw new JsonSyntax(i, 'keys must be in double quotes');
  throw new JsonSyntax(i, `expected a key in double quotes but found ${charAt(text, i)}`);
}

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

function scanString(text: string, i: number): number {
  // text[i] is the opening quote.
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return j + 1;
    if (c < 0x20) throw new JsonSyntax(j, `a control character (U+${c.toString(16).toUpperCase().padStart(4, '0')}) inside a string must be escaped`);
    if (c === BACKSLASH) {
      const e = text[j + 1] ?? '';
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) throw new JsonSyntax(j, 'a \\u escape needs four hexadecimal digits');
        j += 5;
      } else if ('"\\/bfnrt'.includes(e) && e !== '') j += 1;
      else throw new JsonSyntax(j, `${quote(`\\${e}`)} is not a JSON escape`);
    }
  }
  throw new JsonSyntax(text.length, 'the text ends inside a string (a closing double quote is missing)');
}

function scanPrimitive(text: string, i: number): number {
  for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return i + word.length;
  NUMBER.lastIndex = i;
  const m = NUMBER.exec(text);
  if (m && m[0] !== '' && m[0] !== '-' && !/^-?0\d/.test(text.slice(i, i + 3)) && !/^-?0[xXbBoO]/.test(text.slice(i, i + 3))) {
    return i + m[0].length;
  }
  return badValue(text, i);
}

/** Throws JsonSyntax at the first problem of `text` as one JSON value. */
function check(text: string): void {
  const stack: ('{' | '[')[] = [];
  let i = skipWs(text, 0);
  // state: expecting a value (after ':' or '[' or ',' in an array, or at the start)
  let needValue = true;
  for (;;) {
    if (needValue) {
      const c = text[i];
      if (c === '{' || c === '[') {
        stack.push(c);
        i = skipWs(text, i + 1);
        const closer = c === '{' ? '}' : ']';
        if (text[i] === closer) {
          stack.pop();
          i += 1;
          needValue = false;
          continue;
        }
        if (c === '{') {
          if (text[i] !== '"') expectedMember(text, i, closer, false);
          i = skipWs(text, scanString(text, i));
          if (text[i] !== ':') throw new JsonSyntax(i, `expected ':' after the key but found ${charAt(text, i)}`);
          i = skipWs(text, i + 1);
        }
        continue;
      }
      if (c === '"') i = scanString(text, i);
      else i = scanPrimitive(text, i);
      needValue = false;
      continue;
    }
    i = skipWs(text, i);
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (i < text.length) {
        const rest = text.slice(i, i + 2);
        if (rest === '//' || rest === '/*') throw new JsonSyntax(i, `comments are not allowed in JSON: remove the ${rest === '//' ? '//' : '/* */'} comment`);
        throw new JsonSyntax(i, `unexpected ${charAt(text, i)} after the end of the value`);
      }
      return;
    }
    const closer = top === '{' ? '}' : ']';
    const c = text[i];
    if (c === closer) {
      stack.pop();
      i += 1;
      continue;
    }
    if (c === ',') {
      i = skipWs(text, i + 1);
      if (top === '{') {
        if (text[i] !== '"') expectedMember(text, i, closer, true);
        i = skipWs(text, scanString(text, i));
        if (text[i] !== ':') throw new JsonSyntax(i, `expected ':' after the key but found ${charAt(text, i)}`);
        i = skipWs(text, i + 1);
      } else if (text[i] === ']') throw new JsonSyntax(i, "trailing comma before ']'");
      else if (text.startsWith('//', i) || text.startsWith('/*', i))
        throw new JsonSyntax(i, `comments are not allowed in JSON: remove the ${text.startsWith('//', i) ? '//' : '/* */'} comment`);
      needValue = true;
      continue;
    }
    if (i >= text.length) throw new JsonSyntax(i, `the text ends before the ${top === '{' ? 'object' : 'array'} is closed (a '${closer}' is missing)`);
    const rest = text.slice(i, i + 2);
    if (rest === '//' || rest === '/*') throw new JsonSyntax(i, `comments are not allowed in JSON: remove the ${rest === '//' ? '//' : '/* */'} comment`);
    // Worded like V8's own message, which users of Chrome and Node already know.
    throw new JsonSyntax(i, `Expected ',' or '${closer}' after ${top === '{' ? 'property value' : 'array element'} but found ${charAt(text, i)}`);
  }
}

/** Why `text` is not JSON, with line and column; `text` is assumed to be invalid. */
export function describeJsonError(text: string, origin?: Origin): string {
  try {
    check(text);
  } catch (err) {
    if (err instanceof JsonSyntax) return `${err.why} (${at(text, err.offset, origin)})`;
    throw err;
  }
  // The checker accepted what the engine refused (should not happen); say so without echoing input.
  return 'the text is not valid JSON';
}
