/**
 * Worker side: `expose(handlers, endpoint)` answers requests arriving on an endpoint.
 *
 * Semantics and constraints:
 * - Calls run concurrently; replies are sent as each call settles (so possibly out of order).
 * - A cancel message aborts that call's AbortController with a `CancelledError` reason; whatever the
 *   handler then does (usually reject with that CancelledError) is still sent back, and the client,
 *   which has already rejected, ignores it.
 * - Unknown methods reply with `UnknownMethodError`. Errors are sent by name (error-codec.ts).
 * - A response that cannot be cloned (e.g. contains a function) is replied as an error instead.
 * - A handler's reply wrapped by `transfer()` is posted with that transfer list.
 * - Messages that are not RPC messages are ignored, so the endpoint may carry other traffic.
 */
import { CancelledError } from '../core/errors';
import { invokeHandler } from './dispatch';
import { serializeError } from './error-codec';
import type { ApiSpec, CallContext, Endpoint, Handlers, RequestMessage, ServerMessage } from './protocol';
import { isClientMessage } from './protocol';
import { unwrapReply } from './transfer';

export interface ExposeHandle {
  /** Stops answering: removes the listener and aborts every in-flight call. Idempotent. */
  dispose(): void;
}

/**
 * Serves `handlers` on `endpoint`. Give the API type explicitly: `expose<EmbedApi>(handlers, ep)`.
 * In a worker module, pass the global scope (see {@link workerScopeEndpoint}).
 */
export function expose<A extends ApiSpec<A>>(handlers: Handlers<A>, endpoint: Endpoint): ExposeHandle {
  const inFlight = new Map<number, AbortController>();
  let disposed = false;

  const post = (message: ServerMessage, transfer: Transferable[] = []): void => {
    if (disposed) return;
    if (transfer.length > 0) endpoint.postMessage(message, transfer);
    else endpoint.postMessage(message);
  };

  const postError = (id: number, error: unknown): void => {
    try {
      post({ type: 'rpc:error', id, error: serializeError(error) });
    } catch (postFailure) {
      // Nothing sensible is left to send; the endpoint itself is probably closed.
      console.error('[rpc] could not send error reply', postFailure);
    }
  };

  const handleRequest = async (request: RequestMessage): Promise<void> => {
    const { id } = request;
    const controller = new AbortController();
    inFlight.set(id, controller);
    let settled = false;
    const ctx: CallContext<unknown> = {
      signal: controller.signal,
      progress(progress) {
        if (settled || controller.signal.aborted || disposed) return;
        post({ type: 'rpc:progress', id, progress });
      },
    };
    let reply: unknown;
    try {
      reply = await invokeHandler(handlers, request.method, request.req, ctx);
    } catch (error) {
      settled = true;
      inFlight.delete(id);
      postError(id, error);
      return;
    }
    settled = true;
    inFlight.delete(id);
    const { value, transferables } = unwrapReply(reply);
    try {
      post({ type: 'rpc:result', id, res: value }, transferables);
    } catch (cloneFailure) {
      postError(id, cloneFailure); // e.g. DataCloneError: the caller learns why instead of hanging
    }
  };

  const onMessage = (event: Event): void => {
    const message: unknown = (event as MessageEvent).data;
    if (disposed || !isClientMessage(message)) return;
    if (message.type === 'rpc:cancel') {
      inFlight.get(message.id)?.abort(new CancelledError());
      return;
    }
    if (inFlight.has(message.id)) return; // duplicate id: the first call keeps it
    void handleRequest(message);
  };

  endpoint.addEventListener('message', onMessage);
  endpoint.start?.();

  return {
    dispose() {
      if (disposed) return;
      disposed = true;
      endpoint.removeEventListener?.('message', onMessage);
      for (const controller of inFlight.values()) controller.abort(new CancelledError());
      inFlight.clear();
    },
  };
}

/**
 * The global scope of a dedicated worker as an {@link Endpoint}. The project compiles with the DOM
 * lib, where `globalThis` is typed as a Window (whose postMessage takes a target origin); at run
 * time in a dedicated worker it is a DedicatedWorkerGlobalScope, which {@link isWorkerScope} checks.
 * Anywhere else (a page, Node) this throws instead of answering on the wrong object.
 */
export function workerScopeEndpoint(): Endpoint {
  const scope: object = globalThis;
  if (!isWorkerScope(scope)) throw new TypeError('workerScopeEndpoint() works only inside a dedicated worker (no worker scope here)');
  return scope;
}

/** A worker scope posts and receives messages and, unlike a window, has no document. */
function isWorkerScope(scope: object): scope is Endpoint {
  return (
    'postMessage' in scope &&
    typeof scope.postMessage === 'function' &&
    'addEventListener' in scope &&
    typeof scope.addEventListener === 'function' &&
    !('document' in scope)
  );
}
