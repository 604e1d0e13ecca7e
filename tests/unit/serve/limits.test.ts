/**
 * What `toolmem serve` refuses without reading (issue #35): an answer given before the body was read
 * (401, 413, 404, …) says `Connection: close` and the connection is cut after at most 64 KiB more
 * of the body; "Expect: 100-continue" is granted only after the checks; JSON nested deeper than 64
 * levels is a 400 on every route (the router included) and -32602 on /mcp; a JSON-RPC batch of more
 * than 100 calls gets one error. After each, the server keeps serving.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeAfterAnswer, HttpError, LINGER_BYTES, sendError } from '../../../src/cli/serve/http';
import { memoryCopy, post, servers, TOKEN, writeJson, type Started } from './helpers';

const { start, upstream } = servers();
const auth = { authorization: `Bearer ${TOKEN}` };
const select = { task: 'A red cube on a blue sphere', candidates: ['DALLE_3', 'SDXL_2_1'] };
let s: Started;

beforeAll(async () => {
  const memoryPath = await memoryCopy();
  const up = await upstream('a');
  const routes = memoryPath.replace(/memory\.json$/, 'routes.json');
  writeJson(routes, { tools: { DALLE_3: { upstream: `openai:${up.url}#dalle` }, SDXL_2_1: { upstream: `openai:${up.url}#sdxl` } } });
  s = await start({ memoryPath, routesPath: routes, token: TOKEN, maxBodyBytes: 1024 * 1024 });
}, 60_000);

interface RawAnswer {
  head: string;
  body: string;
  /** Body bytes this client wrote before the server closed the connection. */
  written: number;
  /** How the connection ended: 'end' (the server's FIN), 'reset' or 'error'. */
  ended: string;
}

/** Sends `head`, then up to `bodyBytes` of body in 64 KiB chunks as fast as the socket takes them; resolves when the server closes. */
function rawSend(url: string, head: string, bodyBytes: number, opts: { waitFor100?: boolean } = {}): Promise<RawAnswer> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), '127.0.0.1');
    let text = '';
    let written = 0;
    let ended = '';
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (written < bodyBytes && !socket.destroyed && socket.writable) {
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(head);
      if (!opts.waitFor100) pump();
    });
    socket.on('data', (d) => {
      text += d.toString('latin1');
      if (opts.waitFor100 && text.startsWith('HTTP/1.1 100')) {
        text = text.slice(text.indexOf('\r\n\r\n') + 4);
        pump();
      }
    });
    socket.on('end', () => (ended ||= 'end'));
    socket.on('error', (err: NodeJS.ErrnoException) => (ended ||= err.code === 'ECONNRESET' ? 'reset' : 'error'));
    socket.on('close', () => {
      const cut = text.indexOf('\r\n\r\n');
      resolve({ head: cut < 0 ? text : text.slice(0, cut), body: cut < 0 ? '' : text.slice(cut + 4), written, ended });
    });
  });
}

const request = (path: string, headers: string[]) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;

describe('answers before the body is read close the connection', () => {
  it('401 for a 200 MiB body without a token: answered at once with Connection: close, the body never read', async () => {
    const r = await rawSend(s.url, request('/v1/select', [`Content-Length: ${200 * 1024 * 1024}`]), 200 * 1024 * 1024);
    expect(r.head).toMatch(/^HTTP\/1\.1 401 /);
    expect(r.head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'missing_token' } });
    // What the client got into the socket before the cut: kernel buffers, far from 200 MiB.
    expect(r.written).toBeLessThan(32 * 1024 * 1024);
    expect((await post(`${s.url}/v1/select`, select, auth)).status).toBe(200);
  });

  it('413 for a declared 1 GB body: answered at once with Connection: close; a small refused body is read and the answer arrives clean', async () => {
    const big = await rawSend(s.url, request('/v1/select', [`Authorization: Bearer ${TOKEN}`, `Content-Length: ${1024 ** 3}`]), 1024 ** 3);
    expect(big.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(big.head.toLowerCase()).toContain('connection: close');
    expect(big.written).toBeLessThan(32 * 1024 * 1024);
    // 10 KB without a token: read whole (under 64 KiB), answered, closed by a FIN — no reset.
    const small = await rawSend(s.url, request('/v1/select', ['Content-Length: 10240']), 10240);
    expect([small.head.split('\r\n')[0], small.ended]).toEqual(['HTTP/1.1 401 Unauthorized', 'end']);
    expect((await post(`${s.url}/v1/select`, select, auth)).status).toBe(200);
  });

  it('"Expect: 100-continue" without a token gets its 401 and no 100; with the token, 100 Continue then the answer', async () => {
    const body = JSON.stringify(select);
    const refused = await rawSend(s.url, request('/v1/select', ['Expect: 100-continue', `Content-Length: ${1024 ** 3}`]), 0);
    expect(refused.head).toMatch(/^HTTP\/1\.1 401 /);
    const { port } = new URL(s.url);
    const text = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(request('/v1/select', ['Expect: 100-continue', `Authorization: Bearer ${TOKEN}`, `Content-Length: ${body.length}`, 'Connection: close'])),
      );
      let t = '';
      socket.on('data', (d) => {
        t += d.toString('utf8');
        if (t.startsWith('HTTP/1.1 100 Continue\r\n\r\n') && !t.includes('200')) socket.write(body);
      });
      socket.on('close', () => resolve(t));
    });
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
  });

  it('reads at most 64 KiB of the refused body (server side, counted on the socket)', async () => {
    let socket: Socket | null = null;
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      closeAfterAnswer(req, res);
      sendError(res, new HttpError(401, 'authentication_error', 'missing_token', 'no token'));
    });
    server.on('connection', (c: Socket) => (socket = c));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await rawSend(url, request('/x', [`Content-Length: ${100 * 1024 * 1024}`]), 100 * 1024 * 1024);
    expect(r.head).toMatch(/^HTTP\/1\.1 401 /);
    // Headers, at most LINGER_BYTES after the answer, plus the one read in progress when the bound passed.
    expect(socket!.bytesRead).toBeLessThanOrEqual(LINGER_BYTES + 2 * 64 * 1024 + 1024);
    server.close();
  });
});

/** `depth` nested arrays around `inner`, written as text (JSON.stringify would recurse that deep). */
const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

describe('hostile JSON', () => {
  it('100,000 levels of nesting: 400 from the router, /v1/select and /v1/predict; -32602 with its id from /mcp', async () => {
    const deep = nested(100_000);
    const chat = await post(`${s.url}/v1/chat/completions`, `{"model":"toolmem:auto","messages":[{"role":"user","content":"a cat"}],"extra":${deep}}`, auth);
    expect([chat.status, (chat.json.error as { code: string }).code]).toEqual([400, 'too_deep']);
    for (const path of ['/v1/select', '/v1/predict']) {
      const r = await post(`${s.url}${path}`, `{"task":"a cat","candidates":["DALLE_3"],"tool":"DALLE_3","x":${deep}}`, auth);
      expect([r.status, r.json.error]).toEqual([
        400,
        { message: 'The request body nests arrays and objects more than 64 levels deep.', type: 'invalid_request_error', code: 'too_deep' },
      ]);
    }
    const mcp = await post(
      `${s.url}/mcp`,
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"recall","arguments":{"tool":"DALLE_3","task":${deep}}}}`,
      { ...auth, accept: 'application/json, text/event-stream' },
    );
    expect(mcp.status).toBe(400);
    expect(mcp.json).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: "Invalid params for 'tools/call': the message nests arrays and objects more than 64 levels deep." },
    });
    // 64 levels are fine (the answer is about the arguments, not the nesting).
    const ok = await post(`${s.url}/v1/select`, `{"task":"a cat","candidates":["DALLE_3"],"x":${nested(63)}}`, auth);
    expect(ok.status).toBe(200);
    expect((await post(`${s.url}/v1/select`, select, auth)).status).toBe(200);
  });

  it('a JSON-RPC batch over 100 calls gets one error; 100 get one each', async () => {
    const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    const headers = { ...auth, accept: 'application/json, text/event-stream' };
    const big = await post(`${s.url}/mcp`, batch(10_000), headers);
    expect(big.status).toBe(400);
    expect(big.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message:
          'Invalid Request: a batch of 10,000 messages; batches are not supported (MCP 2025-06-18 has no JSON-RPC batching) and at most 100 are answered one by one.',
      },
    });
    const hundred = await post(`${s.url}/mcp`, batch(100), headers);
    expect(hundred.status).toBe(400);
    expect((hundred.json as unknown as unknown[]).length).toBe(100);
  });
});

describe('request smuggling', () => {
  const select = JSON.stringify({ task: 'a cat', candidates: ['DALLE_3'] });
  const smuggled = `GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`;
  it.each([
    ['two different Content-Lengths', [`Content-Length: ${select.length}`, 'Content-Length: 5']],
    ['Content-Length and Transfer-Encoding', [`Content-Length: ${select.length}`, 'Transfer-Encoding: chunked']],
    ['a Transfer-Encoding that does not end in chunked', ['Transfer-Encoding: chunked, identity']],
    ['a space before the colon', [`Content-Length : ${select.length}`]],
    ['an obsolete folded header', [`Content-Length: ${select.length}`, 'X-Folded: a', ' b']],
  ])('%s: 400, the connection closed, nothing after it answered', async (_name, headers) => {
    const r = await rawSend(s.url, `${request('/v1/select', [`Authorization: Bearer ${TOKEN}`, ...headers])}${select}${smuggled}`, 0);
    expect(r.head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(r.head.toLowerCase()).toContain('connection: close');
    expect(r.body).not.toContain('HTTP/1.1');
    expect((await post(`${s.url}/v1/select`, { task: 'a cat', candidates: ['DALLE_3'] }, auth)).status).toBe(200);
  });
});
