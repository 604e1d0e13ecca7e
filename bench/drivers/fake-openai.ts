/**
 * A fake OpenAI-compatible upstream on loopback for `toolmem serve`'s router tests and
 * bench:serve: POST /v1/chat/completions answers `<name> says: <last user text>` as a chat
 * completion, or as an SSE stream of three chunks and `[DONE]` when `stream` is true. `failWith`
 * makes it answer an HTTP status instead (a failing upstream), or nothing (a hung one). It binds 127.0.0.1 only.
 * Run as a process (the bench kills one): `node --import tsx bench/drivers/fake-openai.ts NAME`
 * prints `listening PORT`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface FakeOpenAi {
  /** Base URL, `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** The requests answered: model, stream flag, last user text, and whether an Authorization header came. */
  requests: { model: string; stream: boolean; user: string; authorization: boolean }[];
  /** Answer every request with this status from now on (null: answer normally; 0: never answer). */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

function lastUser(body: { messages?: { role: string; content: unknown }[] }): string {
  const m = [...(body.messages ?? [])].reverse().find((x) => x.role === 'user');
  return typeof m?.content === 'string' ? m.content : '';
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A JSON answer with its Content-Length, as an API server sends it (writeHead alone would make it chunked). */
function json(res: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
}

export async function startFakeOpenAi(name: string, port = 0): Promise<FakeOpenAi> {
  const requests: FakeOpenAi['requests'] = [];
  let failing: number | null = null;
  const server: Server = createServer(async (req, res) => {
    const text = await read(req);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return void res.writeHead(404).end();
    if (failing === 0) return; // hangs: the socket stays open, no answer
    if (failing !== null) return void json(res, failing, { error: { message: `${name} is failing` } });
    const body = JSON.parse(text) as { model: string; stream?: boolean; messages?: { role: string; content: unknown }[] };
    const user = lastUser(body);
    requests.push({ model: body.model, stream: body.stream === true, user, authorization: req.headers.authorization !== undefined });
    const content = `${name} says: ${user}`;
    const base = { id: `chatcmpl-${requests.length}`, created: 1_700_000_000, model: body.model };
    if (!body.stream) {
      const answer = {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      };
      return void json(res, 200, answer);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: Record<string, string>, finish: string | null) =>
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const half = Math.ceil(content.length / 2);
    res.write(chunk({ role: 'assistant', content: content.slice(0, half) }, null));
    res.write(chunk({ content: content.slice(half) }, null));
    res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    failWith: (status) => void (failing = status),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const fake = await startFakeOpenAi(process.argv[2] ?? 'fake');
  process.stdout.write(`listening ${new URL(fake.url).port}\n`);
}
