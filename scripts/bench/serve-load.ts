/**
 * The client side of bench:serve: keep-alive HTTP on loopback (node:http), one latency sample
 * per request with the memory version (`x-toolmem-memory`) it was answered from, and the
 * percentile summary. Kept apart from serve-bench.ts, which runs the scenario.
 */
import { Agent, request } from 'node:http';

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
    const done = (status: number, memory: string, text: string, broken: boolean) => resolve({ kind, start, ms: performance.now() - start, status, memory, broken, text });
    const body = call.body ?? '';
    const req = request(call.url, { method: call.method ?? 'POST', agent: call.stallAfter ? false : agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...call.headers } }, (res) => {
      const chunks: Buffer[] = [];
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
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ kind, start, ms: performance.now() - start, status: 0, memory: '', broken: false, text: '', error: err.code ?? err.message }));
    if (call.stallAfter !== undefined) req.write(typeof body === 'string' ? body.slice(0, call.stallAfter) : body.subarray(0, call.stallAfter));
    else req.end(body);
  });
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function summary(samples: readonly Sample[]): { n: number; p50: number; p99: number; max: number } {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  return { n: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.at(-1) ?? NaN };
}
