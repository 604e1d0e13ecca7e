/** `toolmem verify`: verdicts on the tasks outside the memory's training split, in-process. */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolmem } from '../helpers/cli';

const REPO = resolve(import.meta.dirname, '../../..');
const SLICE = resolve(REPO, 'tests/fixtures/import/genai_image_slice.json');
const ALPACA = resolve(REPO, 'tests/fixtures/import/alpaca_experiences_slice.csv');
const FULL = resolve(REPO, '../shared/data/genai_bench/genai_image.json');
const SKILLS = resolve(REPO, '../shared/data/genai_bench/genai_skills.json');
const dir = mkdtempSync(join(tmpdir(), 'toolmem-verify-'));

interface VerifyJson {
  precision: number | null;
  tested: number;
  counts: Record<string, number>;
  untestedTools: { toolId: string; why: string }[];
  direction: number | null;
  confirmed: number | null;
  calibration: number | null;
  entries: {
    id: string;
    tool: string;
    verdict: string;
    n: number;
    claimed: number | null;
    observed: number | null;
    ci95: [number, number] | null;
    effect: { claimed: number | null; observed: number | null; ci95: [number, number] | null };
  }[];
}

describe('toolmem verify', { timeout: 120_000 }, () => {
  it.skipIf(!existsSync(FULL))('GenAI-Bench, 200 training tasks: every entry gets a verdict on the other 1,400; the same verdicts as the build', async () => {
    const out = join(dir, 'm.json');
    expect((await toolmem(['build-memory', '--data', FULL, '--skills', SKILLS, '--train', '200', '--seed', '2', '--out', out, '--json'])).code).toBe(0);
    const { code, stdout } = await toolmem(['verify', '--memory', out, '--data', FULL, '--skills', SKILLS, '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as VerifyJson;
    expect(Object.keys(json).slice(0, 5)).toEqual(['direction', 'confirmed', 'calibration', 'precision', 'tested']);
    expect(json.entries.length).toBeGreaterThan(0);
    for (const e of json.entries) {
      expect(Object.keys(e)).toEqual(['id', 'tool', 'verdict', 'n', 'claimed', 'observed', 'ci95', 'effect']);
      expect(e.effect).toEqual({ claimed: e.claimed, observed: e.observed, ci95: e.ci95 });
      expect(['holds', 'inconclusive', 'contradicted', 'untested']).toContain(e.verdict);
      if (e.verdict !== 'untested') expect(e.n).toBeGreaterThanOrEqual(15);
    }
    const tested = json.entries.filter((e) => e.verdict !== 'untested');
    expect(json.tested).toBe(tested.length);
    // direction (= precision): the share of tested claims whose unseen sign agrees; confirmed: the share that hold.
    const agree = tested.filter((e) => Math.sign(e.observed!) === Math.sign(e.claimed!)).length;
    expect(json.direction).toBe(agree / tested.length);
    expect(json.precision).toBe(json.direction);
    expect(json.confirmed).toBe(tested.filter((e) => e.verdict === 'holds').length / tested.length);
    // A holds verdict: the unseen interval lies on the claimed side of zero.
    for (const e of tested.filter((x) => x.verdict === 'holds')) {
      const s = Math.sign(e.claimed!);
      expect(Math.min(s * e.ci95![0], s * e.ci95![1])).toBeGreaterThan(0);
    }
    const memory = JSON.parse((await import('node:fs')).readFileSync(out, 'utf8')) as { tools: { entries: { id: string; verdict?: { verdict: string } }[] }[] };
    const atBuild = new Map(memory.tools.flatMap((t) => t.entries.map((e) => [e.id, e.verdict?.verdict])));
    for (const e of json.entries) expect(atBuild.get(e.id), e.id).toBe(e.verdict);
  });

  it.skipIf(!existsSync(FULL))('data whose tools differ: every tool of the memory is named untested, with the reason', async () => {
    const out = join(dir, 'm.json');
    if (!existsSync(out))
      expect((await toolmem(['build-memory', '--data', FULL, '--skills', SKILLS, '--train', '200', '--seed', '2', '--out', out, '--json'])).code).toBe(0);
    const { code, stdout } = await toolmem(['verify', '--memory', out, '--data', ALPACA, '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as VerifyJson;
    const tools = [...new Set(json.entries.map((e) => e.tool))].sort();
    expect(tools.length).toBeGreaterThan(0);
    // Every tool of the memory (each has at least its profile), claims or not.
    expect(json.untestedTools.map((t) => t.toolId)).toEqual(['DALLE_3', 'DeepFloyd_I_XL_v1', 'Midjourney_6', 'SDXL_2_1', 'SDXL_Base', 'SDXL_Turbo']);
    for (const t of json.untestedTools) expect(t.why).toBe('the unseen data has no score of this tool');
    expect(json.entries.every((e) => e.verdict === 'untested' && e.n === 0)).toBe(true);
    expect(json.tested).toBe(0);
    expect(json.precision).toBeNull();
  });

  it('exit codes: 1 without --memory, 2 for an unreadable or invalid memory', async () => {
    expect((await toolmem(['verify', '--data', SLICE])).code).toBe(1);
    expect((await toolmem(['verify', '--memory', join(dir, 'nope.json'), '--data', SLICE])).code).toBe(2);
    const bad = await toolmem(['verify', '--memory', resolve(REPO, 'tests/fixtures/bad-inputs/memory-wrong-version.json'), '--data', SLICE]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unsupported version 5/);
  });
});
