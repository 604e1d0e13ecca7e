/**
 * The HTTP plumbing of `toolmem serve` (node:http, no framework): one error shape for every route
 * (OpenAI's `{ error: { message, type, code } }`, so router clients read ours like an upstream's),
 * messages clipped so no input is echoed at length and never a stack or a file path, and a body
 * reader with a byte limit (413) and the request's deadline (408).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clipInput } from '../../core/text/quote';

/** Longest error message sent back. */
export const ERROR_MESSAGE_MAX = 300;

export type ErrorType = 'invalid_request_error' | 'authentication_error' | 'permission_error' | 'not_found_error' | 'upstream_error' | 'server_error';

/** A request answered with `status` and a bounded message; thrown by readers and checks. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(clipInput(message, ERROR_MESSAGE_MAX));
  }
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify(value);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, { error: { message: err.message, type: err.type, code: err.code } }, err.headers);
}

/**
 * A header value from text that may come from data (tool ids): printable ASCII kept, anything
 * else percent-encoded (node:http refuses control and non-Latin-1 characters), 300 characters at most.
 */
export function headerValue(text: string): string {
  return clipInput(text, ERROR_MESSAGE_MAX).replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));
}

export interface BodyLimits {
  maxBytes: number;
  /** Rejects with the request's 408 when the request's deadline passes before the body is in. */
  deadline: AbortSignal;
}

const mib = (n: number) => (n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MiB` : n >= 1024 ? `${Math.round((n / 1024) * 10) / 10} KiB` : `${n} bytes`);

/**
 * The whole body, or an HttpError: 413 as soon as the declared or received size passes `maxBytes`
 * (the rest is read and dropped, so the client gets the answer instead of a reset connection),
 * 408 when the deadline passes first.
 */
export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  // No 'connection: close' here: the rest of the body is drained (up to MAX_DRAIN_BYTES), so the
  // client that is still sending reads the 413 instead of a reset.
  const tooLarge = () => new HttpError(413, 'invalid_request_error', 'body_too_large', `The request body is larger than ${mib(limits.maxBytes)}, the limit of this server.`);
  const declared = Number(req.headers['content-length'] ?? NaN);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed: HttpError | null = Number.isFinite(declared) && declared > limits.maxBytes ? tooLarge() : null;
    const finish = (err: HttpError | null, body?: Buffer) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      limits.deadline.removeEventListener('abort', onDeadline);
      if (err) reject(err);
      else resolve(body!);
    };
    const onData = (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limits.maxBytes) {
        failed = tooLarge();
        chunks.length = 0;
        finish(failed);
        drain(req, size);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(failed, failed ? undefined : Buffer.concat(chunks, size));
    const onError = () => finish(new HttpError(400, 'invalid_request_error', 'body_unreadable', 'The request body could not be read (the connection broke).'));
    const onDeadline = () => finish(new HttpError(408, 'invalid_request_error', 'request_timeout', 'The request body did not arrive in time.', { connection: 'close' }));
    if (failed) {
      // Declared too large: answer at once, drain what comes.
      reject(failed);
      drain(req, 0);
      return;
    }
    if (limits.deadline.aborted) return onDeadline();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    limits.deadline.addEventListener('abort', onDeadline, { once: true });
  });
}

/** Past this many bytes of a refused body the connection is cut instead of drained. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/** Reads and drops the rest of a refused body, up to MAX_DRAIN_BYTES in all. */
function drain(req: IncomingMessage, seen: number): void {
  let total = seen;
  req.on('data', (c: Buffer) => {
    total += c.length;
    if (total > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.on('error', () => {});
  req.resume();
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSON object body; 400 for anything else, with the parser's reason (bounded). */
export function jsonObject(body: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new HttpError(400, 'invalid_request_error', 'malformed_json', `The request body is not valid JSON (${(err as Error).message}).`);
  }
  if (!isObject(value)) throw new HttpError(400, 'invalid_request_error', 'not_an_object', `The request body must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}.`);
  return value;
}
