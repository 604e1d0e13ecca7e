import { createServer, type IncomingMessage, type Server } from 'node:http';

/**
 * A small local server that speaks the OpenAI chat-completions protocol (JSON and SSE streaming),
 * standing in for Ollama / llama.cpp server in e2e tests. Its replies are deterministic and follow
 * the request: memory updates (schema `memory_update`) add one entry whose level follows the
 * example's score, critiques (`critique`) name a failure, anything else gets a one-line feedback.
 * `GET /v1/models` lists `models` (OpenAI's shape), as Ollama, LM Studio and llama.cpp do.
 * CORS is open (like `OLLAMA_ORIGINS=*`), as a browser page needs.
 */
export interface FakeLlmServer {
  url: string;
  requests: { schema: string | null; user: string; stream: boolean }[];
  /** Paths of the `GET …/models` requests, in order. */
  modelRequests: string[];
  close(): Promise<void>;
}

interface ChatBody {
  messages: { role: string; content: string }[];
  stream?: boolean;
  response_format?: { json_schema?: { name?: string } };
}

export interface FakeLlmOptions {
  /** Model ids listed by `GET /v1/models`; default ['fake-model', 'fake-small']. */
  models?: string[];
  /** The reply to a score prediction (schema `score_prediction`); default: the feedback line, "earned 3". */
  scorePrediction?(user: string): string;
}

function reply(body: ChatBody, opts: FakeLlmOptions): string {
  const schema = body.response_format?.json_schema?.name ?? null;
  const user = body.messages.filter((m) => m.role === 'user').pop()?.content ?? '';
  if (schema === 'score_prediction' && opts.scorePrediction) return opts.scorePrediction(user);
  const task = /Task: (.*)/.exec(user)?.[1] ?? 'this task';
  const score = Number(/Score: ([\d.]+)/.exec(user)?.[1] ?? '3');
  const words = task.split(/\s+/).slice(0, 4).join(' ').replace(/["\\]/g, '');
  if (schema === 'memory_update') {
    const level = score >= 4 ? 'good' : score <= 2 ? 'bad' : null;
    return JSON.stringify({
      operations: level ? [{ op: 'add', level, text: `Fake model: ${level === 'good' ? 'handles' : 'struggles with'} prompts like "${words}"` }] : [],
    });
  }
  if (schema === 'critique') return JSON.stringify({ critique: { level: 'weak', text: `Fake critique: loses details in "${words}"` } });
  return `Fake feedback: the output earned ${score} because of how it handled "${words}".`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeLlmServer(port: number, opts: FakeLlmOptions = {}): Promise<FakeLlmServer> {
  const requests: FakeLlmServer['requests'] = [];
  const modelRequests: string[] = [];
  const server: Server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', 'content-type, authorization');
    res.setHeader('access-control-allow-methods', 'POST, GET, OPTIONS');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method === 'GET' && req.url === '/v1/models') {
      modelRequests.push(req.url);
      const data = (opts.models ?? ['fake-model', 'fake-small']).map((id) => ({ id, object: 'model', owned_by: 'fake' }));
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end('not found');
    void readBody(req).then((text) => {
      const body = JSON.parse(text) as ChatBody;
      const content = reply(body, opts);
      requests.push({ schema: body.response_format?.json_schema?.name ?? null, user: body.messages.at(-1)?.content ?? '', stream: body.stream === true });
      const usage = { prompt_tokens: Math.ceil(text.length / 4), completion_tokens: Math.ceil(content.length / 4) };
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const mid = Math.floor(content.length / 2);
        for (const part of [content.slice(0, mid), content.slice(mid)])
          res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: part } }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
        res.end('data: [DONE]\n\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    modelRequests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Registers a fake server for the tests of one spec file: started before them, closed after, its
 * origin allowed by the leak guard. `offset` is added to the app's port, so specs (and parallel runs
 * on other ports) never collide. Call at the top level of a spec with its `test`.
 */
export function useFakeLlmServer(
  test: { use(o: { allowedOrigins: string[] }): void; beforeAll(f: () => Promise<void>): void; afterAll(f: () => Promise<void>): void },
  offset: number,
  opts: FakeLlmOptions = {},
): { port: number; server: () => FakeLlmServer } {
  const port = Number(process.env.E2E_PORT ?? 4317) + offset;
  let server: FakeLlmServer | null = null;
  test.use({ allowedOrigins: [`http://127.0.0.1:${port}`] });
  test.beforeAll(async () => {
    server = await startFakeLlmServer(port, opts);
  });
  test.afterAll(async () => {
    await server?.close();
  });
  return {
    port,
    server: () => {
      if (!server) throw new Error('the fake LLM server is not running (call useFakeLlmServer at the top level of the spec)');
      return server;
    },
  };
}
