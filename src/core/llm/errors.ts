/**
 * Named LLM errors. They extend ToolMemError; the RPC class map (src/rpc/errors.ts) does not list
 * them, so across a worker boundary one comes back as a ToolMemError with its `name` and fields
 * kept (src/rpc/error-codec.ts). Constructors take the message first so `new C(message)` works
 * if a class map lists them.
 */
import { ToolMemError } from '../errors';

export class LlmError extends ToolMemError {
  override name = 'LlmError';
}

/** The server could not be reached at all (connection refused, DNS failure, network down). */
export class LlmConnectionError extends LlmError {
  override name = 'LlmConnectionError';
  constructor(
    message: string,
    readonly url = '',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The server answered with an HTTP error status. `body` is the first 500 characters of the reply. */
export class LlmHttpError extends LlmError {
  override name = 'LlmHttpError';
  constructor(
    message: string,
    readonly status = 0,
    readonly body = '',
  ) {
    super(message);
  }
  /** Rate limits and server errors may succeed when tried again later. */
  get retryable(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

/** The server answered 2xx but the reply is not the chat-completions JSON/SSE we expect. */
export class LlmResponseError extends LlmError {
  override name = 'LlmResponseError';
}

/** No engine is configured (`none`), or the engine is not loaded / has been disposed. */
export class LlmUnavailableError extends LlmError {
  override name = 'LlmUnavailableError';
}

/** A ScriptedEngine ran out of recorded responses, or none matched the request. */
export class ScriptExhaustedError extends LlmError {
  override name = 'ScriptExhaustedError';
}

/** The engine spec string (`none`, `openai:URL#MODEL`) could not be parsed. */
export class EngineSpecError extends LlmError {
  override name = 'EngineSpecError';
}
