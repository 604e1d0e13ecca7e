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
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolHandlers } from '../mcp/server';
import { clipInput } from '../../core/text/quote';
import { API_TOOLS, apiAnswer } from './api';
import { createCors } from './cors';
import { afterAcceptGrace, ConnectionTracker, drainServer, stopListening } from './drain';
import { createGuard, isLoopbackHost } from './guard';
import { closeAfterAnswer, Deadline, HttpError, jsonObject, lingerThenDestroy, readBody, sendError, sendJson } from './http';
import { handleMcpPost, mcpMethodNotAllowed } from './mcp-http';
import type { MemoryHolder } from './memory-holder';
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

const METHODS: ReadonlyMap<string, string> = new Map([
  ['/healthz', 'GET'],
  ['/readyz', 'GET'],
  ['/mcp', 'POST'],
  ['/v1/predict', 'POST'],
  ['/v1/select', 'POST'],
  ['/v1/recall', 'POST'],
  ['/v1/chat/completions', 'POST'],
  ['/v1/models', 'GET'],
]);
const ROUTE_LIST = [...METHODS].map(([p, m]) => `${m} ${p}`).join(', ');

/** What one request carries through the routing: its deadline, whether its body was read, the CORS headers of its answers. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  deadline: Deadline;
  bodyRead: boolean;
  expectsContinue: boolean;
}

export async function startServe(cfg: ServeConfig): Promise<ServeApp> {
  const guard = createGuard({ token: cfg.token, allowOrigins: cfg.allowOrigins, loopback: isLoopbackHost(cfg.host) });
  const cors = createCors(cfg.allowOrigins);
  /** Responses not finished yet: told to close their connection when the server drains. */
  const inFlight = new Set<ServerResponse>();
  let sessions = 0;
  /** Stopping: /readyz answers 503. */
  let notReady = false;
  /** The listener is closed: every answer closes its connection. */
  let draining = false;
  const seconds = `${cfg.requestTimeoutMs / 1000} s`;

  async function body(x: Exchange): Promise<Buffer> {
    if (x.expectsContinue && !x.res.headersSent) x.res.writeContinue();
    const b = await readBody(x.req, { maxBytes: cfg.maxBodyBytes, deadline: x.deadline });
    x.bodyRead = true;
    return b;
  }

  async function route(x: Exchange): Promise<string | undefined> {
    const { req, res, path } = x;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const allowed = METHODS.get(path);
    if (path === '/healthz' && method === 'GET') return void sendJson(res, 200, { status: 'ok' });
    guard.checkHost(req.headers);
    guard.checkOrigin(req.headers);
    const preflight = cors.preflight(req.method, req.headers);
    if (preflight) {
      res.writeHead(preflight.status, { ...preflight.headers, 'content-length': 0 }).end();
      return undefined;
    }
    guard.checkToken(req.headers, req.socket);
    if (allowed === undefined)
      throw new HttpError(
        404,
        'not_found_error',
        'unknown_route',
        `No route ${clipInput(req.method ?? '', 20)} ${clipInput(path, 80)}: this server has ${ROUTE_LIST}.`,
      );
    if (path === '/mcp' && method !== 'POST') return void mcpMethodNotAllowed(res);
    if (method !== allowed) throw new HttpError(405, 'invalid_request_error', 'method_not_allowed', `${path} answers ${allowed} only.`, { allow: allowed });
    const loaded = cfg.holder.current;
    const memory = { 'x-toolmem-memory': loaded.sha };
    if (path === '/readyz') {
      const ready = {
        ready: !notReady,
        pid: process.pid,
        memory: {
          id: loaded.file.memory.id,
          name: loaded.file.memory.name,
          sha256: loaded.sha,
          generation: loaded.generation,
          loadedAt: new Date(loaded.loadedAt).toISOString(),
          tools: loaded.file.tools.length,
        },
        routes: cfg.routes ? [...cfg.routes.routes.keys()] : [],
      };
      return void sendJson(res, notReady ? 503 : 200, ready, memory);
    }
    if (path === '/v1/models') {
      return void sendJson(
        res,
        200,
        { object: 'list', data: [...(cfg.routes?.routes.keys() ?? [])].map((id) => ({ id, object: 'model', owned_by: 'toolmem' })) },
        memory,
      );
    }
    if (path === '/mcp') {
      if (sessions >= cfg.maxSessions)
        throw new HttpError(503, 'server_error', 'too_many_sessions', `This server runs at most ${cfg.maxSessions} MCP exchanges at once; retry shortly.`, {
          'retry-after': '1',
        });
      sessions++;
      try {
        const text = (await body(x)).toString('utf8');
        res.setHeader('x-toolmem-memory', loaded.sha);
        await handleMcpPost(req, res, text, loaded.prepared.handlers, cfg.version ?? '0.1.0');
      } finally {
        sessions--;
      }
      return undefined;
    }
    const json = jsonObject(await body(x));
    const tool = API_TOOLS.get(path);
    if (tool) {
      sendJson(res, 200, await apiAnswer(loaded.prepared.handlers, tool, json), memory);
      return typeof json.task === 'string' ? json.task : undefined;
    }
    if (!cfg.routes)
      throw new HttpError(404, 'not_found_error', 'no_routes', 'This server has no routes: start it with --routes FILE to serve /v1/chat/completions.');
    const done = await handleChat(res, json, { table: cfg.routes, handlers: loaded.prepared.routed, headers: memory, deadline: x.deadline.signal });
    return done.task;
  }

  /** The error's answer; one sent before the body was read closes the connection (bounded). */
  function answerError(x: Exchange, err: unknown): string {
    const { req, res, path } = x;
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (hasBody && !x.bodyRead && !res.headersSent) closeAfterAnswer(req, res, { expectsContinue: x.expectsContinue });
    if (err instanceof HttpError) {
      sendError(res, err);
      return err.code;
    }
    cfg.log(`internal error on ${clipInput(path, 80)}: ${clipInput((err as Error)?.message ?? String(err), 300)}`);
    if (!res.headersSent) sendError(res, new HttpError(500, 'server_error', 'internal', 'Internal error (logged on the server).'));
    else res.destroy();
    return 'internal';
  }

  async function handle(req: IncomingMessage, res: ServerResponse, expectsContinue = false): Promise<void> {
    const t0 = performance.now();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const x: Exchange = { req, res, path: q < 0 ? url : url.slice(0, q), deadline: new Deadline(), bodyRead: false, expectsContinue };
    const timer = setTimeout(() => x.deadline.expire(), cfg.requestTimeoutMs);
    const done = tracker.begin(req.socket);
    inFlight.add(res);
    if (draining) res.shouldKeepAlive = false;
    const corsHeaders = req.headers.origin === undefined ? null : cors.answerHeaders(req.headers);
    if (corsHeaders) for (const k in corsHeaders) res.setHeader(k, corsHeaders[k]!);
    let code = '';
    let task: string | undefined;
    res.once('close', () => {
      clearTimeout(timer);
      inFlight.delete(res);
      done();
      if (res.statusCode >= 400 || cfg.logPrompts) {
        const prompt = cfg.logPrompts && task !== undefined ? ` task=${JSON.stringify(clipInput(task, 200))}` : '';
        cfg.log(`${req.method} ${clipInput(x.path, 80)} ${res.statusCode} ${(performance.now() - t0).toFixed(1)} ms${code ? ` ${code}` : ''}${prompt}`);
      }
    });
    x.deadline.onExpire(() => {
      // After the body reader's own 408 (it rejects first, in this same turn).
      setImmediate(() => {
        if (!res.headersSent) {
          code = 'deadline';
          answerError(x, new HttpError(504, 'server_error', 'deadline', `No answer within ${seconds}, this server's time limit per request.`));
        } else if (!res.writableEnded) res.destroy();
      });
    });
    try {
      task = await route(x);
    } catch (err) {
      code = answerError(x, err);
    }
  }

  const server = createServer(
    {
      headersTimeout: Math.min(10_000, cfg.requestTimeoutMs),
      requestTimeout: cfg.requestTimeoutMs * 2,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: Math.min(1_000, cfg.requestTimeoutMs),
    },
    (req, res) => void handle(req, res),
  );
  const tracker = new ConnectionTracker(server);
  // "Expect: 100-continue": the checks run first; only a request that passes them is told to send its body.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => void handle(req, res, true));
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    // Node's own answers to what never became a request: headers too slow (408), too large (431),
    // unparsable or ambiguous — conflicting Content-Length / Transfer-Encoding, bad chunking (400).
    const status =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? '408 Request Timeout'
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? '431 Request Header Fields Too Large'
          : '400 Bad Request';
    if (!socket.writable) return void socket.destroy();
    socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    lingerThenDestroy(socket);
  });
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
    close: async (drainMs = 10_000) => {
      notReady = true;
      if (server.listening) await afterAcceptGrace();
      // From the moment the listener is closed every answer says Connection: close (drain.ts).
      void stopListening(server);
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      await drainServer(server, tracker, drainMs);
    },
  };
}
