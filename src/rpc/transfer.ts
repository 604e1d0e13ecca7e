/**
 * Zero-copy transfer of response data (e.g. Float32Array embeddings) from a worker.
 *
 * A handler marks its response: `return transfer(vectors, collectTransferables(vectors))`; the
 * server then posts the response with that transfer list, so the worker's buffers are moved, not
 * copied (they become detached, `byteLength === 0`, in the worker). The in-thread client simply
 * unwraps the value (nothing is detached there).
 *
 * Constraints:
 * - Transferring a typed array moves its WHOLE underlying ArrayBuffer: do not transfer views into a
 *   buffer you still need (e.g. a `subarray` of a pool, or a Node `Buffer` from the shared pool).
 * - A buffer may appear only once in a transfer list; `collectTransferables` de-duplicates.
 * - SharedArrayBuffers are shared, never transferred, so they are skipped.
 */

/** Global-registry symbol, so a second copy of this module (another bundle chunk) still agrees. */
const TRANSFERRED: unique symbol = Symbol.for('toolmem.rpc.transferred');

/** A handler's response marked for transfer; produced only by {@link transfer}. */
export interface Transferred<T> {
  readonly [TRANSFERRED]: true;
  readonly value: T;
  readonly transferables: Transferable[];
}

/** Marks `value` to be sent with `transferables` moved rather than copied. */
export function transfer<T>(value: T, transferables: Transferable[]): Transferred<T> {
  return { [TRANSFERRED]: true, value, transferables: [...transferables] };
}

/** True for a value produced by {@link transfer}. */
export function isTransferred(value: unknown): value is Transferred<unknown> {
  return typeof value === 'object' && value !== null && (value as { [TRANSFERRED]?: unknown })[TRANSFERRED] === true;
}

/** Splits a handler's reply into the value to send and its transfer list (empty when unmarked). */
export function unwrapReply(reply: unknown): { value: unknown; transferables: Transferable[] } {
  return isTransferred(reply) ? { value: reply.value, transferables: reply.transferables } : { value: reply, transferables: [] };
}

function isArrayBuffer(value: unknown): value is ArrayBuffer {
  // Tag check rather than instanceof: works across realms (iframes, vm contexts).
  return Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The ArrayBuffer behind `value` when it is an ArrayBuffer, a typed array or a DataView. */
function bufferOf(value: unknown): ArrayBuffer | undefined {
  if (isArrayBuffer(value)) return value;
  if (ArrayBuffer.isView(value) && isArrayBuffer(value.buffer)) return value.buffer;
  return undefined;
}

/**
 * Finds the ArrayBuffers to transfer in `value`, looking ONE level deep only:
 * - `value` itself when it is an ArrayBuffer, typed array or DataView;
 * - the elements of an array `value`;
 * - the own enumerable property values of a plain-object `value`.
 * Deeper nesting (e.g. `{ a: { b: Float32Array } }`), Maps, Sets and class instances are not
 * searched: pass such buffers to `transfer()` explicitly. Result has no duplicates.
 */
export function collectTransferables(value: unknown): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  const add = (candidate: unknown): void => {
    const buffer = bufferOf(candidate);
    if (buffer) found.add(buffer);
  };
  add(value);
  if (Array.isArray(value)) {
    for (const item of value) add(item);
  } else if (isPlainObject(value)) {
    for (const item of Object.values(value)) add(item);
  }
  return [...found];
}
