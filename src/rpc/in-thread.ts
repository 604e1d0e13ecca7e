/**
 * `createInThreadClient(handlers)`: the same {@link Client} interface, running handlers directly in
 * the calling thread (Node CLI, tests, or a browser fallback without workers).
 *
 * Same semantics as the worker client: concurrent calls, progress events in order before the call
 * settles, abort → immediate `CancelledError` (and the handler's `ctx.signal` aborts with that
 * reason), UnknownMethodError for unknown methods, `transfer()`-wrapped replies unwrapped.
 * Differences, by design:
 * - Values are passed BY REFERENCE (no structured clone): nothing is copied or detached, and
 *   `opts.transfer` is ignored.
 * - Errors pass through as the original instances (no rebuild).
 * - Progress callbacks run synchronously inside `ctx.progress()`.
 * - There is no worker to crash, so no `dispose()` and no WorkerCrashedError.
 */
import { CancelledError } from '../core/errors';
import { clientOf, invokeHandler, notifyProgress } from './dispatch';
import type { ApiSpec, CallContext, Client, Handlers } from './protocol';
import { unwrapReply } from './transfer';

export function createInThreadClient<A extends ApiSpec<A>>(handlers: Handlers<A>): Client<A> {
  return clientOf<A>(({ method, req, signal, onProgress, resolve, reject }) => {
    const controller = new AbortController();
    let settled = false;
    const onAbort = (): void => {
      if (settled) return;
      settled = true;
      reject(new CancelledError());
      controller.abort(new CancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (): boolean => {
      if (settled) return false; // cancelled already: the late outcome is dropped
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const ctx: CallContext<unknown> = {
      signal: controller.signal,
      progress(progress) {
        if (settled || controller.signal.aborted) return;
        notifyProgress(onProgress, progress);
      },
    };
    invokeHandler(handlers, method, req, ctx).then(
      (reply) => {
        if (finish()) resolve(unwrapReply(reply).value);
      },
      (error: unknown) => {
        if (finish()) reject(error);
      },
    );
  });
}
