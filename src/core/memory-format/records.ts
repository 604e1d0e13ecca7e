/**
 * Records keyed by data (tool ids, entry ids) without prototype surprises. A tool or entry may be
 * called `__proto__`, `constructor` or `toString`: on a plain object, `obj[id] = v` with id
 * `__proto__` replaces the prototype instead of adding a key (the value is lost), and `obj[id]`
 * for `constructor` finds Object's own function. Hence:
 *  - lookups go through a `Map` built from the record's own entries (`recordMap`);
 *  - records are written with `ownRecord` / `setOwn` (define an own property, never the setter);
 *  - zod skips a record key `__proto__` entirely (no validation, not in the output), so
 *    `restoreProtoKeys` validates and puts back the ones the JSON text had.
 */
import { z } from 'zod';
import { calibrationSchema } from './schema';

/** The record's own enumerable entries as a Map (safe for any key). */
export function recordMap<T>(rec: Readonly<Record<string, T>>): Map<string, T> {
  return new Map(Object.entries(rec));
}

/** A record with exactly these own keys, in this order (`Object.fromEntries` defines properties). */
export function ownRecord<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  return Object.fromEntries(entries) as Record<string, T>;
}

/** `rec[key] = value` as an own data property, also for `__proto__`. */
export function setOwn<T>(rec: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(rec, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Where the format has data-keyed records, and what their values must be. */
const RECORDS: readonly { path: readonly string[]; value: z.ZodType }[] = [
  { path: ['build', 'calibration'], value: calibrationSchema },
  { path: ['build', 'settings'], value: z.unknown() },
  { path: ['build', 'metrics'], value: z.unknown() },
  { path: ['embeddings', 'vectors'], value: z.array(z.number()) },
];

const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function at(root: unknown, path: readonly string[]): unknown {
  let v = root;
  for (const k of path) v = isPlain(v) && Object.hasOwn(v, k) ? v[k] : undefined;
  return v;
}

/**
 * After zod accepted `raw` as `parsed`: every record key `__proto__` of `raw` is validated with
 * `check` (which returns its problems, paths included, none when valid) and, when valid, put back into `parsed` at
 * its original position. Returns the problems; `parsed` is changed in place.
 */
export function restoreProtoKeys(
  raw: unknown,
  parsed: unknown,
  check: (schema: z.ZodType, value: unknown, path: readonly PropertyKey[]) => { path: string; message: string }[],
) {
  const issues: { path: string; message: string }[] = [];
  for (const { path, value } of RECORDS) {
    const rawRec = at(raw, path);
    if (!isPlain(rawRec) || !Object.hasOwn(rawRec, '__proto__')) continue;
    const problems = check(value, rawRec.__proto__, [...path, '__proto__']);
    if (problems.length) {
      issues.push(...problems);
      continue;
    }
    const parent = at(parsed, path.slice(0, -1));
    const parsedRec = at(parsed, path);
    if (!isPlain(parent) || !isPlain(parsedRec)) continue;
    const key = path[path.length - 1]!;
    parent[key] = ownRecord(Object.keys(rawRec).map((k) => [k, k === '__proto__' ? structuredClone(rawRec.__proto__) : parsedRec[k]] as const));
  }
  return issues;
}
