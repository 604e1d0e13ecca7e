/**
 * Pieces shared by the worker server and the in-thread client, so both dispatch and report the
 * same way.
 */
import { UnknownMethodError } from './errors';
import type { ApiSpec, CallContext, Handlers } from './protocol';

/**
 * Runs `handlers[method]`. Only OWN properties of the handler table are dispatched (never
 * `toString`, `constructor`, `__proto__`…); anything else rejects with UnknownMethodError.
 * Always async: a synchronous throw becomes a rejection.
 */
export async function invokeHandler<A extends ApiSpec<A>>(
  handlers: Handlers<A>,
  method: string,
  req: unknown,
  ctx: CallContext<unknown>,
): Promise<unknown> {
  const handler: unknown = Object.hasOwn(handlers, method)
    ? Reflect.get(handlers, method)
    : undefined;
  if (typeof handler !== 'function') throw new UnknownMethodError(method);
  return await (handler as (req: unknown, ctx: CallContext<unknown>) => unknown)(req, ctx);
}

/**
 * Calls the caller's `onProgress`. A throwing callback is a UI bug: it is reported (reportError in
 * browsers, console.error elsewhere) but never fails the call or the handler that reported.
 */
export function notifyProgress<P>(onProgress: ((progress: P) => void) | undefined, progress: P): void {
  if (!onProgress) return;
  try {
    onProgress(progress);
  } catch (error) {
    const report = (globalThis as { reportError?: (e: unknown) => void }).reportError;
    if (typeof report === 'function') report(error);
    else console.error('[rpc] onProgress callback threw', error);
  }
}
