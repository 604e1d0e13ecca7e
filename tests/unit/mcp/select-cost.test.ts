/**
 * MCP `select_tool` with costs: a memory built from the promptfoo fixture (its log records a cost
 * and a latency per call), served over stdio. Medians per call in the fixture: chatty-model
 * $0.000084, terse-model $0.000002, sloppy-model $0.000001 (20 calls each).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { mcpServers } from './helpers';

const REPO = resolve(import.meta.dirname, '../../..');
const PROMPTFOO = resolve(REPO, 'tests/fixtures/import/promptfoo/results.json');
const dir = mkdtempSync(join(tmpdir(), 'toolmem-mcp-cost-'));
const quiet = { out: () => {}, err: () => {} };
const TOOLS = ['chatty-model', 'sloppy-model', 'terse-model'];
const COST = new Map([
  ['chatty-model', 0.000084],
  ['terse-model', 0.000002],
  ['sloppy-model', 0.000001],
]);

interface Selected {
  choice: string | null;
  ranked: { tool: string; score: number; cost?: number; latencyMs?: number; utility?: number }[];
  excluded?: { tool: string; reason: string; value?: number; limit: number }[];
}

const connect = mcpServers();

async function select(client: Client, args: Record<string, unknown>): Promise<Selected> {
  const res = (await client.callTool({ name: 'select_tool', arguments: { task: 'What is the capital of France?', candidates: TOOLS, ...args } })) as {
    content: { text: string }[];
    isError?: boolean;
  };
  if (res.isError) throw new Error(res.content[0]!.text);
  return JSON.parse(res.content[0]!.text) as Selected;
}

let memory = '';
beforeAll(async () => {
  memory = join(dir, 'promptfoo.json');
  expect(await main(['build-memory', '--data', PROMPTFOO, '--out', memory, '--llm', 'none'], quiet)).toBe(0);
}, 60_000);

describe('select_tool with max_cost, cost_weight and max_latency_ms', { timeout: 60_000 }, () => {
  it("the memory file carries each tool's median cost and latency; list_tools shows them", async () => {
    const file = JSON.parse(readFileSync(memory, 'utf8')) as { tools: { id: string; cost?: { perCall: number; source: string; n: number } }[] };
    for (const t of file.tools) expect(t.cost).toEqual({ perCall: expect.closeTo(COST.get(t.id)!, 12), source: 'data', n: 20 });
    const client = await connect(memory);
    const listed = (await client.callTool({ name: 'list_tools', arguments: {} })) as { content: { text: string }[] };
    const tools = (JSON.parse(listed.content[0]!.text) as { tools: { id: string; cost: { perCall: number } | null }[] }).tools;
    expect(tools.find((t) => t.id === 'terse-model')?.cost?.perCall).toBeCloseTo(0.000002, 12);
  });

  it('max_cost never returns a tool over it, at every limit', async () => {
    // The costs exactly as the file holds them (a median of two floats may end in …0001).
    const file = JSON.parse(readFileSync(memory, 'utf8')) as { tools: { id: string; cost: { perCall: number } }[] };
    const exact = new Map(file.tools.map((t) => [t.id, t.cost.perCall]));
    const client = await connect(memory);
    for (const maxCost of [0, 0.000001, 0.0000015, 0.000002, 0.00005, 0.000084, exact.get('chatty-model')!, 1]) {
      for (const weight of [0, 1000, 100000]) {
        const sel = await select(client, { max_cost: maxCost, cost_weight: weight });
        for (const r of sel.ranked) expect(exact.get(r.tool)!).toBeLessThanOrEqual(maxCost);
        if (sel.choice) expect(exact.get(sel.choice)!).toBeLessThanOrEqual(maxCost);
        const over = TOOLS.filter((t) => exact.get(t)! > maxCost);
        expect(sel.excluded?.map((e) => e.tool)).toEqual(over);
        for (const e of sel.excluded ?? []) expect(e).toMatchObject({ reason: 'cost-over', limit: maxCost });
      }
    }
  });

  it('max_cost 0.000002 keeps terse and sloppy; cost_weight enters the utility', async () => {
    const client = await connect(memory);
    const sel = await select(client, { max_cost: 0.000002, cost_weight: 10000 });
    expect(sel.ranked.map((r) => r.tool).sort()).toEqual(['sloppy-model', 'terse-model']);
    expect(sel.excluded).toEqual([{ tool: 'chatty-model', reason: 'cost-over', value: expect.closeTo(0.000084, 12), limit: 0.000002 }]);
    for (const r of sel.ranked) expect(r.utility).toBeCloseTo(r.score - 10000 * COST.get(r.tool)!, 4);
  });

  it('a tool whose cost the memory does not know is excluded under max_cost, not assumed free', async () => {
    const file = JSON.parse(readFileSync(memory, 'utf8')) as { tools: { id: string; cost?: unknown }[] };
    delete file.tools.find((t) => t.id === 'sloppy-model')!.cost;
    const edited = join(dir, 'no-sloppy-cost.json');
    writeFileSync(edited, JSON.stringify(file));
    const client = await connect(edited);
    const sel = await select(client, { max_cost: 1 });
    expect(sel.ranked.map((r) => r.tool).sort()).toEqual(['chatty-model', 'terse-model']);
    expect(sel.excluded).toEqual([{ tool: 'sloppy-model', reason: 'cost-unknown', limit: 1 }]);
    // Without a limit it competes on its score as before.
    expect((await select(client, {})).ranked).toHaveLength(3);
  });

  it('max_latency_ms excludes slower tools; bad arguments are refused with the name', async () => {
    const client = await connect(memory);
    const sel = await select(client, { max_latency_ms: 0.5 });
    expect(sel.choice).toBeNull();
    expect(sel.excluded?.map((e) => e.reason)).toEqual(['latency-over', 'latency-over', 'latency-over']);
    expect((await select(client, { max_latency_ms: 1 })).ranked).toHaveLength(3);
    await expect(select(client, { max_cost: -1 })).rejects.toThrow(/'max_cost' must be a number ≥ 0/);
    await expect(select(client, { cost_weight: 'lots' })).rejects.toThrow(/'cost_weight' must be a number ≥ 0 .* got a string/);
  });
});
