/**
 * Main-thread side: `createClient<A>(endpoint)` turns a Worker (or MessagePort) into a typed
 * {@link Client}.
 *
 * Semantics and constraints:
 * - Pending calls are keyed by a per-client id: use ONE client per endpoint.
 * - Aborting `opts.signal` rejects the call at once with `CancelledError` and posts a cancel message;
 *   a late reply for that call is dropped. An already-aborted signal rejects without posting.
 * - Errors are rebuilt as the same named class (error-codec.ts); unknown names become ToolMemError
 *   keeping the original `.name`.
 * - An `error` event on the endpoint (a Worker's uncaught error) or `dispose()` rejects every
 *   pending call with `WorkerCrashedError`, and every later call too: create a new worker+client to
 *   retry. `dispose()` also asks the worker to cancel pending work but does not terminate it; the
 *   owner of the Worker calls `terminate()`.
 * - `messageerror` (a reply that could not be deserialised) cannot be attributed to a call and is
 *   not handled here.
 */
import { CancelledError } from '../core/errors';
import { clientOf, notifyProgress, type StartedCall } from './dispatch';
import { deserializeError } from './error-codec';
import { WorkerCrashedError } from './errors';
import type { ApiSpec, Client, ClientMessage, Endpoint } from './protocol';
import { isServerMessage } from './protocol';

/** A client over a worker: the shared {@link Client} plus `dispose()`. */
export type WorkerClient<A extends ApiSpec<A>> = Client<A> & {
  /** Detaches from the endpoint; pending and later calls reject with WorkerCrashedError(`reason`). */
  dispose(reason?: string): void;
};

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onProgress: ((progress: unknown) => void) | undefined;
  /** Removes the abort listener. */
  cleanup(): void;
}

/** `Endpoint` only types 'message'; Worker and the worker scope also dispatch 'error'. */
type ErrorEventTarget = {
  addEventListener(type: 'error', listener: (event: Event) => void): void;
  removeEventListener?(type: 'error', listener: (event: Event) => void): void;
};

/**
 * The endpoint as a target of 'error' events: any EventTarget (Worker, the worker scope, a
 * MessagePort, the tests' fake workers) takes listeners of every type; a bare endpoint has none.
 */
function errorEventsOf(endpoint: Endpoint): ErrorEventTarget | null {
  return typeof EventTarget === 'function' && endpoint instanceof EventTarget ? endpoint : null;
}

function describeCrash(event: Event): { detail: string; cause: unknown } {
  const { error, message } = event as Event & { error?: unknown; message?: unknown };
  if (error instanceof Error) return { detail: error.message, cause: error };
  if (typeof message === 'string' && message !== '') return { detail: message, cause: error };
  return { detail: 'uncaught error in worker', cause: error };
}

export function createClient<A extends ApiSpec<A>>(endpoint: Endpoint): WorkerClient<A> {
  const pending = new Map<number, PendingCall>();
  let nextId = 1;
  let dead: WorkerCrashedError | null = null;

  const post = (message: ClientMessage, transfer?: Transferable[]): void => {
    if (transfer && transfer.length > 0) endpoint.postMessage(message, transfer);
    else endpoint.postMessage(message);
  };

  const onMessage = (event: Event): void => {
    const message: unknown = (event as MessageEvent).data;
    if (!isServerMessage(message)) return;
    const call = pending.get(message.id);
    if (!call) return; // cancelled, or not ours
    if (message.type === 'rpc:progress') {
      notifyProgress(call.onProgress, message.progress);
      return;
    }
    pending.delete(message.id);
    call.cleanup();
    if (message.type === 'rpc:result') call.resolve(message.res);
    else call.reject(deserializeError(message.error));
  };

  const errorTarget = errorEventsOf(endpoint);

  const die = (error: WorkerCrashedError): void => {
    if (dead) return;
    dead = error;
    endpoint.removeEventListener?.('message', onMessage);
    errorTarget?.removeEventListener?.('error', onError);
    const calls = [...pending.values()];
    pending.clear();
    for (const call of calls) {
      call.cleanup();
      call.reject(error);
    }
  };

  function onError(event: Event): void {
    const { detail, cause } = describeCrash(event);
    die(new WorkerCrashedError(`Worker crashed: ${detail}`, { cause }));
  }

  endpoint.addEventListener('message', onMessage);
  errorTarget?.addEventListener('error', onError);
  endpoint.start?.();

  const client = clientOf<A>(
    (call) => startCall(call, nextId++, pending, post),
    // A fresh instance per refused call (own stack), same message and cause.
    () => (dead ? new WorkerCrashedError(dead.message, { cause: dead.cause }) : null),
  );

  return {
    call: client.call,
    dispose(reason = 'The worker client was disposed') {
      if (dead) return;
      for (const id of pending.keys()) {
        try {
          post({ type: 'rpc:cancel', id });
        } catch {
          break; // endpoint closed
        }
      }
      die(new WorkerCrashedError(reason));
    },
  };
}

/** Sends one call's request, registered in `pending` until its answer, its cancel or a crash. */
function startCall(
  { method, req, signal, onProgress, transfer, resolve, reject }: StartedCall,
  id: number,
  pending: Map<number, PendingCall>,
  post: (message: ClientMessage, transfer?: Transferable[]) => void,
): void {
  const onAbort = (): void => {
    if (!pending.delete(id)) return;
    try {
      post({ type: 'rpc:cancel', id });
    } catch {
      // The endpoint is closed: nothing to cancel remotely.
    }
    reject(new CancelledError());
  };
  pending.set(id, { resolve, reject, onProgress, cleanup: () => signal?.removeEventListener('abort', onAbort) });
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    post({ type: 'rpc:request', id, method, req }, transfer);
  } catch (error) {
    // e.g. DataCloneError for a non-cloneable request: fail this call only.
    pending.delete(id);
    signal?.removeEventListener('abort', onAbort);
    reject(error);
  }
}
