/**
 * Typed worker protocol: an API is declared ONCE as a map `method → { req, res, progress }`, and
 * the handler table, the client and the wire messages are all derived from it (in the style of
 * Actual Budget's `send<K extends keyof Handlers>` and WebLLM's single engine interface).
 *
 * ```ts
 * interface EchoApi {
 *   add: { req: { a: number; b: number }; res: number; progress: never };
 * }
 * const handlers: Handlers<EchoApi> = { add: ({ a, b }) => a + b };
 * const client: Client<EchoApi> = createClient<EchoApi>(worker); // or createInThreadClient(handlers)
 * const sum = await client.call('add', { a: 1, b: 2 });
 * ```
 *
 * Constraints:
 * - Method names are strings; `req`, `res` and `progress` values must be structured-cloneable
 *   (no functions, class instances lose their prototype) because they cross a postMessage boundary.
 *   Only the in-thread client passes them by reference.
 * - Use `progress: never` for methods that report no progress (then `ctx.progress` cannot be called).
 * - This module is type declarations plus tiny message guards: no DOM, Node or storage imports.
 */
import type { Transferred } from './transfer';

/** One method of an API: its request, response and progress-event types. */
export interface MethodSpec {
  req: unknown;
  res: unknown;
  progress: unknown;
}

/**
 * Constraint for an API map. Written as `A extends ApiSpec<A>` so that plain interfaces (which have
 * no index signature) qualify: it only requires every declared key to be a {@link MethodSpec}.
 */
export type ApiSpec<A> = { [K in keyof A]: MethodSpec };

/** Method names of an API (string keys only). */
export type MethodName<A> = keyof A & string;

/** Passed to every handler call. */
export interface CallContext<P> {
  /**
   * Aborted when the caller cancels (or the server is disposed); `signal.reason` is then a
   * `CancelledError`, so `ctx.signal.throwIfAborted()` throws the right error. Long handlers
   * should check it between steps and pass it to anything that accepts a signal.
   */
  readonly signal: AbortSignal;
  /**
   * Reports a progress event to the caller's `onProgress`. Ignored once the call has settled or
   * been cancelled. Over a worker boundary the value is structured-cloned (a non-cloneable value
   * throws a `DataCloneError` here).
   */
  progress(progress: P): void;
}

/** What a handler may return: the response itself, or the response wrapped by `transfer()`. */
export type Reply<S> = S | Transferred<S>;

/** One handler: may be sync or async; a thrown/rejected error is sent back to the caller. */
export type Handler<S extends MethodSpec> = (req: S['req'], ctx: CallContext<S['progress']>) => Promise<Reply<S['res']>> | Reply<S['res']>;

/**
 * The handler table for an API. Must be a plain object whose methods are OWN properties
 * (prototype members such as `toString` are never dispatched).
 */
export type Handlers<A extends ApiSpec<A>> = { [K in MethodName<A>]: Handler<A[K]> };

/** Options of one call. */
export interface CallOptions<P> {
  /** Aborting rejects the call at once with `CancelledError` and asks the handler to stop. */
  signal?: AbortSignal;
  /** Receives the handler's progress events, in order, before the call settles. */
  onProgress?: (progress: P) => void;
  /**
   * Objects in `req` to transfer (zero-copy) instead of cloning, e.g. `[floats.buffer]`. They are
   * unusable by the caller afterwards (a transferred ArrayBuffer has `byteLength === 0`). Ignored
   * by the in-thread client, which passes `req` by reference.
   */
  transfer?: Transferable[];
}

/**
 * The caller's view of an API; implemented both by the worker proxy (`createClient`) and by the
 * in-thread engine (`createInThreadClient`), so UI code does not care where the work runs.
 */
export interface Client<A extends ApiSpec<A>> {
  call<K extends MethodName<A>>(method: K, req: A[K]['req'], opts?: CallOptions<A[K]['progress']>): Promise<A[K]['res']>;
}

/**
 * The minimal structural interface shared by `Worker`, `DedicatedWorkerGlobalScope` and
 * `MessagePort` (browser and Node's global `MessageChannel`). `start()` exists on MessagePort,
 * which only delivers messages to `addEventListener` listeners after it is called.
 */
export interface Endpoint {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  /**
   * The listener is typed with `Event` (it reads `(event as MessageEvent).data`) so that any
   * EventTarget-based endpoint fits, not only those whose typings special-case 'message'.
   */
  addEventListener(type: 'message', listener: (event: Event) => void): void;
  removeEventListener?(type: 'message', listener: (event: Event) => void): void;
  start?(): void;
}

// ---------------------------------------------------------------------------------------------
// Wire messages. Ids are chosen by the client and are unique per client, so ONE client per
// endpoint (several clients on one port would mix up their replies). Messages whose `type` is not
// one of these are ignored, so the same endpoint may carry other traffic.

/** An error as it crosses the boundary; rebuilt by name on the client (see error-codec.ts). */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** Own enumerable, structured-cloneable fields of the error (e.g. `file`, `row`). */
  fields: Record<string, unknown>;
  /** The error's `cause`, when it was itself an error. */
  cause?: SerializedError;
}

/** client → server: run `method` with `req`. */
export interface RequestMessage {
  type: 'rpc:request';
  id: number;
  method: string;
  req: unknown;
}

/** client → server: abort call `id` (no reply is awaited: the client has already rejected). */
export interface CancelMessage {
  type: 'rpc:cancel';
  id: number;
}

/** server → client: one progress event of call `id`. */
export interface ProgressMessage {
  type: 'rpc:progress';
  id: number;
  progress: unknown;
}

/** server → client: call `id` succeeded. */
export interface ResultMessage {
  type: 'rpc:result';
  id: number;
  res: unknown;
}

/** server → client: call `id` failed. */
export interface ErrorMessage {
  type: 'rpc:error';
  id: number;
  error: SerializedError;
}

export type ClientMessage = RequestMessage | CancelMessage;
export type ServerMessage = ProgressMessage | ResultMessage | ErrorMessage;
export type RpcMessage = ClientMessage | ServerMessage;

function hasTypeAndId(data: unknown): data is { type: unknown; id: number } {
  return typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'number' && 'type' in data;
}

/** True for a well-formed message the server must handle. */
export function isClientMessage(data: unknown): data is ClientMessage {
  if (!hasTypeAndId(data)) return false;
  if (data.type === 'rpc:cancel') return true;
  return data.type === 'rpc:request' && typeof (data as { method?: unknown }).method === 'string';
}

/** True for a well-formed message the client must handle. */
export function isServerMessage(data: unknown): data is ServerMessage {
  if (!hasTypeAndId(data)) return false;
  if (data.type === 'rpc:progress' || data.type === 'rpc:result') return true;
  if (data.type !== 'rpc:error') return false;
  const error = (data as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string';
}
