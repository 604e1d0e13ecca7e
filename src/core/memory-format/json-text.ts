/**
 * Problems of the JSON text itself (before any value is checked): truncation, syntax errors with
 * their line and column, and the non-JSON number literals `NaN` / `Infinity` that some writers
 * produce (Python's `json.dump` does by default). Messages echo input only through `clipInput`.
 */
import { clipInput } from '../text/quote';

export interface TextIssue {
  path: '$';
  message: string;
}

export function lineColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/** Offset and spelling of the first `NaN` / `Infinity` / `-Infinity` outside strings, if any. */
function bareNonFinite(text: string): { at: number; literal: string } | null {
  const re = /"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)/gs;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1]) return { at: m.index, literal: m[1] };
  }
  return null;
}

/** The one issue describing why `JSON.parse(text)` threw `err`. */
export function jsonProblem(text: string, err: Error): TextIssue {
  const msg = err.message;
  const at = /position (\d+)/.exec(msg);
  if (/Unexpected token '[NI-]'/.test(msg)) {
    const bare = bareNonFinite(text);
    if (bare) {
      return {
        path: '$',
        message:
          `Invalid JSON (${lineColumn(text, bare.at)}): ${bare.literal} is not a JSON number (writers such as Python's json.dump emit it for ` +
          `a float that is not finite); every number in a memory file must be finite.`,
      };
    }
  }
  if (/end of JSON input|Unterminated string/i.test(msg) || (at && Number(at[1]) >= text.trimEnd().length)) {
    return {
      path: '$',
      message: `Truncated JSON: the file ends (character ${text.length}, ${lineColumn(text, text.length)}) before the top-level object is closed.`,
    };
  }
  const where = at ? ` (${lineColumn(text, Number(at[1]))})` : '';
  return { path: '$', message: `Invalid JSON${where}: ${clipInput(msg)}` };
}
