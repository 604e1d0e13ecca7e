/**
 * `toolmem serve`'s HTTP server (node:http): one process (or one worker of `--workers`) answering
 *   GET  /healthz              liveness, no token needed
 *   GET  /readyz               the memory served (id, version hash, generation); 503 while draining
 *   POST /mcp                  MCP over Streamable HTTP (mcp-http.ts)
 *   POST /v1/predict, /v1/select, /v1/recall   the JSON API (api.ts)
 *   POST /v1/chat/completions  the OpenAI-compatible router (router.ts); GET /v1/models lists its routes
 *   OPTIONS (a CORS preflight)  answered for the --allow-origin origins (cors.ts), without the token
 * Every answer from a memory carries `x-toolmem-memory` (the hash of the file it came from). A
 * request takes the memory once, at its start (hot reload: memory-holder.ts). Limits: the guard's
 * checks (guard.ts) before anything is read, a body limit (413), a nesting limit for JSON (400),
 * one deadline per request (408 while the body is still coming, 504 after), at most `maxSessions`
 * MCP exchanges at once (503). An answer given before the body was read closes the connection
 * after reading at most 64 KiB more of it (http.ts closeAfterAnswer); a client that asks for
 * "100 Continue" gets it only once the request has passed every check. Errors never carry a stack
 * or a path: unexpected ones are logged and answered 500 "internal error". Logs name method,
 * route, status and time — never a header (the token) and never a prompt unless `logPrompts`.
 * Shutdown without resets: drain.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ToolHandlers } from '../mcp/server';
import { clipInput } from '../../core/text/quote';
import { AnswerCache } from './answer-cache';
import { API_TOOLS, apiAnswer } from './api';
import { createCors, type Cors } from './cors';
import { afterAcceptGrace, ConnectionTracker, drainServer, stopListening } from './drain';
import { createGuard, isLoopbackHost, type Guard } from './guard';
import {
  closeAfterAnswer,
  Deadline,
  HttpError,
  jsonBytes,
  jsonHeaders,
  jsonObject,
  lingerThenDestroy,
  readBody,
  sendError,
  sendJson,
  sendPrepared,
} from './http';
import { handleMcpPost, mcpMethodNotAllowed } from './mcp-http';
import type { Loaded, MemoryHolder } from './memory-holder';
import { handleChat } from './router';
import type { RouteTable } from './routes';

export interface Served {
  handlers: ToolHandlers;
  /** The handlers with the route file's prices, for the router's pick. */
  routed: ToolHandlers;
}

export interface ServeConfig {
  holder: MemoryHolder<Served>;
  routes: RouteTable | null;
  host: string;
  port: number;
  token: string | null;
  allowOrigins: readonly string[];
  logPrompts: boolean;
  maxBodyBytes: number;
  requestTimeoutMs: number;
  maxSessions: number;
  log(line: string): void;
  version?: string;
}

export interface ServeApp {
  url: string;
  port: number;
  /** Stops accepting, lets requests in flight finish (at most `drainMs`), closes idle connections gracefully (drain.ts). */
  close(drainMs?: number): Promise<void>;
  /**
   * Stops accepting new connections and nothing else: the open ones are served as before (a
   * cluster's first shutdown step, so no worker is handed a connection while the others drain).
   */
  stopListening(): void;
}

/** What one request carries through the routing: its deadline, whether its body was read. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  deadline: Deadline;
  bodyRead: boolean;
  expectsContinue: boolean;
  /** What the request's log line says: the error code of its answer, its task text (`--log-prompts`). */
  code: string;
  task: string | undefined;
}

/** One server's configuration, checks and what it has in flight. */
interface ServeState {
  cfg: ServeConfig;
  guard: Guard;
  cors: Cors;
  tracker: ConnectionTracker | null;
  /** Responses not finished yet: told to close their connection when the server drains. */
  inFlight: Set<ServerResponse>;
  sessions: number;
  /** Stopping: /readyz answers 503. */
  notReady: boolean;
  /** The listener is closed: every answer closes its connection. */
  draining: boolean;
  /** The JSON API's answers per loaded memory (a reload gets an empty cache). */
  answers: WeakMap<Loaded<Served>, AnswerCache>;
}

/** A route's answer; resolves with the request's task text when it has one (for `--log-prompts`). */
type Answer = (st: ServeState, x: Exchange, loaded: Loaded<Served>) => Promise<string | undefined> | undefined;

const ROUTES: ReadonlyMap<string, { method: 'GET' | 'POST'; answer: Answer }> = new Map([
  ['/healthz', { method: 'GET', answer: healthz }],
  ['/readyz', { method: 'GET', answer: readyz }],
  ['/mcp', { method: 'POST', answer: mcp }],
  ['/v1/predict', { method: 'POST', answer: api }],
  ['/v1/select', { method: 'POST', answer: api }],
  ['/v1/recall', { method: 'POST', answer: api }],
  ['/v1/chat/completions', { method: 'POST', answer: chat }],
  ['/v1/models', { method: 'GET', answer: models }],
]);
const ROUTE_LIST = [...ROUTES].map(([p, r]) => `${r.method} ${p}`).join(', ');

const memoryHeader = (loaded: Loaded<Served>) => ({ 'x-toolmem-memory': loaded.sha });

async function body(st: ServeState, x: Exchange): Promise<Buffer> {
  if (x.expectsContinue && !x.res.headersSent) x.res.writeContinue();
  const b = await readBody(x.req, { maxBytes: st.cfg.maxBodyBytes, deadline: x.deadline });
  x.bodyRead = true;
  return b;
}

function healthz(_st: ServeState, x: Exchange): undefined {
  sendJson(x.res, 200, { status: 'ok' });
  return undefined;
}

function readyz(st: ServeState, x: Exchange, loaded: Loaded<Served>): undefined {
  const ready = {
    ready: !st.notReady,
    pid: process.pid,
    memory: {
      id: loaded.file.memory.id,
      name: loaded.file.memory.name,
      sha256: loaded.sha,
      generation: loaded.generation,
      loadedAt: new Date(loaded.loadedAt).toISOString(),
      tools: loaded.file.tools.length,
    },
    routes: st.cfg.routes ? [...st.cfg.routes.routes.keys()] : [],
  };
  sendJson(x.res, st.notReady ? 503 : 200, ready, memoryHeader(loaded));
  return undefined;
}

function models(st: ServeState, x: Exchange, loaded: Loaded<Served>): undefined {
  const data = [...(st.cfg.routes?.routes.keys() ?? [])].map((id) => ({ id, object: 'model', owned_by: 'toolmem' }));
  sendJson(x.res, 200, { object: 'list', data }, memoryHeader(loaded));
  return undefined;
}

async function mcp(st: ServeState, x: Exchange, loaded: Loaded<Served>): Promise<undefined> {
  const { cfg } = st;
  if (st.sessions >= cfg.maxSessions)
    throw new HttpError(503, 'server_error', 'too_many_sessions', `This server runs at most ${cfg.maxSessions} MCP exchanges at once; retry shortly.`, {
      'retry-after': '1',
    });
  st.sessions++;
  try {
    const text = (await body(st, x)).toString('utf8');
    x.res.setHeader('x-toolmem-memory', loaded.sha);
    await handleMcpPost(x.req, x.res, text, loaded.prepared.handlers, cfg.version ?? '0.1.0');
  } finally {
    st.sessions--;
  }
  return undefined;
}

/**
 * /v1/predict, /v1/select, /v1/recall. A body this memory answered before is answered with the
 * same bytes (answer-cache.ts): the answer depends on the memory and the body's arguments alone,
 * looked up first by the body text (no parse), then by the parsed body.
 */
async function api(st: ServeState, x: Exchange, loaded: Loaded<Served>): Promise<string | undefined> {
  const text = (await body(st, x)).toString('utf8');
  let answers = st.answers.get(loaded);
  if (!answers) st.answers.set(loaded, (answers = new AnswerCache()));
  const kept = answers.get(x.path, text);
  if (kept) {
    sendPrepared(x.res, 200, kept.bytes, kept.headers);
    return kept.task;
  }
  const json = jsonObject(text);
  // The same arguments in other bytes (spacing, escapes, a client's own formatting) share one answer:
  // the parsed body written back compactly is the second key (key order kept: it is what was sent).
  const parsedKey = JSON.stringify(json);
  const same = answers.get(PARSED_ROUTE(x.path), parsedKey);
  if (same) {
    sendPrepared(x.res, 200, same.bytes, same.headers);
    return same.task;
  }
  const bytes = jsonBytes(await apiAnswer(loaded.prepared.handlers, API_TOOLS.get(x.path)!, json));
  const answer = { bytes, headers: jsonHeaders(bytes.length, memoryHeader(loaded)), task: typeof json.task === 'string' ? json.task : undefined };
  answers.set(x.path, text, answer);
  answers.set(PARSED_ROUTE(x.path), parsedKey, answer);
  sendPrepared(x.res, 200, bytes, answer.headers);
  return answer.task;
}

/** The answer cache's route for keys that are parsed bodies rather than body texts (never a real path: no leading slash). */
const PARSED_ROUTE = (path: string) => `parsed${path}`;

async function chat(st: ServeState, x: Exchange, loaded: Loaded<Served>): Promise<string> {
  const json = jsonObject(await body(st, x));
  const table = st.cfg.routes;
  if (!table) throw new HttpError(404, 'not_found_error', 'no_routes', 'This server has no routes: start it with --routes FILE to serve /v1/chat/completions.');
  const done = await handleChat(x.res, json, { table, handlers: loaded.prepared.routed, headers: memoryHeader(loaded), deadline: x.deadline.signal });
  return done.task;
}

/** The checks every route but GET /healthz passes, in order; a CORS preflight is answered here (true). */
function preflightOrChecks(st: ServeState, { req, res }: Exchange): boolean {
  st.guard.checkHost(req.headers);
  st.guard.checkOrigin(req.headers);
  const preflight = st.cors.preflight(req.method, req.headers);
  if (preflight) {
    res.writeHead(preflight.status, { ...preflight.headers, 'content-length': 0 }).end();
    return true;
  }
  st.guard.checkToken(req.headers, req.socket);
  return false;
}

async function route(st: ServeState, x: Exchange): Promise<string | undefined> {
  const { req, res, path } = x;
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const r = ROUTES.get(path);
  if (path === '/healthz' && method === 'GET') return healthz(st, x);
  if (preflightOrChecks(st, x)) return undefined;
  if (r === undefined)
    throw new HttpError(
      404,
      'not_found_error',
      'unknown_route',
      `No route ${clipInput(req.method ?? '', 20)} ${clipInput(path, 80)}: this server has ${ROUTE_LIST}.`,
    );
  if (path === '/mcp' && method !== 'POST') return void mcpMethodNotAllowed(res);
  if (method !== r.method) throw new HttpError(405, 'invalid_request_error', 'method_not_allowed', `${path} answers ${r.method} only.`, { allow: r.method });
  return r.answer(st, x, st.cfg.holder.current);
}

/** The error's answer; one sent before the body was read closes the connection (bounded). Returns the error's code. */
function answerError(st: ServeState, x: Exchange, err: unknown): string {
  const { req, res, path } = x;
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody && !x.bodyRead && !res.headersSent) closeAfterAnswer(req, res, { expectsContinue: x.expectsContinue });
  if (err instanceof HttpError) {
    sendError(res, err);
    return err.code;
  }
  st.cfg.log(`internal error on ${clipInput(path, 80)}: ${clipInput((err as Error)?.message ?? String(err), 300)}`);
  if (!res.headersSent) sendError(res, new HttpError(500, 'server_error', 'internal', 'Internal error (logged on the server).'));
  else res.destroy();
  return 'internal';
}

/** The request's deadline passed: 504 when nothing was sent yet, else the answer is cut. */
function deadlinePassed(st: ServeState, x: Exchange): void {
  // After the body reader's own 408 (it rejects first, in this same turn).
  setImmediate(() => {
    if (!x.res.headersSent) {
      const seconds = `${st.cfg.requestTimeoutMs / 1000} s`;
      x.code = 'deadline';
      answerError(st, x, new HttpError(504, 'server_error', 'deadline', `No answer within ${seconds}, this server's time limit per request.`));
    } else if (!x.res.writableEnded) x.res.destroy();
  });
}

/** The log line of a request that failed (every request with `--log-prompts`). */
function logRequest(st: ServeState, x: Exchange, t0: number): void {
  const { cfg } = st;
  const status = x.res.statusCode;
  if (status < 400 && !cfg.logPrompts) return;
  const prompt = cfg.logPrompts && x.task !== undefined ? ` task=${JSON.stringify(clipInput(x.task, 200))}` : '';
  cfg.log(`${x.req.method} ${clipInput(x.path, 80)} ${status} ${(performance.now() - t0).toFixed(1)} ms${x.code ? ` ${x.code}` : ''}${prompt}`);
}

async function handle(st: ServeState, req: IncomingMessage, res: ServerResponse, expectsContinue = false): Promise<void> {
  const t0 = performance.now();
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const x: Exchange = { req, res, path, deadline: new Deadline(), bodyRead: false, expectsContinue, code: '', task: undefined };
  const timer = setTimeout(() => x.deadline.expire(), st.cfg.requestTimeoutMs);
  const done = st.tracker!.begin(req.socket);
  st.inFlight.add(res);
  if (st.draining) res.shouldKeepAlive = false;
  const corsHeaders = req.headers.origin === undefined ? null : st.cors.answerHeaders(req.headers);
  if (corsHeaders) for (const k in corsHeaders) res.setHeader(k, corsHeaders[k]!);
  res.once('close', () => {
    clearTimeout(timer);
    st.inFlight.delete(res);
    done();
    logRequest(st, x, t0);
  });
  x.deadline.onExpire(() => deadlinePassed(st, x));
  try {
    x.task = await route(st, x);
  } catch (err) {
    x.code = answerError(st, x, err);
  }
}

/**
 * Node's own answers to what never became a request: headers too slow (408), too large (431),
 * unparsable or ambiguous — conflicting Content-Length / Transfer-Encoding, bad chunking (400).
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const status =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? '408 Request Timeout'
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : '400 Bad Request';
  if (!socket.writable) return void socket.destroy();
  socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  lingerThenDestroy(socket);
}

function httpServer(st: ServeState): Server {
  const ms = st.cfg.requestTimeoutMs;
  const server = createServer(
    { headersTimeout: Math.min(10_000, ms), requestTimeout: ms * 2, keepAliveTimeout: 5_000, connectionsCheckingInterval: Math.min(1_000, ms) },
    (req, res) => void handle(st, req, res),
  );
  st.tracker = new ConnectionTracker(server);
  // "Expect: 100-continue": the checks run first; only a request that passes them is told to send its body.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => void handle(st, req, res, true));
  server.on('clientError', answerClientError);
  return server;
}

/** Stops the server without resetting anyone (drain.ts). */
async function closeServe(st: ServeState, server: Server, drainMs: number): Promise<void> {
  st.notReady = true;
  if (server.listening) await afterAcceptGrace();
  // From the moment the listener is closed every answer says Connection: close (drain.ts).
  void stopListening(server);
  st.draining = true;
  for (const res of st.inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
  await drainServer(server, st.tracker!, drainMs);
}

export async function startServe(cfg: ServeConfig): Promise<ServeApp> {
  const st: ServeState = {
    cfg,
    guard: createGuard({ token: cfg.token, allowOrigins: cfg.allowOrigins, loopback: isLoopbackHost(cfg.host) }),
    cors: createCors(cfg.allowOrigins),
    tracker: null,
    inFlight: new Set(),
    sessions: 0,
    notReady: false,
    draining: false,
    answers: new WeakMap(),
  };
  const server = httpServer(st);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(cfg.port, cfg.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shown = cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host;
  return {
    url: `http://${shown}:${port}`,
    port,
    stopListening: () => void stopListening(server),
    close: (drainMs = 10_000) => closeServe(st, server, drainMs),
  };
}
