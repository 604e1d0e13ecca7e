/**
 * The client side of bench:serve. Two clients:
 *  - `send`: one request over node:http keep-alive (the fault scenario: any method, headers, a
 *    slow body), with the memory version (`x-toolmem-memory`) it was answered from;
 *  - `closedLoop`: N keep-alive connections on raw sockets, each sending one pre-built request
 *    and the next as soon as the answer is in (what autocannon does), for a fixed time. It parses
 *    no more than the status line and Content-Length, so the client costs a few µs per request
 *    and the figures measure the server, not node:http's client.
 * Plus the percentile summary. Kept apart from serve-bench.ts, which runs the scenarios.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface Sample {
  kind: string;
  start: number;
  ms: number;
  status: number;
  /** The memory hash of the answer, '' when none (a direct upstream call, a failure). */
  memory: string;
  /** The body was cut off or was not the JSON it claims to be. */
  broken: boolean;
  /** The network error of a request that got no answer (status 0). */
  error?: string;
}

/**
 * Keep-alive sockets, each dropped after 4 s idle: the server closes idle ones at 5 s, and a
 * request sent on a socket the server is closing at that moment is reset (the keep-alive race
 * every HTTP client has; a real client retries it, the bench would count it as a failure).
 */
export const agent = new Agent({ keepAlive: true, maxSockets: 400, timeout: 4000 });

export interface Call {
  method?: string;
  url: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Write the first `stallAfter` bytes of the body, then nothing (a slow client). */
  stallAfter?: number;
}

/** One request; never rejects (a network failure is status 0). */
export function send(kind: string, call: Call): Promise<Sample & { text: string }> {
  const start = performance.now();
  return new Promise((resolve) => {
    const done = (status: number, memory: string, text: string, broken: boolean) =>
      resolve({ kind, start, ms: performance.now() - start, status, memory, broken, text });
    const body = call.body ?? '';
    // An answer that arrived before the connection broke counts (a refusal sent while the body is
    // still being written, then the connection cut), marked broken if its body did not end.
    let answered: { status: number; chunks: Buffer[] } | null = null;
    const req = request(
      call.url,
      {
        method: call.method ?? 'POST',
        agent: call.stallAfter ? false : agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...call.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        answered = { status: res.statusCode ?? 0, chunks };
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => done(res.statusCode ?? 0, '', '', true));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const type = String(res.headers['content-type'] ?? '');
          let broken = false;
          if (type.startsWith('application/json')) {
            try {
              JSON.parse(text);
            } catch {
              broken = true;
            }
          } else if (type.startsWith('text/event-stream')) broken = !text.trimEnd().endsWith('data: [DONE]');
          done(res.statusCode ?? 0, String(res.headers['x-toolmem-memory'] ?? ''), text, broken);
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      const got = answered as { status: number; chunks: Buffer[] } | null;
      const text = got ? Buffer.concat(got.chunks).toString('utf8') : '';
      resolve({ kind, start, ms: performance.now() - start, status: got?.status ?? 0, memory: '', broken: got !== null, text, error: err.code ?? err.message });
    });
    if (call.stallAfter !== undefined) req.write(typeof body === 'string' ? body.slice(0, call.stallAfter) : body.subarray(0, call.stallAfter));
    else req.end(body);
  });
}

/** The bytes of one HTTP/1.1 request with a body (keep-alive), to be sent as they are. */
export function rawRequest(opts: { path: string; port: number; body: string; headers?: Record<string, string> }): Buffer {
  const head = [
    `POST ${opts.path} HTTP/1.1`,
    `host: 127.0.0.1:${opts.port}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(opts.body)}`,
  ];
  for (const [k, v] of Object.entries(opts.headers ?? {})) head.push(`${k}: ${v}`);
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${opts.body}`);
}

export interface LoopResult {
  /** Answers received within the time. */
  count: number;
  /** Each answer's start (performance.now()) and latency in ms, in the order they came (with `samples`). */
  samples?: { start: number; ms: number }[];
  /** Answers per second. */
  rate: number;
  /** Latencies in ms, sorted. */
  ms: number[];
  /** Answers whose status was not 2xx, and connections that failed. */
  non2xx: number;
  errors: number;
}

/** Where a chunked body that starts at `from` ends (after its last chunk's CRLF), or -1 while it is incomplete (no trailers expected). */
function chunkedEnd(buf: Buffer, from: number): number {
  let pos = from;
  for (;;) {
    const eol = buf.indexOf('\r\n', pos);
    if (eol < 0) return -1;
    const size = parseInt(buf.toString('latin1', pos, eol), 16);
    pos = eol + 2;
    if (size === 0) return buf.length >= pos + 2 ? pos + 2 : -1;
    if (buf.length < pos + size + 2) return -1;
    pos += size + 2;
  }
}

/**
 * One connection's response parser: calls `done(status)` per complete answer, its body framed by
 * Content-Length or chunked (an answer without either has no body: the bench sends POSTs only).
 */
function responses(done: (status: number, close: boolean) => void): (chunk: Buffer) => void {
  let buf: Buffer | null = null;
  return (chunk) => {
    buf = buf ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      const end: number = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head: string = buf.toString('latin1', 0, end);
      const chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
      const stop: number = chunked ? chunkedEnd(buf, end + 4) : end + 4 + Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (stop < 0 || buf.length < stop) return;
      const status = Number(head.slice(9, 12));
      const close = /\r\nconnection:\s*close/i.test(head);
      buf = buf.length === stop ? null : buf.subarray(stop);
      done(status, close);
      if (!buf) return;
    }
  };
}

/**
 * `connections` closed-loop clients against 127.0.0.1:`port`, each sending the next request as
 * soon as its answer is in, for `ms` milliseconds or until `total` requests were sent. Requests are
 * taken in turn from `requests` (cycling), one counter for all connections.
 */
export interface LoopOptions {
  port: number;
  requests: readonly Buffer[];
  connections: number;
  ms: number;
  /** Stop after this many requests in all. */
  total?: number;
  /** Keep each answer's start and latency. */
  samples?: boolean;
  stop?: { now: boolean };
  /** Each connection sends at most one request per `paceMs` (a client that waits before its next call); first sends spread over one period. */
  paceMs?: number;
}

export async function closedLoop(opts: LoopOptions): Promise<LoopResult> {
  const latencies: number[] = [];
  const samples: { start: number; ms: number }[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  const t0 = performance.now();
  const until = t0 + opts.ms;
  const total = opts.total ?? Infinity;
  const one = () =>
    new Promise<void>((resolve) => {
      let sentAt = 0;
      let socket: Socket;
      let due = performance.now() + (opts.paceMs ? Math.random() * opts.paceMs : 0);
      const next = () => {
        if (performance.now() >= until || sent >= total || opts.stop?.now) {
          socket.end();
          return resolve();
        }
        const wait = due - performance.now();
        if (wait > 0) return void setTimeout(next, wait);
        sentAt = performance.now();
        due = sentAt + (opts.paceMs ?? 0);
        socket.write(opts.requests[sent++ % opts.requests.length]!);
      };
      const open = () => {
        socket = connect({ port: opts.port, host: '127.0.0.1', noDelay: true });
        socket.on('connect', next);
        socket.on(
          'data',
          responses((status, close) => {
            const ms = performance.now() - sentAt;
            latencies.push(ms);
            if (opts.samples) samples.push({ start: sentAt, ms });
            if (status < 200 || status >= 300) non2xx++;
            if (close) {
              socket.removeAllListeners();
              socket.destroy();
              if (performance.now() >= until || sent >= total) return resolve();
              return open();
            }
            next();
          }),
        );
        socket.on('error', () => {
          errors++;
          socket.destroy();
          if (performance.now() >= until || sent >= total) resolve();
          else setTimeout(open, 10);
        });
      };
      open();
    });
  await Promise.all(Array.from({ length: opts.connections }, one));
  const wall = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { count: latencies.length, rate: latencies.length / wall, ms: latencies, non2xx, errors, ...(opts.samples ? { samples } : {}) };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function summary(samples: readonly Sample[]): { n: number; p50: number; p99: number; max: number } {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  return { n: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.at(-1) ?? NaN };
}
