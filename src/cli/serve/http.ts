/**
 * The HTTP plumbing of `toolmem serve` (node:http, no framework): one error shape for every route
 * (OpenAI's `{ error: { message, type, code } }`, so router clients read ours like an upstream's),
 * messages clipped so no input is echoed at length and never a stack or a file path, and a body
 * reader with a byte limit (413) and the request's deadline (408), a bounded close for answers sent
 * before a body was read, and a nesting bound for JSON bodies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { clipInput } from '../../core/text/quote';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../mcp/json-depth';
import { stringify } from '../mcp/shared-json';

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

/** A JSON value's bytes as sent (the text of shared parts reused: shared-json.ts). */
export const jsonBytes = (value: unknown): Buffer => Buffer.from(stringify(value), 'utf8');

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.destroyed) return;
  sendJsonBytes(res, status, jsonBytes(value), headers);
}

/** The headers of a JSON answer of `length` bytes, after `headers` (in this order on the wire). */
export const jsonHeaders = (length: number, headers: Readonly<Record<string, string>> = {}): Record<string, string | number> => ({
  ...headers,
  'content-type': 'application/json; charset=utf-8',
  'content-length': length,
  'cache-control': 'no-store',
});

/** JSON already encoded (`jsonBytes`): the length is the buffer's, and the socket writes the same bytes. */
export function sendJsonBytes(res: ServerResponse, status: number, body: Buffer, headers: Readonly<Record<string, string>> = {}): void {
  sendPrepared(res, status, body, jsonHeaders(body.length, headers));
}

/** An answer whose bytes and whole headers (`jsonHeaders`) were made before; neither is changed here, so both may be shared. */
export function sendPrepared(res: ServerResponse, status: number, body: Buffer, headers: Readonly<Record<string, string | number>>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, headers as Record<string, string | number>);
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

/** The request's time limit: expires once; readers and the router subscribe to it. */
export class Deadline {
  private controller: AbortController | null = null;
  private listeners: (() => void)[] = [];
  expired = false;

  /** An AbortSignal that aborts when the deadline passes (made on first use: most requests never need one). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.expired) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** Calls `fn` when the deadline passes (at once if it has); returns the unsubscribe. */
  onExpire(fn: () => void): () => void {
    if (this.expired) {
      fn();
      return () => {};
    }
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  expire(): void {
    if (this.expired) return;
    this.expired = true;
    for (const fn of this.listeners.splice(0)) fn();
    this.controller?.abort();
  }
}

export interface BodyLimits {
  maxBytes: number;
  /** Rejects with the request's 408 when the request's deadline passes before the body is in. */
  deadline: Deadline;
}

const mib = (n: number) =>
  n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MiB` : n >= 1024 ? `${Math.round((n / 1024) * 10) / 10} KiB` : `${n} bytes`;

/**
 * The whole body, or an HttpError: 413 as soon as the declared or received size passes `maxBytes`
 * (the rest is not read: the answer closes the connection, see closeAfterAnswer), 408 when the
 * deadline passes first.
 */
export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limits.maxBytes) return Promise.reject(bodyTooLarge(limits.maxBytes));
  // One reader object with methods rather than a closure per listener: this runs for every request,
  // and the CLI's TypeScript loader (esbuild keepNames) names each closure it creates at run time.
  return new Promise((resolve, reject) => {
    const r = {
      chunks: [] as Buffer[],
      size: 0,
      unsubscribe: NOOP,
      data(chunk: Buffer) {
        r.size += chunk.length;
        if (r.size > limits.maxBytes) {
          r.chunks.length = 0;
          return r.finish(bodyTooLarge(limits.maxBytes));
        }
        r.chunks.push(chunk);
      },
      end() {
        r.finish(null, r.chunks.length === 1 ? r.chunks[0]! : Buffer.concat(r.chunks, r.size));
      },
      error() {
        r.finish(new HttpError(400, 'invalid_request_error', 'body_unreadable', 'The request body could not be read (the connection broke).'));
      },
      deadline() {
        r.finish(new HttpError(408, 'invalid_request_error', 'request_timeout', 'The request body did not arrive in time.', { connection: 'close' }));
      },
      finish(err: HttpError | null, body?: Buffer) {
        req.off('data', r.data);
        req.off('end', r.end);
        req.off('error', r.error);
        r.unsubscribe();
        if (!err) return resolve(body!);
        // What is not read stays in the socket; the error answer closes it after a bounded read.
        req.pause();
        reject(err);
      },
    };
    req.on('data', r.data);
    req.on('end', r.end);
    req.on('error', r.error);
    r.unsubscribe = limits.deadline.onExpire(r.deadline);
  });
}

const NOOP = () => {};

function bodyTooLarge(maxBytes: number): HttpError {
  return new HttpError(413, 'invalid_request_error', 'body_too_large', `The request body is larger than ${mib(maxBytes)}, the limit of this server.`);
}

/** Body bytes read after a refusal before the connection is cut (the answer is sent first). */
export const LINGER_BYTES = 64 * 1024;
/** Longest wait for the rest of a refused body before the connection is cut. */
export const LINGER_MS = 2_000;
/**
 * Once LINGER_BYTES are read and the client still sends, reading stops and the connection is cut
 * this long after. A close with unread bytes sends a reset, and the kernel drops whatever of ours
 * it still holds: cut at once, the answer (queued behind the ACKs of the body) can be lost and the
 * client sees ECONNRESET instead of its 413. Nothing more is read meanwhile.
 */
export const CUT_GRACE_MS = 250;

/** The cut of a socket: at once, or CUT_GRACE_MS after reading stopped; any later call is a no-op. */
function cutter(socket: Duplex): { now(): void; soon(): void } {
  let grace: NodeJS.Timeout | null = null;
  const limit = setTimeout(() => cut.now(), LINGER_MS);
  limit.unref();
  const cut = {
    now() {
      clearTimeout(limit);
      if (grace) clearTimeout(grace);
      socket.destroy();
    },
    soon() {
      if (grace || socket.destroyed) return;
      socket.pause();
      grace = setTimeout(() => cut.now(), CUT_GRACE_MS);
      grace.unref();
    },
  };
  socket.once('close', () => {
    clearTimeout(limit);
    if (grace) clearTimeout(grace);
  });
  return cut;
}

/**
 * For an answer sent before the request's body was read (401, 403, 404, 413, …): the answer says
 * `Connection: close`; once it is written the server half-closes (FIN) and reads and drops at most
 * LINGER_BYTES more of the body for at most LINGER_MS — so a client that sent a small body reads
 * the answer instead of a reset — then closes; a client still sending after LINGER_BYTES is cut
 * CUT_GRACE_MS later without another byte read. A 1 GB body is never read. (node:http would
 * otherwise read and drop the whole body to keep the connection.)
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse, opts: { expectsContinue?: boolean } = {}): void {
  res.shouldKeepAlive = false;
  if (!res.headersSent) res.setHeader('connection', 'close');
  const socket = req.socket;
  if (req.complete || socket.destroyed) return;
  const cut = cutter(socket);
  let read = 0;
  let answered = false;
  // A client waiting for "100 Continue" sends no body after a final answer: nothing to wait for.
  let bodyDone = opts.expectsContinue === true;
  let over = false;
  const maybeClose = () => {
    if (!answered) return;
    if (bodyDone) cut.now();
    else if (over) cut.soon();
  };
  // node:http ends the socket with destroySoon() once the answer is written: end it (FIN) but keep
  // reading, so what the client still sends is read rather than answered with a reset.
  socket.destroySoon = () => {
    if (!socket.destroyed) socket.end();
  };
  const onAnswered = () => {
    answered = true;
    maybeClose();
  };
  res.once('finish', onAnswered);
  res.once('close', onAnswered);
  req.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES && !over) {
      over = true;
      req.pause();
      maybeClose();
    }
  });
  req.once('end', () => {
    bodyDone = true;
    maybeClose();
  });
  req.once('error', () => cut.now());
  req.resume();
}

/** After a raw answer on a socket node:http gave up on (a malformed request): read at most LINGER_BYTES more for at most LINGER_MS, then close. */
export function lingerThenDestroy(socket: Duplex): void {
  const cut = cutter(socket);
  let read = 0;
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) cut.soon();
  });
  socket.once('end', () => cut.now());
  socket.on('error', () => cut.now());
  socket.resume();
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const tooDeep = () =>
  new HttpError(400, 'invalid_request_error', 'too_deep', `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`);

/** A JSON object body; 400 for anything else, with the parser's reason (bounded), or for nesting deeper than MAX_JSON_DEPTH. */
export function jsonObject(body: Buffer | string): Record<string, unknown> {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (nestsDeeperThan(text)) throw tooDeep();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, 'invalid_request_error', 'malformed_json', `The request body is not valid JSON (${(err as Error).message}).`);
  }
  if (!isObject(value))
    throw new HttpError(
      400,
      'invalid_request_error',
      'not_an_object',
      `The request body must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}.`,
    );
  return value;
}
