/**
 * The OpenAI-compatible router against fake upstreams on loopback: the pick is /v1/select's choice
 * for the last user message, the request is forwarded with the upstream's model id (not our
 * token), streamed or not, the pick travels in headers and a `toolmem` field; route prices and
 * max_cost change the pick; a failing upstream gives a 502 naming it, or falls back to the next tool.
 */
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeOpenAi } from '../../../bench/drivers/fake-openai';
import { memoryCopy, post, servers, TOKEN, type Started } from './helpers';

const { start, upstream } = servers();
const auth = { authorization: `Bearer ${TOKEN}` };
const TASK = 'A watercolor of three boats on a lake';
let dalle: FakeOpenAi;
let sdxl: FakeOpenAi;
let s: Started;

beforeAll(async () => {
  const memoryPath = await memoryCopy();
  [dalle, sdxl] = [await upstream('dalle'), await upstream('sdxl')];
  const routesPath = memoryPath.replace(/memory\.json$/, 'routes.json');
  writeFileSync(
    routesPath,
    JSON.stringify({
      tools: { DALLE_3: { upstream: `openai:${dalle.url}#dall-e-3`, price: 0.04 }, SDXL_2_1: { upstream: `openai:${sdxl.url}#sdxl-2.1`, price: 0.002 } },
      routes: { 'toolmem:cheap': { tools: ['DALLE_3', 'SDXL_2_1'], max_cost: 0.01 }, 'toolmem:strict': { tools: ['DALLE_3', 'SDXL_2_1'], fallback: false } },
    }),
  );
  s = await start({ memoryPath, routesPath, token: TOKEN });
}, 60_000);

const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [
    { role: 'system', content: 'You draw.' },
    { role: 'user', content: 'earlier' },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: TASK },
  ],
  ...extra,
});

describe('router', () => {
  it("picks select_tool's choice, forwards with the upstream model id, and says why", async () => {
    const sel = await post(`${s.url}/v1/select`, { task: TASK, candidates: ['DALLE_3', 'SDXL_2_1'] }, auth);
    expect(sel.json.choice).toBe('DALLE_3');
    const score = (sel.json.ranked as { score: number }[])[0]!.score;
    const r = await post(`${s.url}/v1/chat/completions`, chat('toolmem:auto'), auth);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-toolmem-tool')).toBe('DALLE_3');
    const reason = `best predicted score ${Math.round(score * 1000) / 1000} of 2 candidates`;
    expect(r.headers.get('x-toolmem-reason')).toBe(reason);
    expect(r.json.toolmem).toEqual({ route: 'toolmem:auto', tool: 'DALLE_3', reason, score, memory: s.holder.current.sha });
    expect((r.json.choices as { message: { content: string } }[])[0]!.message.content).toBe(`dalle says: ${TASK}`);
    expect(dalle.requests.at(-1)).toEqual({ model: 'dall-e-3', stream: false, user: TASK, authorization: false });
  });

  it("streams the upstream's SSE through, with the pick in the headers", async () => {
    const res = await fetch(`${s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(chat('toolmem:auto', { stream: true })),
    });
    expect([res.status, res.headers.get('content-type'), res.headers.get('x-toolmem-tool')]).toEqual([200, 'text/event-stream', 'DALLE_3']);
    const events = (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((e) => e.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    const text = events
      .slice(0, -1)
      .map((e) => (JSON.parse(e) as { choices: { delta: { content?: string } }[] }).choices[0]!.delta.content ?? '')
      .join('');
    expect(text).toBe(`dalle says: ${TASK}`);
    expect(dalle.requests.at(-1)).toMatchObject({ model: 'dall-e-3', stream: true });
  });

  it('route prices and max_cost: the cheap route never picks the tool over its limit', async () => {
    const r = await post(`${s.url}/v1/chat/completions`, chat('toolmem:cheap'), auth);
    expect(r.headers.get('x-toolmem-tool')).toBe('SDXL_2_1');
    expect(r.headers.get('x-toolmem-reason')).toMatch(/^best predicted score [\d.]+ of 1 candidate; 1 excluded \(DALLE_3: cost-over\)$/);
    expect(sdxl.requests.at(-1)).toMatchObject({ model: 'sdxl-2.1', user: TASK });
  });

  it('a failing upstream: 502 naming it without fallback, the next tool with it', async () => {
    dalle.failWith(500);
    try {
      const strict = await post(`${s.url}/v1/chat/completions`, chat('toolmem:strict'), auth);
      expect(strict.status).toBe(502);
      expect(strict.json.error).toEqual({
        message: `upstream 'DALLE_3' (${dalle.url}) failed: answered 500 (this route has no fallback).`,
        type: 'upstream_error',
        code: 'upstream_failed',
      });
      const auto = await post(`${s.url}/v1/chat/completions`, chat('toolmem:auto'), auth);
      expect(auto.status).toBe(200);
      expect(auto.headers.get('x-toolmem-tool')).toBe('SDXL_2_1');
      expect((auto.json.toolmem as { failed: string[] }).failed).toEqual([`upstream 'DALLE_3' (${dalle.url}) failed: answered 500`]);
      expect(auto.headers.get('x-toolmem-reason')).toMatch(/^upstream 'DALLE_3' .* failed: answered 500; next best predicted score [\d.]+ of 2 candidates$/);
    } finally {
      dalle.failWith(null);
    }
  });

  it('an upstream that is gone (connection refused) is named too', async () => {
    const gone = await upstream('gone');
    const url = gone.url;
    await gone.close();
    const memoryPath = await memoryCopy();
    const routesPath = memoryPath.replace(/memory\.json$/, 'routes.json');
    writeFileSync(routesPath, JSON.stringify({ tools: { DALLE_3: { upstream: `openai:${url}#m` } } }));
    const g = await start({ memoryPath, routesPath, watch: false });
    const r = await post(`${g.url}/v1/chat/completions`, chat('toolmem:auto'));
    expect([r.status, (r.json.error as { message: string }).message]).toEqual([502, `upstream 'DALLE_3' (${url}) failed: connection refused.`]);
  });

  it("an upstream that never answers: 504 at the request's time limit, naming it", async () => {
    const hung = await upstream('hung');
    hung.failWith(0);
    const memoryPath = await memoryCopy();
    const routesPath = memoryPath.replace(/memory\.json$/, 'routes.json');
    writeFileSync(routesPath, JSON.stringify({ tools: { DALLE_3: { upstream: `openai:${hung.url}#m` } } }));
    const g = await start({ memoryPath, routesPath, watch: false, requestTimeoutMs: 300 });
    const r = await post(`${g.url}/v1/chat/completions`, chat('toolmem:auto'));
    expect([r.status, r.headers.get('x-toolmem-tool')]).toEqual([504, 'DALLE_3']);
    expect(r.json.error).toEqual({
      message: `No answer within this server's time limit per request: upstream 'DALLE_3' (${hung.url}) failed: no answer in time.`,
      type: 'upstream_error',
      code: 'deadline',
    });
  });

  it('unknown model 404 listing the routes; no user message 400; GET /v1/models lists the routes', async () => {
    const unknown = await post(`${s.url}/v1/chat/completions`, chat('gpt-4o'), auth);
    expect([unknown.status, (unknown.json.error as { message: string }).message]).toEqual([
      404,
      "Unknown model 'gpt-4o': this router serves 'toolmem:cheap', 'toolmem:strict', 'toolmem:auto'.",
    ]);
    const empty = await post(`${s.url}/v1/chat/completions`, { model: 'toolmem:auto', messages: [{ role: 'system', content: 'x' }] }, auth);
    expect([empty.status, (empty.json.error as { code: string }).code]).toEqual([400, 'no_user_message']);
    const models = (await (await fetch(`${s.url}/v1/models`, { headers: auth })).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['toolmem:cheap', 'toolmem:strict', 'toolmem:auto']);
  });
});
