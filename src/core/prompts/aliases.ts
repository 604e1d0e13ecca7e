/**
 * The names a model may use in a memory-update or critique reply besides the ones the prompts ask
 * for (update.ts, critique.ts), in one table per kind so the prompts and the validator never
 * drift apart. Matching is case-insensitive and ignores spaces, `_` and `-` ("Very Good",
 * "very_good" and "VERYGOOD" are the same name). Documented in docs/llm-engines.md.
 *
 * Constraint: an alias must be unambiguous. Words that could mean two levels ("ok", "fair",
 * "neutral", "average", "strength", "weakness") or a number ("3") are not aliases, so such a value stays an error.
 */
import type { Level } from '../types';

/** The operations of a memory update (update.ts asks for these names). */
export type OperationKind = 'add' | 'update' | 'merge' | 'retire';

/** Lower-case, without spaces, `_` or `-`. */
export function aliasKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

function table<T extends string>(entries: Record<T, readonly string[]>): ReadonlyMap<string, T> {
  const map = new Map<string, T>();
  for (const [canonical, names] of Object.entries(entries) as [T, readonly string[]][]) {
    for (const n of [canonical, ...names]) map.set(aliasKey(n), canonical);
  }
  return map;
}

export const LEVEL_ALIASES: ReadonlyMap<string, Level> = table<Level>({
  proficient: ['proficiency', 'expert', 'excellent', 'very good'],
  good: ['decent', 'adequate', 'competent'],
  bad: ['poor', 'mediocre', 'limited'],
  weak: ['very bad', 'very poor', 'terrible', 'fails', 'failure'],
});

export const OP_ALIASES: ReadonlyMap<string, OperationKind | 'none'> = table<OperationKind | 'none'>({
  add: ['create', 'new', 'insert', 'append', 'add entry'],
  update: ['edit', 'modify', 'revise', 'rewrite', 'change', 'refine', 'replace'],
  merge: ['combine', 'consolidate', 'join'],
  retire: ['delete', 'remove', 'drop', 'deprecate', 'discard'],
  none: ['noop', 'no op', 'nothing', 'skip', 'keep'],
});

/** Field names of one operation (an operation's own keys, after aliasKey). */
export type OperationField = 'op' | 'level' | 'text' | 'id' | 'ids' | 'reason';

export const FIELD_ALIASES: ReadonlyMap<string, OperationField> = table<OperationField>({
  op: ['action', 'operation', 'type', 'kind', 'command'],
  level: ['tier', 'category', 'rating'],
  text: ['statement', 'content', 'description', 'insight', 'new text', 'entry text', 'critique text'],
  id: ['entry', 'entry id', 'target', 'target id', 'alias'],
  ids: ['entry ids', 'entries', 'targets', 'sources', 'merge ids'],
  reason: ['why', 'explanation', 'rationale', 'because'],
});

/** Keys under which a reply may hold its list of operations. */
export const LIST_ALIASES: ReadonlySet<string> = new Set(['operations', 'ops', 'changes', 'actions', 'updates', 'edits'].map(aliasKey));
