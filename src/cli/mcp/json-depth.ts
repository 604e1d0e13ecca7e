/**
 * The nesting bound of JSON that `toolmem mcp` and `toolmem serve` accept. JSON.parse reads any
 * depth, but what comes after it — schema checks, JSON.stringify of a forwarded body, any
 * recursive walk — overflows the stack on 100,000 nested arrays ("Maximum call stack size
 * exceeded", answered 500 where it must be 400). So a text is refused before it is parsed.
 */

/** Deepest nesting of arrays and objects accepted (a chat request or a JSON-RPC call needs under 20). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a JSON text nests arrays/objects deeper than `max`, read from its characters (brackets
 * inside strings do not count) without parsing: O(length), no recursion, no allocation.
 */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
