/**
 * Errors raised by the RPC layer itself. Like src/core/errors.ts they are named classes, so the
 * client can rebuild them by `name` after they cross the worker boundary (see error-codec.ts).
 */
import { ERROR_CLASSES, NotFoundError, ToolMemError } from '../core/errors';

/**
 * The worker behind a client is gone (an `error` event on the Worker, or the client was disposed).
 * Every pending call rejects with it, and so does every later call on that client: the UI should
 * offer a retry, which means creating a new worker and a new client.
 */
export class WorkerCrashedError extends ToolMemError {
  override name = 'WorkerCrashedError';
  constructor(message = 'The worker stopped unexpectedly; retry to start it again', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The server has no handler for the requested method (an API/worker version mismatch, usually). */
export class UnknownMethodError extends NotFoundError {
  override name = 'UnknownMethodError';
  constructor(readonly method: string) {
    super(`Unknown RPC method "${method}"`);
  }
}

/** Every named class the client can rebuild: the domain errors plus the RPC layer's own. */
export const RPC_ERROR_CLASSES = {
  ...ERROR_CLASSES,
  WorkerCrashedError,
  UnknownMethodError,
} as const;
