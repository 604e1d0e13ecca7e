/**
 * `toolmem serve`'s refusals: the bearer token (every route but /healthz), the Origin and Host
 * checks, the body limit, malformed JSON, unknown routes and methods, a client that stalls its
 * body — each answered with its status and a bounded `{ error }`, and the server keeps serving.
 * Logs hold neither the token nor a prompt (unless logPrompts).
 */
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryCopy, post, servers, TOKEN, type Started } from './helpers';

const { start } = servers();
const TASK = 'A secret prompt about a violet giraffe';
const auth = { authorization: `Bearer ${TOKEN}` };
let s: Started;
let open: Started;

beforeAll(async () => {
  const memoryPath = await memoryCopy();
  s = await start({ memoryPath, token: TOKEN, maxBodyBytes: 64 * 1024, requestTimeoutMs: 400 });
  open = await start({ memoryPath, logPrompts: true, allowOrigins: ['https://app.example.com'] });
}, 60_000);

const select = { task: TASK, candidates: ['DALLE_3', 'SDXL_2_1'] };

describe('bearer token', () => {
  it('401 without it or with another one, 200 with it; /healthz needs none', async () => {
    const none = await post(`${s.url}/v1/select`, select);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="toolmem"');
    expect(none.json).toEqual({
      error: { message: 'This server needs a bearer token: send "Authorization: Bearer <token>".', type: 'authentication_error', code: 'missing_token' },
    });
    const wrong = await post(`${s.url}/v1/select`, select, { authorization: 'Bearer not-the-token-at-all' });
    expect([wrong.status, (wrong.json.error as { code: string }).code]).toEqual([401, 'invalid_token']);
    expect((await post(`${s.url}/mcp`, {}, {})).status).toBe(401);
    expect((await fetch(`${s.url}/readyz`)).status).toBe(401);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    const ok = await post(`${s.url}/v1/select`, select, auth);
    expect(ok.status).toBe(200);
    expect(ok.json.choice).toBe('DALLE_3');
  });

  it('the log names route, status and code, never the token or the prompt', async () => {
    await post(`${s.url}/v1/select`, select, { authorization: 'Bearer a-wrong-token-leaked?' });
    await post(`${s.url}/v1/predict`, { tool: 'Nope', task: TASK }, auth);
    expect(s.logs.some((l) => /^POST \/v1\/predict 404 [\d.]+ ms unknown_tool$/.test(l))).toBe(true);
    expect(s.logs.some((l) => /^POST \/v1\/select 401 [\d.]+ ms invalid_token$/.test(l))).toBe(true);
    for (const l of s.logs) {
      expect(l).not.toContain(TOKEN);
      expect(l).not.toContain('a-wrong-token-leaked');
      expect(l).not.toContain('giraffe');
    }
  });

  it('with logPrompts the task is logged (clipped, quoted)', async () => {
    expect((await post(`${open.url}/v1/select`, select)).status).toBe(200);
    expect(open.logs.some((l) => /^POST \/v1\/select 200 [\d.]+ ms task="A secret prompt about a violet giraffe"$/.test(l))).toBe(true);
  });
});

describe('Origin and Host', () => {
  it('a page of another origin gets 403 on /mcp (and every route); loopback pages and --allow-origin pass', async () => {
    const evil = await post(`${open.url}/mcp`, {}, { origin: 'http://rebind.example' });
    expect(evil.status).toBe(403);
    expect(evil.json.error).toMatchObject({ code: 'origin_not_allowed', type: 'permission_error' });
    expect((await post(`${open.url}/v1/select`, select, { origin: 'null' })).status).toBe(403);
    expect((await post(`${open.url}/v1/select`, select, { origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await post(`${open.url}/v1/select`, select, { origin: 'https://app.example.com' })).status).toBe(200);
  });

  it('a loopback server refuses a request for another host name (DNS rebinding)', async () => {
    const answer = await raw(open.url, `GET /readyz HTTP/1.1\r\nHost: rebind.example:80\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toContain('"code":"host_not_allowed"');
  });
});

/** Raw bytes on a socket (for what fetch will not send); resolves with the whole answer once the server closes. */
function raw(url: string, ...parts: string[]): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => parts.forEach((p) => socket.write(p)));
    let text = '';
    socket.on('data', (d) => (text += d.toString('utf8')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('limits', () => {
  it('413 for a body over the limit (declared or sent), then the server keeps serving', async () => {
    const big = await post(`${s.url}/v1/select`, 'x'.repeat(65 * 1024), auth);
    expect(big.status).toBe(413);
    expect(big.json.error).toEqual({
      message: 'The request body is larger than 64 KiB, the limit of this server.',
      type: 'invalid_request_error',
      code: 'body_too_large',
    });
    // Chunked (no Content-Length): the limit is counted while reading.
    const chunk = 'y'.repeat(40 * 1024);
    const chunked = await raw(
      s.url,
      `POST /v1/select HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n`,
      `${chunk.length.toString(16)}\r\n${chunk}\r\n`,
      `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
    );
    expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
    expect((await post(`${s.url}/v1/select`, select, auth)).status).toBe(200);
  });

  it('400 for malformed JSON and a non-object body, 404 for an unknown route, 405 for a wrong method', async () => {
    const bad = await post(`${s.url}/v1/predict`, '{"tool": "DALLE_3",', auth);
    expect([bad.status, (bad.json.error as { code: string }).code]).toEqual([400, 'malformed_json']);
    const list = await post(`${s.url}/v1/predict`, '[1,2]', auth);
    expect(list.json.error).toMatchObject({ code: 'not_an_object', message: 'The request body must be a JSON object, got an array.' });
    const args = await post(`${s.url}/v1/predict`, { tool: 'DALLE_3' }, auth);
    expect(args.json.error).toEqual({ message: "'task' is required (the task / prompt).", type: 'invalid_request_error', code: 'invalid_arguments' });
    const unknown = await post(`${s.url}/v1/nothing/here`, {}, auth);
    expect([unknown.status, (unknown.json.error as { code: string }).code]).toEqual([404, 'unknown_route']);
    const get = await fetch(`${s.url}/v1/select`, { headers: auth });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await fetch(`${s.url}/mcp`, { headers: auth })).status).toBe(405);
    // No answer holds a stack trace or a file path.
    for (const r of [bad, list, args, unknown]) expect(JSON.stringify(r.json)).not.toMatch(/at .*\.ts|\/tmp\/|\/work\//);
  });

  it('408 for a client that stops sending its body before the time limit; the server keeps serving', async () => {
    const answer = await raw(
      s.url,
      `POST /v1/select HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"task": "a ca`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"request_timeout"');
    expect((await post(`${s.url}/v1/select`, select, auth)).status).toBe(200);
  });
});

describe('CORS for --allow-origin', () => {
  const preflight = (url: string, origin: string, extra: Record<string, string> = {}) =>
    fetch(`${url}/v1/select`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type', ...extra },
    });

  it('a preflight from an allowed origin is answered 204 without the token: methods, headers, max-age', async () => {
    const t = await start({ memoryPath: await memoryCopy(), token: TOKEN, allowOrigins: ['https://app.example.com'] });
    const r = await preflight(t.url, 'https://app.example.com', { 'access-control-request-private-network': 'true' });
    expect(r.status).toBe(204);
    expect(Object.fromEntries([...r.headers].filter(([k]) => k.startsWith('access-control') || k === 'vary'))).toEqual({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id',
      'access-control-max-age': '600',
      'access-control-allow-private-network': 'true',
      'access-control-expose-headers': 'x-toolmem-memory, x-toolmem-tool, x-toolmem-reason, www-authenticate, retry-after',
      vary: 'Origin',
    });
    // The call itself: the token is needed, and the answer names the origin and what the page may read.
    const call = await post(`${t.url}/v1/select`, select, { ...auth, origin: 'https://app.example.com' });
    expect(call.status).toBe(200);
    expect([call.headers.get('access-control-allow-origin'), call.headers.get('vary')]).toEqual(['https://app.example.com', 'Origin']);
    expect(call.headers.get('access-control-expose-headers')).toContain('x-toolmem-memory');
    const refused = await post(`${t.url}/v1/select`, select, { origin: 'https://app.example.com' });
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([401, 'https://app.example.com']);
  });

  it('other origins get no CORS header at all: a preflight is refused, a loopback page is answered without one', async () => {
    const t = await start({ memoryPath: await memoryCopy(), allowOrigins: ['https://app.example.com'] });
    const evil = await preflight(t.url, 'https://evil.example');
    expect(evil.status).toBe(403);
    expect([...evil.headers.keys()].filter((k) => k.startsWith('access-control'))).toEqual([]);
    const local = await preflight(t.url, 'http://localhost:5173');
    expect([local.status, local.headers.get('access-control-allow-origin')]).toEqual([403, null]);
    const page = await post(`${t.url}/v1/select`, select, { origin: 'http://localhost:5173' });
    expect([page.status, page.headers.get('access-control-allow-origin')]).toEqual([200, null]);
    // Without --allow-origin nothing is CORS at all.
    expect((await preflight(open.url.replace(/\/$/, ''), 'https://other.example')).status).toBe(403);
  });
});
