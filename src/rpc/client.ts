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
import { notifyProgress } from './dispatch';
import { deserializeError } from './error-codec';
import { WorkerCrashedError } from './errors';
import type { ApiSpec, CallOptions, Client, ClientMessage, Endpoint, MethodName } from './protocol';
import { isServerMessage } from './protocol';

/** A client over a worker: the shared {@link Client} plus `dispose()`. */
export type WorkerClient<A extends ApiSpec<A>> = Client<A> & {
  /** Detaches from the endpoint; pending and later calls reject with WorkerCrashedError. */
  dispose(): void;
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

  const errorTarget = endpoint as unknown as ErrorEventTarget;

  const die = (error: WorkerCrashedError): void => {
    if (dead) return;
    dead = error;
    endpoint.removeEventListener?.('message', onMessage);
    errorTarget.removeEventListener?.('error', onError);
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
  errorTarget.addEventListener('error', onError);
  endpoint.start?.();

  function call<K extends MethodName<A>>(
    method: K,
    req: A[K]['req'],
    opts: CallOptions<A[K]['progress']> = {},
  ): Promise<A[K]['res']> {
    return new Promise<A[K]['res']>((resolve, reject) => {
      if (dead) {
        // A fresh instance per call (own stack), same message and cause.
        reject(new WorkerCrashedError(dead.message, { cause: dead.cause }));
        return;
      }
      const { signal } = opts;
      if (signal?.aborted) {
        reject(new CancelledError());
        return;
      }
      const id = nextId++;
      const onAbort = (): void => {
        if (!pending.delete(id)) return;
        try {
          post({ type: 'rpc:cancel', id });
        } catch {
          // The endpoint is closed: nothing to cancel remotely.
        }
        reject(new CancelledError());
      };
      pending.set(id, {
        resolve: resolve as (value: unknown) => void,
        reject,
        onProgress: opts.onProgress as ((progress: unknown) => void) | undefined,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        post({ type: 'rpc:request', id, method, req }, opts.transfer);
      } catch (error) {
        // e.g. DataCloneError for a non-cloneable request: fail this call only.
        pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      }
    });
  }

  return {
    call,
    dispose() {
      if (dead) return;
      for (const id of pending.keys()) {
        try {
          post({ type: 'rpc:cancel', id });
        } catch {
          break; // endpoint closed
        }
      }
      die(new WorkerCrashedError('The worker client was disposed'));
    },
  };
}
