/**
 * One bounded rendering for any input echoed back in a message (error, warning, report).
 * Input is untrusted and may be megabytes long: a message never carries more than `max`
 * characters of it, followed by "… (N more)" so the reader knows it was cut.
 * Control characters are shown escaped so a message stays on one line.
 */
export const QUOTE_MAX = 200;

export function clipInput(text: string, max = QUOTE_MAX): string {
  // Cut on code points, not UTF-16 units, so a surrogate pair is never split.
  let shown = '';
  let count = 0;
  let cutAt = -1;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    if (count === max) {
      cutAt = i;
      break;
    }
    shown += escapeControl(ch);
    count += 1;
    i += ch.length;
  }
  if (cutAt < 0) return shown;
  const rest = [...text.slice(cutAt)].length;
  return `${shown}… (${rest.toLocaleString('en-US')} more)`;
}

/** `clipInput` wrapped in single quotes: the form used inside sentences. */
export function quote(text: string, max = QUOTE_MAX): string {
  return `'${clipInput(text, max)}'`;
}

function escapeControl(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  const code = ch.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `\\u${code.toString(16).padStart(4, '0')}`;
  return ch;
}
