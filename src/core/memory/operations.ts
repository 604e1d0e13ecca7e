/**
 * The operations a model may ask for in one memory update, and their validation. A reply is used
 * only if ALL of it is valid: JSON, the schema (known ops and levels, non-empty texts of at most
 * MAX_ENTRY_CHARS), ids among the entries shown (by alias), each id touched once, pinned entries
 * left alone, at most MAX_OPERATIONS operations. Anything else is an OperationsError whose message
 * is given back to the model once.
 */
import { z } from 'zod';
import { JsonReplyError, parseJsonReply } from '../llm/json-reply';
import { LlmError } from '../llm/errors';
import { MAX_ENTRY_CHARS } from '../prompts/shared';
import type { Level } from '../types';

export class OperationsError extends LlmError {
  override name = 'OperationsError';
}

/** More than this many changes from one example is a sign of a confused model. */
export const MAX_OPERATIONS = 8;

const LevelSchema = z.enum(['proficient', 'good', 'bad', 'weak']);
const TextSchema = z
  .string()
  .trim()
  .min(1, 'text is empty')
  .max(MAX_ENTRY_CHARS, `text is longer than ${MAX_ENTRY_CHARS} characters`);
const IdSchema = z.string().trim().min(1, 'id is empty');

const OperationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), level: LevelSchema, text: TextSchema }),
  z.object({ op: z.literal('update'), id: IdSchema, level: LevelSchema.nullish(), text: TextSchema }),
  z.object({ op: z.literal('merge'), ids: z.array(IdSchema).min(2, 'merge needs at least two ids'), level: LevelSchema, text: TextSchema }),
  z.object({ op: z.literal('retire'), id: IdSchema, reason: z.string().trim().max(MAX_ENTRY_CHARS, `reason is longer than ${MAX_ENTRY_CHARS} characters`).default('') }),
  z.object({ op: z.literal('none') }),
]);

const ReplySchema = z.object({
  operations: z.array(OperationSchema).max(MAX_OPERATIONS, `at most ${MAX_OPERATIONS} operations per example`),
});

export type Operation =
  | { op: 'add'; level: Level; text: string }
  | { op: 'update'; id: string; level?: Level; text: string }
  | { op: 'merge'; ids: string[]; level: Level; text: string }
  | { op: 'retire'; id: string; reason: string };

export interface OperationRules {
  /** Aliases of the entries shown to the model. */
  aliases: ReadonlySet<string>;
  /** Aliases of pinned entries (shown, but not to be changed). */
  pinned?: ReadonlySet<string>;
}

export type ParsedOperations = { ok: true; operations: Operation[] } | { ok: false; error: string };

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(reply)'}: ${i.message}`)
    .join('; ');
}

/** Validates the parsed JSON of a reply against the schema and the rules. */
export function validateOperations(value: unknown, rules: OperationRules): ParsedOperations {
  // A bare list is accepted as the list of operations.
  const parsed = ReplySchema.safeParse(Array.isArray(value) ? { operations: value } : value);
  if (!parsed.success) return { ok: false, error: describeIssues(parsed.error) };
  const used = new Set<string>();
  const operations: Operation[] = [];
  const touch = (id: string, where: string): string | null => {
    if (!rules.aliases.has(id)) return `${where}: unknown id "${id}" (use only the ids shown: ${[...rules.aliases].join(', ') || 'none'})`;
    if (rules.pinned?.has(id)) return `${where}: entry ${id} is pinned and may not be changed`;
    if (used.has(id)) return `${where}: id ${id} is used by more than one operation`;
    used.add(id);
    return null;
  };
  for (const [i, op] of parsed.data.operations.entries()) {
    const where = `operations.${i}`;
    let error: string | null = null;
    switch (op.op) {
      case 'none':
        continue;
      case 'add':
        operations.push({ op: 'add', level: op.level, text: op.text });
        continue;
      case 'update':
        error = touch(op.id, where);
        operations.push(op.level ? { op: 'update', id: op.id, level: op.level, text: op.text } : { op: 'update', id: op.id, text: op.text });
        break;
      case 'retire':
        error = touch(op.id, where);
        operations.push({ op: 'retire', id: op.id, reason: op.reason });
        break;
      case 'merge':
        for (const id of op.ids) error ??= touch(id, where);
        operations.push({ op: 'merge', ids: [...op.ids], level: op.level, text: op.text });
        break;
    }
    if (error) return { ok: false, error };
  }
  return { ok: true, operations };
}

/** Reads and validates a raw model reply. */
export function parseOperations(text: string, rules: OperationRules): ParsedOperations {
  let value: unknown;
  try {
    value = parseJsonReply(text);
  } catch (err) {
    if (err instanceof JsonReplyError) return { ok: false, error: err.message };
    throw err;
  }
  return validateOperations(value, rules);
}

const CritiqueSchema = z.object({
  critique: z.union([z.object({ level: z.enum(['bad', 'weak']), text: TextSchema }), z.null()]),
});

export type ParsedCritique = { ok: true; critique: { level: 'bad' | 'weak'; text: string } | null } | { ok: false; error: string };

export function parseCritique(text: string): ParsedCritique {
  let value: unknown;
  try {
    value = parseJsonReply(text);
  } catch (err) {
    if (err instanceof JsonReplyError) return { ok: false, error: err.message };
    throw err;
  }
  const parsed = CritiqueSchema.safeParse(value);
  return parsed.success ? { ok: true, critique: parsed.data.critique } : { ok: false, error: describeIssues(parsed.error) };
}
