/**
 * OpenAiCompatibleEngine against a small chat-completions server in the test (node:http, bound to
 * 127.0.0.1 only): plain and streamed replies, usage, json_schema and its fallback, HTTP errors,
 * malformed replies, connection refused, cancellation before and during streaming.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError } from '../../../src/core/errors';
import {
  chatCompletionsUrl,
  createEngine,
  LlmConnectionError,
  LlmHttpError,
  LlmResponseError,
  OpenAiCompatibleEngine,
  parseEngineSpec,
  type ChatMessage,
} from '../../../src/core/llm';

interface Seen {
  url: string;
  auth: string | undefined;
  body: Record<string, unknown>;
}

const seen: Seen[] = [];
const closed: string[] = [];
let server: Server;
let base: string;

const sse = (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

function handle(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>): void {
  const model = String(body.model);
  switch (model) {
    case 'plain':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'hello' } }], usage: { prompt_tokens: 11, completion_tokens: 2 } }),
      );
      return;
    case 'no-usage':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'two words' } }] }));
      return;
    case 'stream': {
      sse(res);
      // Event boundaries split across writes, CRLF line ends, a comment, a role-only delta, usage.
      const text = `: keep-alive\r\n\r\ndata: ${JSON.stringify({ choices: [{ delta: { role: 'assistant' } }] })}\r\n\r\n${chunk('Hel')}${chunk('lo')}${chunk(' world')}data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3 } })}\n\ndata: [DONE]\n\n`;
      const cuts = [5, 17, 60, 61, 120, text.length];
      let at = 0;
      for (const cut of cuts) {
        res.write(text.slice(at, cut));
        at = cut;
      }
      res.end();
      return;
    }
    case 'no-schema':
      if (body.response_format) {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: "Unsupported parameter: 'response_format'" } }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: '{"ok": true}' } }] }));
      return;
    case 'status-500':
      res.writeHead(500, 'Internal Server Error');
      res.end('overloaded');
      return;
    case 'status-401':
      res.writeHead(401, 'Unauthorized', { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'bad key' } }));
      return;
    case 'bad-json':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('<html>not json</html>');
      return;
    case 'no-content':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: null, tool_calls: [] } }] }));
      return;
    case 'bad-stream':
      sse(res);
      res.end(`${chunk('ok')}data: {garbage\n\n`);
      return;
    case 'stream-error':
      sse(res);
      res.end(`${chunk('par')}data: ${JSON.stringify({ error: { message: 'model crashed' } })}\n\n`);
      return;
    case 'slow-stream':
      sse(res);
      res.write(chunk('first'));
      // Never finishes: the client has to cancel.
      req.socket.on('close', () => closed.push('slow-stream'));
      return;
    default:
      res.writeHead(404);
      res.end(`unknown model ${model}`);
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (raw += d));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, body });
      handle(req, res, body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const messages: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Say hello.' },
];
const engine = (model: string, extra: Partial<ConstructorParameters<typeof OpenAiCompatibleEngine>[0]> = {}) =>
  new OpenAiCompatibleEngine({ baseUrl: base, model, ...extra });

describe('OpenAiCompatibleEngine', () => {
  it('non-streaming: text, usage, temperature 0, the key as a bearer token', async () => {
    const out = await engine('plain', { apiKey: 'sk-test' }).chat(messages, { maxTokens: 50 });
    expect(out).toEqual({ text: 'hello', promptTokens: 11, completionTokens: 2 });
    const req = seen[seen.length - 1]!;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.auth).toBe('Bearer sk-test');
    expect(req.body).toMatchObject({ model: 'plain', temperature: 0, max_tokens: 50, stream: false, messages });
    expect(req.body.response_format).toBeUndefined();
  });

  it('estimates token counts when the server reports no usage', async () => {
    const out = await engine('no-usage').chat(messages);
    expect(out).toMatchObject({ text: 'two words', completionTokens: 3, estimated: true });
    expect(out.promptTokens).toBeGreaterThan(5);
  });

  it('streaming: deltas in order through onToken, usage from the last chunk', async () => {
    const tokens: string[] = [];
    const out = await engine('stream').chat(messages, { onToken: (t) => tokens.push(t) });
    expect(tokens).toEqual(['Hel', 'lo', ' world']);
    expect(out).toEqual({ text: 'Hello world', promptTokens: 7, completionTokens: 3 });
    expect(seen[seen.length - 1]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('sends response_format json_schema, and drops it for good when the server rejects it', async () => {
    const schema = { name: 'reply', schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false } };
    const e = engine('no-schema');
    expect(e.capabilities.jsonSchema).toBe(true);
    const n = seen.length;
    expect((await e.chat(messages, { jsonSchema: schema })).text).toBe('{"ok": true}');
    expect(seen.slice(n).map((s) => s.body.response_format)).toEqual([{ type: 'json_schema', json_schema: { ...schema, strict: true } }, undefined]);
    expect(e.capabilities.jsonSchema).toBe(false);
    await e.chat(messages, { jsonSchema: schema });
    expect(seen.length).toBe(n + 3);
  });

  it('HTTP errors are LlmHttpError with status and body', async () => {
    const err500 = await engine('status-500')
      .chat(messages)
      .catch((e: unknown) => e);
    expect(err500).toBeInstanceOf(LlmHttpError);
    expect(err500).toMatchObject({ name: 'LlmHttpError', status: 500, body: 'overloaded', retryable: true });
    expect((err500 as Error).message).toMatch(/HTTP 500 Internal Server Error: overloaded/);
    const err401 = await engine('status-401')
      .chat(messages)
      .catch((e: unknown) => e);
    expect(err401).toMatchObject({ status: 401, retryable: false });
    expect((err401 as LlmHttpError).body).toContain('bad key');
  });

  it('malformed replies are LlmResponseError', async () => {
    await expect(engine('bad-json').chat(messages)).rejects.toThrow(LlmResponseError);
    await expect(engine('no-content').chat(messages)).rejects.toThrow(/no choices\[0\]\.message\.content/);
    await expect(engine('bad-stream').chat(messages, { onToken: () => {} })).rejects.toThrow(/stream event is not JSON/);
    await expect(engine('stream-error').chat(messages, { onToken: () => {} })).rejects.toThrow(/mid-stream: model crashed/);
  });

  it('connection refused is LlmConnectionError naming the URL', async () => {
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((done) => probe.close(done));
    const err = await new OpenAiCompatibleEngine({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'x' }).chat(messages).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmConnectionError);
    expect((err as Error).message).toMatch(new RegExp(`Cannot reach the LLM server at http://127.0.0.1:${port}/v1/chat/completions.*ECONNREFUSED`));
  });

  it('cancellation: before the request, and mid-stream (the connection is closed)', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    const n = seen.length;
    await expect(engine('plain').chat(messages, { signal: ctrl.signal })).rejects.toThrow(CancelledError);
    expect(seen.length).toBe(n);

    const live = new AbortController();
    const tokens: string[] = [];
    const pending = engine('slow-stream').chat(messages, {
      signal: live.signal,
      onToken: (t) => {
        tokens.push(t);
        live.abort();
      },
    });
    await expect(pending).rejects.toThrow(CancelledError);
    expect(tokens).toEqual(['first']);
    await expect.poll(() => closed).toContain('slow-stream');
  });

  it('URLs and engine specs', () => {
    expect(chatCompletionsUrl('http://h:1')).toBe('http://h:1/v1/chat/completions');
    expect(chatCompletionsUrl('http://h:1/v1/')).toBe('http://h:1/v1/chat/completions');
    expect(parseEngineSpec('none')).toEqual({ kind: 'none' });
    expect(parseEngineSpec('openai:http://127.0.0.1:8080/v1#qwen2.5-7b')).toEqual({ kind: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-7b' });
    expect(() => parseEngineSpec('openai:127.0.0.1#m')).toThrow(/Unknown LLM engine/);
    expect(() => parseEngineSpec('webllm')).toThrow(/Unknown LLM engine/); // no model id
    expect(createEngine({ kind: 'openai', baseUrl: 'http://h:1/', model: 'm' }).id).toBe('openai:http://h:1#m');
  });

  it('the none engine refuses to chat', async () => {
    const none = createEngine({ kind: 'none' });
    expect(none.id).toBe('none');
    await expect(none.chat(messages)).rejects.toThrow(/No LLM engine is configured/);
  });
});
