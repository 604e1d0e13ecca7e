/**
 * Reading JSON out of a model reply. Models without constrained decoding often wrap the object in
 * a ```json fence or add a sentence before it; we accept the first JSON value found that way, and
 * failing that the first value read leniently (single quotes, trailing commas…; lenient-json.ts).
 * Anything else is a JsonReplyError (its message is shown to the model when it is asked again).
 */
import { LlmError } from './errors';
import { jsonValues } from './lenient-json';
import { quote } from '../text/quote';

export class JsonReplyError extends LlmError {
  override name = 'JsonReplyError';
}

/** Index just past the balanced {...} or [...] starting at `start`, or -1. Strings are respected. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}

export function parseJsonReply(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') throw new JsonReplyError('The reply was empty; expected a JSON object.');
  try {
    return JSON.parse(trimmed);
  } catch {
    // fall through: look for a fenced block or the first balanced object
  }
  const fence = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(trimmed);
  const candidates: string[] = [];
  if (fence) candidates.push(fence[1]!.trim());
  const first = trimmed.search(/[{[]/);
  if (first >= 0) {
    const end = balancedEnd(trimmed, first);
    if (end > 0) candidates.push(trimmed.slice(first, end));
  }
  for (const c of candidates) {
    try {
      return JSON.parse(c);
    } catch {
      // try the next candidate
    }
  }
  const lenient = jsonValues(trimmed).values[0];
  if (lenient !== undefined) return lenient;
  throw new JsonReplyError(`The reply is not valid JSON (starts with ${quote(trimmed, 80)}).`);
}
