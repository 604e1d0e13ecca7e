/**
 * `toolmem mcp` end to end: a memory built like `toolmem build-memory --llm none`, the server
 * started over stdio (bin/toolmem.mjs) and driven with the MCP SDK's client.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { mcpServers } from './helpers';
import { readMemoryFile } from '../../../src/core/memory-format';

const REPO = resolve(import.meta.dirname, '../../..');
const SLICE = resolve(REPO, 'tests/fixtures/import/genai_image_slice.json');
const FULL = resolve(REPO, '../shared/data/genai_bench/genai_image.json');
const SKILLS = resolve(REPO, '../shared/data/genai_bench/genai_skills.json');
const dir = mkdtempSync(join(tmpdir(), 'toolmem-mcp-'));
const quiet = { out: () => {}, err: () => {} };

async function buildMemory(data: string, out: string, extra: string[] = []): Promise<string> {
  expect(await main(['build-memory', '--data', data, '--out', out, '--llm', 'none', ...extra], quiet)).toBe(0);
  return out;
}

const connect = mcpServers();

async function call<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const res = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
  if (res.isError) throw new Error(res.content[0]!.text);
  return JSON.parse(res.content[0]!.text) as T;
}

interface Ranked {
  choice: string | null;
  ranked: { tool: string; score: number }[];
}

describe('toolmem mcp', { timeout: 60_000 }, () => {
  it('serves list_tools, recall, predict_score and select_tool from a GenAI-Bench memory', async () => {
    const memory = await buildMemory(SLICE, join(dir, 'slice.json'));
    const file = readMemoryFile(readFileSync(memory, 'utf8'));
    const client = await connect(memory);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['list_tools', 'predict_score', 'recall', 'select_tool']);

    const listed = await call<{ tools: { id: string; counts: Record<string, number>; calibration: { mean: number } }[] }>(client, 'list_tools');
    expect(listed.tools.map((t) => t.id)).toEqual(file.tools.map((t) => t.id));
    expect(listed.tools[0]!.calibration.mean).toBe(file.build.calibration.DALLE_3!.mean);

    const task = 'A cat sitting on a red chair next to two books';
    const recall = await call<{ levels: Record<string, { id: string; text: string; similarity: number }[]> }>(client, 'recall', {
      tool: 'DALLE_3',
      task,
      k: 2,
    });
    expect(Object.keys(recall.levels)).toEqual(['proficient', 'good', 'bad', 'weak']);
    const dalle = file.tools.find((t) => t.id === 'DALLE_3')!;
    for (const [level, hits] of Object.entries(recall.levels)) {
      expect(hits.length).toBe(Math.min(2, dalle.counts[level as 'good']));
      for (const h of hits) expect(dalle.entries.find((e) => e.id === h.id)).toMatchObject({ level, text: h.text });
    }

    // A capability memory: the tool's mean plus contributions in score points that add up to the score.
    const p = await call<{ score: number; mean: number; clamped: boolean; contributions: { id: string; text: string; points: number }[] }>(
      client,
      'predict_score',
      { tool: 'SDXL_2_1', task },
    );
    const cal = file.build.calibration.SDXL_2_1!;
    expect(p.mean).toBeCloseTo(cal.mean, 3);
    const sum = p.contributions.reduce((a, c) => a + c.points, 0);
    expect(p.score).toBeCloseTo(Math.min(5, Math.max(1, p.mean + sum)), 2);
    for (const c of p.contributions) expect(typeof c.text).toBe('string');

    const sel = await call<Ranked & { ranked: { contributions: unknown[] }[] }>(client, 'select_tool', {
      task,
      candidates: ['SDXL_2_1', 'DALLE_3', 'SDXL_Turbo'],
    });
    expect(sel.ranked.map((r) => r.tool).sort()).toEqual(['DALLE_3', 'SDXL_2_1', 'SDXL_Turbo']);
    for (const r of sel.ranked) expect(Array.isArray(r.contributions)).toBe(true);
    expect(sel.ranked[0]!.score).toBeGreaterThanOrEqual(sel.ranked[2]!.score);
    await expect(call(client, 'predict_score', { tool: 'Nope', task })).rejects.toThrow(/Unknown tool 'Nope'/);

    const prompts = Object.values(JSON.parse(readFileSync(SLICE, 'utf8')) as Record<string, { prompt: string }>).map((r) => r.prompt);
    let above = 0;
    for (const prompt of prompts) {
      const r = await call<Ranked>(client, 'select_tool', { task: prompt, candidates: ['SDXL_2_1', 'DALLE_3'] });
      if (r.ranked[0]!.tool === 'DALLE_3') above++;
    }
    expect(above / prompts.length).toBeGreaterThan(0.5);
  });

  it.skipIf(!existsSync(FULL))('select_tool ranks DALLE_3 above SDXL_2_1 for most held-out GenAI-Bench prompts', async () => {
    const memory = await buildMemory(FULL, join(dir, 'full.json'), ['--train', '800', '--seed', '0']);
    const train = new Set(readMemoryFile(readFileSync(memory, 'utf8')).build.split.trainTasks);
    const data = JSON.parse(readFileSync(FULL, 'utf8')) as Record<string, { prompt: string }>;
    const held = Object.entries(data)
      .filter(([id]) => !train.has(id))
      .slice(0, 60);
    const client = await connect(memory);
    let above = 0;
    for (const [, { prompt }] of held) {
      const sel = await call<Ranked>(client, 'select_tool', { task: prompt, candidates: ['SDXL_2_1', 'DALLE_3'] });
      if (sel.ranked[0]!.tool === 'DALLE_3') above++;
    }
    expect(above / held.length).toBeGreaterThan(0.5);
  });

  it.skipIf(!existsSync(FULL))(
    'a negation prompt: DALLE_3 below its mean; contributions from claims only, each signed as its words, with effect, lfsr and verdict',
    async () => {
      const memory = await buildMemory(FULL, join(dir, 'skills.json'), ['--skills', SKILLS, '--train', '200', '--seed', '1']);
      const client = await connect(memory);
      type Contribution = {
        id: string;
        text: string;
        points: number;
        level?: string;
        status?: string;
        facet?: string;
        effect?: { n: number; ci95: number[]; lfsr?: number; deltaOwn: number; deltaVsOthers: number | null; latent?: { delta: number } };
        verdict?: string;
      };
      const p = await call<{ score: number; mean: number; contributions: Contribution[] }>(client, 'predict_score', {
        tool: 'DALLE_3',
        task: 'A library shelf with no books on it',
      });
      expect(p.score).toBeLessThan(p.mean);
      expect(p.contributions.reduce((a, c) => a + c.points, p.mean)).toBeCloseTo(p.score, 3);
      const entries = p.contributions.filter((c) => c.effect);
      for (const c of entries) {
        expect(c.status).toBe('claim');
        expect(c.effect!.n).toBeGreaterThanOrEqual(10);
        expect(c.effect!.lfsr!).toBeLessThanOrEqual(0.05);
        // Points are the change from the usual lead, the headline delta its words state (issue #34), not the level.
        const fx = c.effect!;
        expect(Math.sign(c.points), c.text).toBe(Math.sign(fx.latent?.delta ?? fx.deltaVsOthers ?? fx.deltaOwn));
        expect(['holds', 'inconclusive', 'contradicted', 'untested']).toContain(c.verdict);
      }
      const recall = await call<{ levels: Record<string, Contribution[]>; applying: Contribution[] }>(client, 'recall', {
        tool: 'DALLE_3',
        task: 'A library shelf with no books on it',
      });
      expect(recall.applying.every((c) => c.status === undefined || c.status === 'claim')).toBe(true);
      const shown = Object.values(recall.levels).flat();
      for (const c of shown.filter((x) => x.status === 'tentative')) expect(c.text.startsWith('Tentative: ')).toBe(true);
    },
  );

  it('exit 2 with every problem for an invalid memory, 1 without --memory', async () => {
    let err = '';
    const code = await main(['mcp', '--memory', join(REPO, 'tests/fixtures/bad-inputs/memory-unknown-level.json')], {
      out: () => {},
      err: (t) => void (err += t),
    });
    expect(code).toBe(2);
    expect(err).toContain('$.tools[0].entries[0].level: string "excellent" is not one of');
    expect(await main(['mcp'], quiet)).toBe(1);
  });
});
