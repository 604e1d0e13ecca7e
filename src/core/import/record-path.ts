/**
 * Paths into nested records (issue #18): `vars.question`, `response.output`,
 * `gradingResult.componentResults[0].score`. Used by the generic mapping (dialog and `--map`), the
 * validator (to see the value a field points at) and the presets for evaluation logs.
 *
 * Grammar (docs/data-model.md, "Paths in a mapping"):
 *
 *   path    = ( name | "[" json-string "]" ) step*
 *   step    = "." name | "[" digits "]" | "[" json-string "]"
 *   name    = one or more characters other than . [ ]
 *
 * `["a.b"]` names a key that itself holds `.` or brackets. A record key spelled exactly like the
 * whole path wins over the path (a CSV header `score.mean` stays a column), so every mapping that
 * worked before still means the same. Keys are read as own properties only (`__proto__`, `toString`
 * are data, never Object.prototype's members), and indices only step into arrays.
 */
import { own } from '../data-keys';
import { quote } from '../text/quote';

/** Longest path accepted (a mapping is typed or picked, never generated). */
export const MAX_PATH_CHARS = 1_000;
/** Most steps in a path: records nest at most 64 levels (json-value.ts). */
export const MAX_PATH_STEPS = 64;

export type PathStep = { key: string } | { index: number };

export class PathSyntaxError extends Error {
  override name = 'PathSyntaxError';
}

const fail = (path: string, why: string): never => {
  throw new PathSyntaxError(`Path ${quote(path)}: ${why}.`);
};

/** Parses a path into steps; throws PathSyntaxError naming the character that is wrong. */
export function parsePath(path: string): PathStep[] {
  if (path.length === 0) fail(path, 'it is empty');
  if (path.length > MAX_PATH_CHARS) fail(path, `it is ${path.length} characters long; the limit is ${MAX_PATH_CHARS}`);
  const steps: PathStep[] = [];
  let i = 0;
  const name = (): void => {
    const start = i;
    while (i < path.length && path[i] !== '.' && path[i] !== '[' && path[i] !== ']') i++;
    if (i === start) fail(path, `expected a key name at character ${start + 1}`);
    steps.push({ key: path.slice(start, i) });
  };
  // A path may start with a bracket step (`["a.b"].c`): the first key holds a dot or a bracket.
  if (path[0] !== '[') name();
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      i++;
      name();
    } else if (c === '[') {
      const close = bracketEnd(path, i);
      const inner = path.slice(i + 1, close);
      if (/^\d+$/.test(inner)) {
        const index = Number(inner);
        if (!Number.isSafeInteger(index)) fail(path, `index ${inner} is too large`);
        steps.push({ index });
      } else if (inner.startsWith('"')) {
        let key: unknown;
        try {
          key = JSON.parse(inner);
        } catch {
          fail(path, `the quoted key at character ${i + 2} is not a valid JSON string`);
        }
        steps.push({ key: key as string });
      } else {
        fail(path, `expected a whole number or a "quoted key" inside [ ] at character ${i + 2}, found ${quote(inner)}`);
      }
      i = close + 1;
    } else {
      fail(path, `unexpected ${quote(c ?? '')} at character ${i + 1}`);
    }
    if (steps.length > MAX_PATH_STEPS) fail(path, `it has more than ${MAX_PATH_STEPS} steps`);
  }
  return steps;
}

/** Index of the `]` closing the `[` at `open` (a quoted key may hold `]`). */
function bracketEnd(path: string, open: number): number {
  let i = open + 1;
  if (path[i] === '"') {
    for (i++; i < path.length; i++) {
      if (path[i] === '\\') i++;
      else if (path[i] === '"') break;
    }
    i++;
  }
  const close = path.indexOf(']', i);
  if (close === -1) fail(path, `the '[' at character ${open + 1} is never closed`);
  return close;
}

/** Writes steps back as a path (keys that need it are quoted), so pickers offer paths that parse. */
export function formatPath(steps: readonly PathStep[]): string {
  let out = '';
  for (const step of steps) {
    if ('index' in step) out += `[${step.index}]`;
    else if (out !== '' && /^[^.[\]"]+$/.test(step.key)) out += `.${step.key}`;
    else if (out === '' && /^[^.[\]"]+$/.test(step.key)) out = step.key;
    else out += `[${JSON.stringify(step.key)}]`;
  }
  return out;
}

function walk(value: unknown, steps: readonly PathStep[]): unknown {
  let current = value;
  for (const step of steps) {
    if ('index' in step) {
      if (!Array.isArray(current)) return undefined;
      current = current[step.index];
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
      current = own(current as Record<string, unknown>, step.key);
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/** Parsed paths, kept so the per-row hot path does not parse again; bounded (paths come from mappings). */
const cache = new Map<string, PathStep[] | PathSyntaxError>();
const CACHE_MAX = 512;

function compiled(path: string): PathStep[] | PathSyntaxError {
  let steps = cache.get(path);
  if (steps === undefined) {
    try {
      steps = parsePath(path);
    } catch (err) {
      if (!(err instanceof PathSyntaxError)) throw err;
      steps = err;
    }
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(path, steps);
  }
  return steps;
}

/**
 * The value at `path` in a record, or undefined when the record lacks it. An exact key wins; a
 * path that does not parse can only be an exact key, so it resolves to undefined otherwise.
 */
export function resolvePath(data: Record<string, unknown>, path: string): unknown {
  const exact = own(data, path);
  if (exact !== undefined) return exact;
  const steps = compiled(path);
  return steps instanceof PathSyntaxError ? undefined : walk(data, steps);
}

/** Throws the PathSyntaxError of a path that does not parse (for mappings checked up front). */
export function checkPath(path: string): void {
  const steps = compiled(path);
  if (steps instanceof PathSyntaxError) throw steps;
}

export interface PathInfo {
  path: string;
  /** Steps below the record (1 = a top-level key). */
  depth: number;
  kind: 'text' | 'number' | 'boolean' | 'null' | 'object' | 'array';
  /** The value in the first record that has it, clipped, for pickers. */
  example: string;
}

const kindOf = (v: unknown): PathInfo['kind'] =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'object'
        ? 'object'
        : typeof v === 'string'
          ? 'text'
          : typeof v === 'number'
            ? 'number'
            : 'boolean';

function exampleOf(v: unknown, max: number): string {
  const text = typeof v === 'string' ? v : v !== null && typeof v === 'object' ? (Array.isArray(v) ? `[${v.length} items]` : '{…}') : String(v);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface ListPathsOptions {
  /** Most paths listed (a record with 100,000 keys must not become a 100,000-option picker). */
  maxPaths?: number;
  /** Most steps followed down. */
  maxDepth?: number;
  /** Array elements looked into (first ones). */
  maxItems?: number;
  exampleChars?: number;
}

/**
 * Every path in the first records, as a tree in pre-order (parents before children, keys in record
 * order, paths first seen in a later record after those of earlier ones). Bounded by the options.
 */
export function listPaths(records: readonly unknown[], options: ListPathsOptions = {}): PathInfo[] {
  const { maxPaths = 400, maxDepth = 8, maxItems = 3, exampleChars = 60 } = options;
  const byPath = new Map<string, PathInfo>();
  const children = new Map<string, string[]>();
  const visit = (value: unknown, steps: PathStep[], parent: string): void => {
    if (byPath.size >= maxPaths) return;
    if (steps.length > 0) {
      const path = formatPath(steps);
      if (!byPath.has(path)) {
        byPath.set(path, { path, depth: steps.length, kind: kindOf(value), example: exampleOf(value, exampleChars) });
        const list = children.get(parent) ?? [];
        list.push(path);
        children.set(parent, list);
      }
    }
    if (steps.length >= maxDepth || value === null || typeof value !== 'object') return;
    const here = steps.length > 0 ? formatPath(steps) : '';
    if (Array.isArray(value)) {
      value.slice(0, maxItems).forEach((item, index) => visit(item, [...steps, { index }], here));
    } else {
      for (const [key, item] of Object.entries(value)) visit(item, [...steps, { key }], here);
    }
  };
  for (const record of records) visit(record, [], '');
  // Pre-order from the recorded parent → children lists.
  const out: PathInfo[] = [];
  const emit = (path: string): void => {
    const info = byPath.get(path);
    if (info) out.push(info);
    for (const child of children.get(path) ?? []) emit(child);
  };
  for (const top of children.get('') ?? []) emit(top);
  return out;
}
