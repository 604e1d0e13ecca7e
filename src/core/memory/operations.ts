/**
 * The operations a model may ask for in one memory update, and their validation, one operation at
 * a time: the valid ones are used, each invalid one is reported with its reason and changes
 * nothing. Tolerated (small instruct models write them): prose and code fences around the JSON,
 * lenient JSON (src/core/llm/lenient-json.ts), several JSON values, the complete operations of a
 * truncated reply, a bare list or a single operation object, names in any case and the aliases of
 * src/core/prompts/aliases.ts, ids written `e2`, `[E2]` or `2`, extra keys, a missing `op` when the
 * fields say which one it is (ids → merge, id + text → update, level + text → add; never retire).
 *
 * Still refused, per operation: unknown op or level, text empty or longer than MAX_ENTRY_CHARS or
 * not a string, an id not among the aliases shown, a pinned entry, an id an earlier valid operation
 * already uses, a merge of fewer than two distinct entries, operations beyond MAX_OPERATIONS.
 * A reply with no valid operation and at least one problem (or no JSON at all) is an error; its
 * message is given back to the model once (ask.ts).
 */
import { LlmError } from '../llm/errors';
import { jsonValues } from '../llm/lenient-json';
import { aliasKey, FIELD_ALIASES, LEVEL_ALIASES, LIST_ALIASES, OP_ALIASES, type OperationField } from '../prompts/aliases';
import { clip, MAX_ENTRY_CHARS } from '../prompts/shared';
import { quote } from '../text/quote';
import type { Level } from '../types';

export class OperationsError extends LlmError {
  override name = 'OperationsError';
}

/** More than this many changes from one example is a sign of a confused model: the rest are dropped. */
export const MAX_OPERATIONS = 8;

export type Operation =
  | { op: 'add'; level: Level; text: string }
  /** `duplicateOf`: an `add` turned into this update because it repeated an existing entry (dedup.ts). */
  | { op: 'update'; id: string; level?: Level; text: string; duplicateOf?: true }
  | { op: 'merge'; ids: string[]; level: Level; text: string }
  | { op: 'retire'; id: string; reason: string };

export interface OperationRules {
  /** Aliases of the entries shown to the model (E1, E2, … — see induce.ts). */
  aliases: ReadonlySet<string>;
  /** Aliases of pinned entries (shown, but not to be changed). */
  pinned?: ReadonlySet<string>;
}

/** An operation of the reply that was not used, and why (`index`: its place in the reply, from 0). */
export interface RejectedOperation {
  index: number;
  reason: string;
}

export type ParsedOperations =
  /** `positions[i]`: where operations[i] stood in the reply (for reports). */
  { ok: true; operations: Operation[]; positions: number[]; rejected: RejectedOperation[] } | { ok: false; error: string; rejected: RejectedOperation[] };

type Fields = Map<OperationField, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The object's keys mapped to operation fields (first key wins when two aliases say the same). */
function fieldsOf(item: Record<string, unknown>): Fields {
  const fields: Fields = new Map();
  for (const [key, value] of Object.entries(item)) {
    const f = FIELD_ALIASES.get(aliasKey(key));
    if (f && !fields.has(f)) fields.set(f, value);
  }
  return fields;
}

function looksLikeOperation(v: unknown): boolean {
  if (!isObject(v)) return false;
  const f = fieldsOf(v);
  return f.has('op') || (f.has('text') && (f.has('level') || f.has('id') || f.has('ids')));
}

/** The operations held by one JSON value of the reply, or null when it holds none. */
function listOf(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return null;
  for (const [key, v] of Object.entries(value)) {
    if (!LIST_ALIASES.has(aliasKey(key))) continue;
    if (Array.isArray(v)) return v;
    if (isObject(v)) return [v];
  }
  return looksLikeOperation(value) ? [value] : null;
}

/** Every operation the reply holds, in order, or why none could be found. */
export function operationItems(text: string): { ok: true; items: unknown[] } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: false, error: 'The reply was empty; expected a JSON object.' };
  const scanned = jsonValues(text);
  const items: unknown[] = [];
  let found = false;
  for (const v of scanned.values) {
    const list = listOf(v);
    if (list) {
      found = true;
      items.push(...list);
    }
  }
  for (const v of scanned.salvaged) {
    if (looksLikeOperation(v)) {
      found = true;
      items.push(v);
    }
  }
  if (found) return { ok: true, items };
  if (scanned.truncated) return { ok: false, error: `The reply was cut off before any complete operation (it starts with ${quote(text.trim(), 80)}).` };
  if (scanned.values.length > 0) return { ok: false, error: 'The reply has no "operations" list.' };
  return { ok: false, error: `The reply is not valid JSON (starts with ${quote(text.trim(), 80)}).` };
}

/** `e2`, `[E2]`, ` E2 `, 2 and "2" all name alias E2 (induce.ts shows entries as E1…En). */
export function readAlias(v: unknown): string | null {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return `E${v}`;
  if (typeof v !== 'string') return null;
  const t = v.trim().replace(/^\[\s*(.*?)\s*\]$/, '$1');
  const m = /^e?0*(\d+)$/i.exec(t);
  return m ? `E${m[1]}` : t;
}

function readLevel(v: unknown): Level | { error: string } {
  const level = typeof v === 'string' ? LEVEL_ALIASES.get(aliasKey(v)) : undefined;
  return level ?? { error: `unknown level ${typeof v === 'string' ? quote(v, 40) : String(v)} (use proficient, good, bad or weak)` };
}

function readText(v: unknown): string | { error: string } {
  if (v === undefined || v === null) return { error: 'text is missing' };
  if (typeof v !== 'string') return { error: 'text must be a string' };
  const t = v.trim();
  if (t === '') return { error: 'text is empty' };
  if (t.length > MAX_ENTRY_CHARS) return { error: `text is longer than ${MAX_ENTRY_CHARS} characters` };
  return t;
}

type Read = { op: Operation | null } | { error: string };

/** One operation read and checked on its own; `used` holds the ids of earlier valid operations. */
function readOperation(item: unknown, rules: OperationRules, used: ReadonlySet<string>): Read {
  if (!isObject(item)) return { error: 'an operation must be a JSON object' };
  const f = fieldsOf(item);
  const rawOp = f.get('op');
  let kind = typeof rawOp === 'string' ? OP_ALIASES.get(aliasKey(rawOp)) : undefined;
  if (rawOp !== undefined && !kind)
    return { error: `unknown op ${typeof rawOp === 'string' ? quote(rawOp, 40) : String(rawOp)} (use add, update, merge or retire)` };
  // Inferred only where the fields leave no doubt, and never a retire (it removes an entry).
  kind ??= f.has('ids') ? 'merge' : f.has('id') && f.has('text') ? 'update' : f.has('level') && f.has('text') ? 'add' : undefined;
  if (!kind) return { error: 'no "op" field (use add, update, merge or retire)' };
  if (kind === 'none') return { op: null };

  const target = (v: unknown): string | { error: string } => {
    const id = readAlias(v);
    if (id === null || id === '') return { error: 'id is missing or empty' };
    if (!rules.aliases.has(id)) return { error: `unknown id ${quote(id, 40)} (use only the ids shown: ${[...rules.aliases].join(', ') || 'none'})` };
    if (rules.pinned?.has(id)) return { error: `entry ${id} is pinned and may not be changed` };
    if (used.has(id)) return { error: `id ${id} is already used by an earlier operation` };
    return id;
  };
  const level = f.get('level') === undefined || f.get('level') === null || f.get('level') === '' ? undefined : readLevel(f.get('level'));
  if (typeof level === 'object') return level;

  switch (kind) {
    case 'add': {
      if (!level) return { error: 'add needs a level' };
      const text = readText(f.get('text'));
      return typeof text === 'string' ? { op: { op: 'add', level, text } } : text;
    }
    case 'update': {
      const id = target(f.get('id'));
      if (typeof id !== 'string') return id;
      const text = readText(f.get('text'));
      if (typeof text !== 'string') return text;
      return { op: level ? { op: 'update', id, level, text } : { op: 'update', id, text } };
    }
    case 'merge': {
      const raw = f.get('ids');
      if (!Array.isArray(raw)) return { error: 'merge needs a list of ids' };
      const ids: string[] = [];
      for (const v of raw) {
        const id = readAlias(v);
        if (id !== null && ids.includes(id)) continue; // the same entry named twice is one source
        const checked = target(v);
        if (typeof checked !== 'string') return checked;
        ids.push(checked);
      }
      if (ids.length < 2) return { error: 'merge needs at least two different ids' };
      if (!level) return { error: 'merge needs a level' };
      const text = readText(f.get('text'));
      return typeof text === 'string' ? { op: { op: 'merge', ids, level, text } } : text;
    }
    case 'retire': {
      const id = target(f.get('id'));
      if (typeof id !== 'string') return id;
      const reason = f.get('reason');
      return { op: { op: 'retire', id, reason: typeof reason === 'string' ? clip(reason, MAX_ENTRY_CHARS) : '' } };
    }
  }
}

export const idsOf = (op: Operation): string[] => (op.op === 'add' ? [] : op.op === 'merge' ? op.ids : [op.id]);

/** Validates the operations of a reply one by one (see the module comment). */
export function validateOperations(items: readonly unknown[], rules: OperationRules): ParsedOperations {
  const used = new Set<string>();
  const operations: Operation[] = [];
  const positions: number[] = [];
  const rejected: RejectedOperation[] = [];
  items.forEach((item, index) => {
    const r = readOperation(item, rules, used);
    if ('error' in r) return void rejected.push({ index, reason: r.error });
    if (!r.op) return;
    if (operations.length >= MAX_OPERATIONS) return void rejected.push({ index, reason: `more than ${MAX_OPERATIONS} operations in one reply; not applied` });
    for (const id of idsOf(r.op)) used.add(id);
    operations.push(r.op);
    positions.push(index);
  });
  if (operations.length === 0 && rejected.length > 0) return { ok: false, error: describeRejected(rejected), rejected };
  return { ok: true, operations, positions, rejected };
}

/** "operations.1: unknown level 'great' …; operations.3: …" (the first three). */
export function describeRejected(rejected: readonly RejectedOperation[]): string {
  const shown = rejected.slice(0, 3).map((r) => `operations.${r.index}: ${r.reason}`);
  return rejected.length > 3 ? `${shown.join('; ')}; and ${rejected.length - 3} more` : shown.join('; ');
}

/** Reads and validates a raw model reply. */
export function parseOperations(text: string, rules: OperationRules): ParsedOperations {
  const items = operationItems(text);
  return items.ok ? validateOperations(items.items, rules) : { ok: false, error: items.error, rejected: [] };
}

export type Critique = { level: 'bad' | 'weak'; text: string };
export type ParsedCritique = { ok: true; critique: Critique | null } | { ok: false; error: string };

const NO_CRITIQUE = new Set(['', 'none', 'null', 'no', 'nothing', 'nocritique']);

/**
 * A critique reply: `{"critique": {"level", "text"}}`, `{"critique": null}`, or the inner object
 * alone; the same leniency and aliases as operations. Only `bad` and `weak` are critique levels.
 */
export function parseCritique(text: string): ParsedCritique {
  const value = jsonValues(text).values.find(isObject);
  if (!value) {
    if (NO_CRITIQUE.has(aliasKey(text.trim().replace(/[."']/g, '')))) return { ok: true, critique: null };
    return { ok: false, error: `The reply is not valid JSON (starts with ${quote(text.trim(), 80)}).` };
  }
  const key = Object.keys(value).find((k) => aliasKey(k) === 'critique');
  const inner = key === undefined ? value : value[key];
  if (inner === null || (typeof inner === 'string' && NO_CRITIQUE.has(aliasKey(inner)))) return { ok: true, critique: null };
  if (!isObject(inner)) return { ok: false, error: 'critique: expected an object with level and text, or null' };
  const f = fieldsOf(inner);
  const level = readLevel(f.get('level'));
  if (typeof level === 'object') return { ok: false, error: `critique.level: ${level.error}` };
  if (level !== 'bad' && level !== 'weak') return { ok: false, error: `critique.level: a critique is "bad" or "weak", not ${quote(level)}` };
  const t = readText(f.get('text'));
  return typeof t === 'string' ? { ok: true, critique: { level, text: t } } : { ok: false, error: `critique.text: ${t.error}` };
}
