/**
 * Errors across the worker boundary. structuredClone would turn a thrown `ParseError` into a plain
 * `Error` (or fail on odd fields), so the server sends `{ name, message, stack, fields, cause }` and
 * the client rebuilds an instance of the same named class.
 *
 * Constraints:
 * - Only OWN ENUMERABLE fields that survive `structuredClone` are kept (e.g. ParseError's
 *   `file`/`row`); others (functions, DOM nodes) are dropped rather than failing the reply.
 * - Names missing from the class map (including plain `Error`, `TypeError`, `DataCloneError`) are
 *   rebuilt as `ToolMemError` with the original name kept in `.name`.
 * - The rebuilt error carries the REMOTE stack (where it was thrown), which is the useful one.
 * - `cause` is kept when it is itself an error, up to {@link MAX_CAUSE_DEPTH} levels.
 */
import { dict } from '../core/data-keys';
import { ToolMemError } from '../core/errors';
import { RPC_ERROR_CLASSES } from './errors';
import type { SerializedError } from './protocol';

export const MAX_CAUSE_DEPTH = 4;

/** Any named error class; rebuilt with `new C(message)`, other constructor params come from `fields`. */
export type ErrorClass = new (...args: never[]) => Error;

const RESERVED = new Set(['name', 'message', 'stack', 'cause']);

function isErrorLike(value: unknown): value is Error {
  if (value instanceof Error) return true;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

function describeNonError(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    if (typeof json === 'string') return json;
  } catch {
    // fall through to String()
  }
  return String(value);
}

function cloneable(value: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: structuredClone(value) };
  } catch {
    return { ok: false };
  }
}

/** Converts anything thrown into a structured-cloneable {@link SerializedError}. */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!isErrorLike(error)) {
    return { name: 'Error', message: describeNonError(error), fields: {} };
  }
  const fields = dict<unknown>(); // own keys of any thrown object: null prototype (core/data-keys)
  for (const key of Object.keys(error)) {
    if (RESERVED.has(key)) continue;
    const cloned = cloneable(Reflect.get(error, key));
    if (cloned.ok) fields[key] = cloned.value;
  }
  const serialized: SerializedError = { name: error.name, message: error.message, fields };
  if (typeof error.stack === 'string') serialized.stack = error.stack;
  const cause: unknown = (error as { cause?: unknown }).cause;
  if (depth < MAX_CAUSE_DEPTH && isErrorLike(cause)) serialized.cause = serializeError(cause, depth + 1);
  return serialized;
}

function defineOwn(target: object, key: string, value: unknown, enumerable: boolean): void {
  // defineProperty, not assignment: a field named `__proto__` must not change the prototype.
  Object.defineProperty(target, key, { value, enumerable, writable: true, configurable: true });
}

/**
 * Rebuilds an error sent by {@link serializeError}: same class (looked up by `name` in
 * `classes`, default {@link RPC_ERROR_CLASSES}), same message, fields and remote stack.
 */
export function deserializeError(serialized: SerializedError, classes: Readonly<Record<string, ErrorClass>> = RPC_ERROR_CLASSES): Error {
  const Known = Object.hasOwn(classes, serialized.name) ? classes[serialized.name] : undefined;
  let error: Error;
  try {
    error = Known
      ? // Called with the message alone; a class that needs more throws and is caught below.
        (Reflect.construct(Known, [serialized.message]) as Error)
      : new ToolMemError(serialized.message);
  } catch {
    error = new ToolMemError(serialized.message);
  }
  // Constructors may compute their own message (e.g. UnknownMethodError): the sender's wins.
  defineOwn(error, 'message', serialized.message, false);
  if (error.name !== serialized.name) defineOwn(error, 'name', serialized.name, true);
  for (const [key, value] of Object.entries(serialized.fields ?? {})) {
    if (!RESERVED.has(key)) defineOwn(error, key, value, true);
  }
  if (serialized.stack !== undefined) defineOwn(error, 'stack', serialized.stack, false);
  if (serialized.cause) defineOwn(error, 'cause', deserializeError(serialized.cause, classes), false);
  return error;
}
