/**
 * One bounded rendering for any input echoed back in a message (error, warning, report).
 * Input is untrusted and may be hundreds of megabytes long: a message never carries more than
 * `max` characters of it, followed by "… (N more)" so the reader knows it was cut.
 * Control characters are shown escaped so a message stays on one line.
 *
 * Cost: O(max), whatever the input's length — only the first `max` characters are read, and N is
 * the rest's `length` (no scan, no copy of the rest). Characters are UTF-16 units, as `length`
 * and every "is N characters long" message count them; the cut never splits a surrogate pair
 * (it moves one unit earlier instead), so the quote is always well-formed text.
 */
export const QUOTE_MAX = 200;

// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const CONTROL = /[\u0000-\u001f\u007f]/g;

export function clipInput(text: string, max = QUOTE_MAX): string {
  const limit = Math.max(0, Math.floor(max));
  if (text.length <= limit) return escapeControl(text);
  let cut = limit;
  // A high surrogate just before the cut with its low half just after: keep the pair whole by
  // leaving both out.
  if (cut > 0 && isHigh(text.charCodeAt(cut - 1)) && isLow(text.charCodeAt(cut))) cut -= 1;
  return `${escapeControl(text.slice(0, cut))}… (${(text.length - cut).toLocaleString('en-US')} more)`;
}

/** `clipInput` wrapped in single quotes: the form used inside sentences. */
export function quote(text: string, max = QUOTE_MAX): string {
  return `'${clipInput(text, max)}'`;
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

function escapeControl(text: string): string {
  return text.replace(CONTROL, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
