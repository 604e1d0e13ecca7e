/**
 * JSON as small instruct models write it: single-quoted strings, trailing commas, Python's
 * True/False/None, unquoted keys, raw line breaks inside strings, several values in one reply, a
 * reply cut off mid-value. `jsonValues` finds every {...} / [...] value in a reply (prose and code
 * fences around them are skipped) and repairs those shapes on the way.
 *
 * Constraints (the memory must never receive a half-read value):
 * - a repair only changes syntax, never content: quotes, commas, literals, key quoting;
 * - a value cut off before its end is never parsed itself; only its complete objects that are
 *   elements of a list (`salvaged`) are returned, so a truncated operation is dropped, not guessed;
 * - a single quote ends a single-quoted string only before `, : } ]` or the end, so an apostrophe
 *   inside the text ("doesn't") stays text.
 */

export interface ScannedValues {
  /** Complete values, in reply order. */
  values: unknown[];
  /** Complete objects that are list elements inside a value the reply cut off. */
  salvaged: unknown[];
  /** Some value was cut off (no closing bracket). */
  truncated: boolean;
}

interface Scan {
  /** Index just past the value; -1 when the text ended first or a bracket did not match. */
  end: number;
  /** Where scanning stopped (past the value, the mismatched bracket, or the end of the text). */
  stop: number;
  repaired: string;
  /** Repaired text of the complete objects that are list elements, not inside another complete object. */
  listObjects: string[];
}

// Maps, not objects: the keys come from the reply.
const LITERALS = new Map([
  ['True', 'true'],
  ['False', 'false'],
  ['None', 'null'],
  ['true', 'true'],
  ['false', 'false'],
  ['null', 'null'],
]);

/** Scans one value starting at `start` (a `{` or `[`), repairing syntax as it goes. */
function scanValue(text: string, start: number): Scan {
  let out = '';
  // Open containers: their closing bracket, where they start in `out`, and their parent's kind.
  const stack: { close: string; at: number; parent: string | null }[] = [];
  let closed: { at: number; text: string; inList: boolean }[] = [];
  const objects = () => closed.filter((x) => x.inList).map((x) => x.text);
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const s = readString(text, i, c);
      if (s.end < 0) break;
      out += s.json;
      i = s.end;
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push({ close: c === '{' ? '}' : ']', at: out.length, parent: stack.at(-1)?.close ?? null });
      out += c;
      i++;
      continue;
    }
    if (c === '}' || c === ']') {
      const top = stack.pop();
      if (!top || top.close !== c) return { end: -1, stop: i + 1, repaired: out, listObjects: objects() };
      out = out.replace(/,\s*$/, '') + c; // trailing comma before the bracket
      i++;
      if (stack.length === 0) return { end: i, stop: i, repaired: out, listObjects: objects() };
      if (c === '}') {
        // Objects inside this one are parts of it, not elements to salvage on their own.
        closed = closed.filter((x) => x.at < top.at);
        closed.push({ at: top.at, text: out.slice(top.at), inList: top.parent === ']' });
      }
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const word = /^[A-Za-z_$][\w$-]*/.exec(text.slice(i, i + 64))![0];
      const isKey = /^\s*:/.test(text.slice(i + word.length, i + word.length + 40));
      if (LITERALS.has(word) && !isKey) out += LITERALS.get(word)!;
      else if (isKey)
        out += JSON.stringify(word); // unquoted key
      else out += word; // left as is: JSON.parse will refuse it
      i += word.length;
      continue;
    }
    out += c;
    i++;
  }
  return { end: -1, stop: text.length, repaired: out, listObjects: objects() };
}

const ESCAPES = new Map([
  ['n', '\n'],
  ['t', '\t'],
  ['r', '\r'],
  ['b', '\b'],
  ['f', '\f'],
]);

/** A string literal opened by `quote` at `start`, re-encoded as a JSON string. `end` -1: unterminated. */
function readString(text: string, start: number, quote: string): { json: string; end: number } {
  let raw = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const n = text[i + 1]!;
      const hex = n === 'u' ? /^[0-9a-fA-F]{4}/.exec(text.slice(i + 2, i + 6))?.[0] : undefined;
      // Unknown escapes (\d, \') keep their character, as lenient readers do.
      raw += hex ? String.fromCharCode(parseInt(hex, 16)) : (ESCAPES.get(n) ?? n);
      i += hex ? 5 : 1;
      continue;
    }
    if (c === quote && (quote === '"' || /^\s*([,:}\]]|$)/.test(text.slice(i + 1, i + 40)))) return { json: JSON.stringify(raw), end: i + 1 };
    raw += c;
  }
  return { json: '', end: -1 };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** At most this many values are looked at in one reply (a reply is a few thousand characters). */
const MAX_VALUES = 64;

/** Every JSON value of a reply, repaired; see the module comment. */
export function jsonValues(text: string): ScannedValues {
  const result: ScannedValues = { values: [], salvaged: [], truncated: false };
  const whole = tryParse(text.trim());
  if (whole.ok && whole.value !== null && typeof whole.value === 'object') {
    result.values.push(whole.value);
    return result;
  }
  const salvage = (objects: readonly string[]) => {
    for (const t of objects) {
      const p = tryParse(t);
      if (p.ok) result.salvaged.push(p.value);
    }
  };
  let i = text.search(/[{[]/);
  for (let n = 0; i >= 0 && n < MAX_VALUES; n++) {
    const scan = scanValue(text, i);
    if (scan.end >= 0) {
      const p = tryParse(scan.repaired);
      if (p.ok) result.values.push(p.value);
      else salvage(scan.listObjects);
    } else {
      if (scan.stop >= text.length) result.truncated = true;
      salvage(scan.listObjects);
    }
    // Never look inside a value that could not be read: its inner objects are parts, not values.
    const next = text.slice(scan.stop).search(/[{[]/);
    i = next < 0 ? -1 : scan.stop + next;
  }
  return result;
}
