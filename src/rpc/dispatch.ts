/**
 * Pieces shared by the worker server and the in-thread client, so both dispatch and report the
 * same way.
 */
import { CancelledError } from '../core/errors';
import { UnknownMethodError } from './errors';
import type { ApiSpec, CallContext, CallOptions, Client, Handlers, MethodName } from './protocol';

/**
 * Runs `handlers[method]`. Only OWN properties of the handler table are dispatched (never
 * `toString`, `constructor`, `__proto__`…); anything else rejects with UnknownMethodError.
 * Always async: a synchronous throw becomes a rejection.
 */
export async function invokeHandler<A extends ApiSpec<A>>(handlers: Handlers<A>, method: string, req: unknown, ctx: CallContext<unknown>): Promise<unknown> {
  const handler: unknown = Object.hasOwn(handlers, method) ? Reflect.get(handlers, method) : undefined;
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

/** One call as a client starts it: the request, its options and the promise's settle functions. */
export interface StartedCall {
  method: string;
  req: unknown;
  signal: AbortSignal | undefined;
  onProgress: ((progress: unknown) => void) | undefined;
  transfer: Transferable[] | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * The one typed `Client.call` of both clients (worker and in-thread): `refusal()` may turn the call
 * down first (a dead worker client), then an already-aborted signal rejects with `CancelledError`
 * without starting anything; otherwise `start` runs the call and settles it.
 */
export function clientOf<A extends ApiSpec<A>>(start: (call: StartedCall) => void, refusal: () => Error | null = () => null): Client<A> {
  return {
    call<K extends MethodName<A>>(method: K, req: A[K]['req'], opts: CallOptions<A[K]['progress']> = {}): Promise<A[K]['res']> {
      return new Promise<A[K]['res']>((resolve, reject) => {
        const refused = refusal();
        if (refused) {
          reject(refused);
          return;
        }
        const { signal } = opts;
        if (signal?.aborted) {
          reject(new CancelledError());
          return;
        }
        start({
          method,
          req,
          signal,
          // Progress values and results come off the wire untyped; the API declaration types them.
          onProgress: opts.onProgress as ((progress: unknown) => void) | undefined,
          transfer: opts.transfer,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
      });
    },
  };
}
