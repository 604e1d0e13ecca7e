/**
 * Bounds on what an import keeps of its input beyond the stored rows: the `raw` record of each
 * rejected row (kept in the summary, posted from the worker, offered as the rejected-rows CSV) and
 * lists of input (column names) echoed in messages.
 *
 * Constraint: a rejected row may be a 20 MB line or a 100,000-column header; without bounds the
 * error list holds the whole file again, and messages run to megabytes. `quote()`/`clipInput()`
 * (src/core/text/quote.ts) bound single echoed values; this module bounds records and lists.
 */
import { dict } from '../data-keys';
import type { RowError } from '../types';
import { clipInput } from '../text/quote';

/** Characters of one raw value kept for the rejected-rows download (enough to find and fix the row). */
export const RAW_VALUE_MAX = 2_000;
/** Columns of one raw record kept; the rest are counted in `_more_columns`. */
export const RAW_KEYS_MAX = 100;
/** Longest reason a RowError may carry (every message stays under 2 KB). */
export const REASON_MAX = 2_000;

/** `text` cut to `max` code points with "… (N more)", control characters kept (the CSV quotes them). */
export function clipRaw(text: string, max = RAW_VALUE_MAX): string {
  if (text.length <= max) return text;
  let end = max;
  // Never split a surrogate pair.
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… (${(text.length - end).toLocaleString('en-US')} more characters)`;
}

function boundValue(value: unknown): unknown {
  if (typeof value === 'string') return clipRaw(value);
  if (value === null || typeof value !== 'object') return value;
  // Nested values (at most MAX_JSON_DEPTH deep: json-value.ts) are kept as bounded JSON text.
  try {
    return clipRaw(JSON.stringify(value) ?? '');
  } catch {
    return '(value not shown)';
  }
}

/** A copy of `raw` with at most RAW_KEYS_MAX columns, each value at most RAW_VALUE_MAX characters. */
export function boundRaw(raw: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  const out = dict<unknown>(); // column names are data: null prototype (core/data-keys)
  let kept = 0;
  let more = 0;
  for (const key of Object.keys(raw)) {
    if (kept >= RAW_KEYS_MAX) {
      more += 1;
      continue;
    }
    out[clipRaw(key, 200)] = boundValue(raw[key]);
    kept += 1;
  }
  if (more > 0) out._more_columns = `${more.toLocaleString('en-US')} more columns not kept`;
  return out;
}

/** The error with its column name, reason and raw record bounded (idempotent). */
export function boundRowError(error: RowError): RowError {
  const bounded: RowError = {
    ...error,
    column: clipInput(error.column, 200),
    reason: error.reason.length > REASON_MAX ? clipInput(error.reason, REASON_MAX - 40) : error.reason,
  };
  if (error.raw !== undefined) bounded.raw = boundRaw(error.raw);
  return bounded;
}

/**
 * Column names for a message: `a, b, c` while short; past `maxChars` the rest is counted
 * (`a, b, … (99,998 more columns)`). Each name is clipped on its own, so one huge name cannot fill it.
 */
export function clipList(items: readonly string[], maxChars = 300, noun = 'columns'): string {
  const shown: string[] = [];
  let length = 0;
  for (const item of items) {
    const text = clipInput(item, 60);
    if (shown.length > 0 && length + text.length + 2 > maxChars) break;
    shown.push(text);
    length += text.length + 2;
  }
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join(', ')}, … (${rest.toLocaleString('en-US')} more ${noun})` : shown.join(', ');
}
