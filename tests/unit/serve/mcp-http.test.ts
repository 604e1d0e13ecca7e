/**
 * MCP over Streamable HTTP at /mcp, driven with the official SDK client
 * (StreamableHTTPClientTransport): the same four tools as stdio, the same answers as the JSON API
 * (one implementation), the token sent as a header, bad arguments as -32602, malformed JSON-RPC
 * answered by the stdio server's checks, and the bound on MCP exchanges at once (503).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/core/embed';
import { until } from '../helpers/until';
import { embedder, memoryCopy, post, servedCopy, TOKEN, type Started } from './helpers';

const auth = { authorization: `Bearer ${TOKEN}` };
const TASK = 'A cat sitting on a red chair next to two books';
let s: Started;
const clients: Client[] = [];
const { start } = servedCopy({ token: TOKEN }, (copy) => (s = copy.server));
afterAll(async () => {
  for (const c of clients) await c.close();
});

async function connect(url: string, headers: Record<string, string> = auth): Promise<Client> {
  const client = new Client({ name: 'toolmem-serve-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]!.text;

describe('MCP over HTTP', () => {
  it('lists the four tools and answers them exactly as /v1/predict and /v1/select do', async () => {
    const client = await connect(s.url);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_tools', 'recall', 'predict_score', 'select_tool']);
    const listed = JSON.parse(text(await client.callTool({ name: 'list_tools', arguments: {} }))) as { tools: { id: string }[] };
    expect(listed.tools.map((t) => t.id)).toEqual(['DALLE_3', 'DeepFloyd_I_XL_v1', 'Midjourney_6', 'SDXL_2_1', 'SDXL_Base', 'SDXL_Turbo']);
    const predict = JSON.parse(text(await client.callTool({ name: 'predict_score', arguments: { tool: 'SDXL_2_1', task: TASK } })));
    expect(predict).toEqual((await post(`${s.url}/v1/predict`, { tool: 'SDXL_2_1', task: TASK }, auth)).json);
    const args = { task: TASK, candidates: ['SDXL_2_1', 'DALLE_3', 'SDXL_Turbo'] };
    expect(JSON.parse(text(await client.callTool({ name: 'select_tool', arguments: args })))).toEqual((await post(`${s.url}/v1/select`, args, auth)).json);
    const unknown = (await client.callTool({ name: 'recall', arguments: { tool: 'Nope', task: TASK } })) as { isError?: boolean };
    expect(unknown.isError).toBe(true);
    await expect(client.callTool({ name: 'predict_score', arguments: { tool: 'DALLE_3' } })).rejects.toThrow(/-32602.*'task' is required/);
  });

  it('the client without the token is refused (401 missing_token)', async () => {
    await expect(connect(s.url, {})).rejects.toThrow(/missing_token/);
  });

  it("malformed JSON-RPC gets the stdio checks' answers", async () => {
    const headers = { ...auth, accept: 'application/json, text/event-stream' };
    const garbage = await post(`${s.url}/mcp`, 'not json', headers);
    expect([garbage.status, (garbage.json.error as { code: number }).code]).toEqual([400, -32700]);
    const batch = await post(`${s.url}/mcp`, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], headers);
    expect(batch.json).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32600,
          message: 'Invalid Request: batches are not supported (MCP 2025-06-18 has no JSON-RPC batching); send each request on its own line.',
        },
      },
    ]);
    const badParams = await post(`${s.url}/mcp`, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: [] }, headers);
    expect([badParams.status, (badParams.json.error as { code: number }).code]).toEqual([200, -32602]);
  });

  it('at most maxSessions MCP exchanges at once: the next gets 503 with Retry-After', async () => {
    const real = await embedder();
    let release = () => {};
    const hold = new Promise<void>((r) => (release = r));
    let waiting = 0;
    // Held only once the server is up: loading the memory embeds its entries (every tool's profile).
    let armed = false;
    const slow: Embedder = { id: real.id, dim: real.dim, embed: async (t, o) => (armed ? (waiting++, await hold, real.embed(t, o)) : real.embed(t, o)) };
    const g = await start({ memoryPath: await memoryCopy(), maxSessions: 1, embedderFor: async () => slow, watch: false });
    armed = true;
    const headers = { accept: 'application/json, text/event-stream' };
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'predict_score', arguments: { tool: 'DALLE_3', task: TASK } } };
    const first = post(`${g.url}/mcp`, call, headers);
    await until(() => waiting === 1);
    const second = await post(`${g.url}/mcp`, call, headers);
    expect([second.status, second.headers.get('retry-after'), (second.json.error as { code: string }).code]).toEqual([503, '1', 'too_many_sessions']);
    release();
    expect((await first).status).toBe(200);
    expect((await post(`${g.url}/mcp`, call, headers)).status).toBe(200);
  });
});
