/** `toolmem build-memory`, run in-process: the JSON memory it writes, and its exit codes. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolmem } from '../helpers/cli';
import { existsSync } from 'node:fs';
import type { MemoryFileV1 } from '../../../src/core/memory';
import { readMemoryFile, serializeMemoryFile } from '../../../src/core/memory-format';

const REPO = resolve(import.meta.dirname, '../../..');
const SLICE = resolve(REPO, 'tests/fixtures/import/genai_image_slice.json');
const FULL = resolve(REPO, '../shared/data/genai_bench/genai_image.json');
const SKILLS = resolve(REPO, '../shared/data/genai_bench/genai_skills.json');
const TOOLS = ['DALLE_3', 'DeepFloyd_I_XL_v1', 'Midjourney_6', 'SDXL_2_1', 'SDXL_Base', 'SDXL_Turbo'];
const dir = mkdtempSync(join(tmpdir(), 'toolmem-build-'));

describe('toolmem build-memory', { timeout: 90_000 }, () => {
  it('writes a version-2 memory: facets, effects, the matrix and the fitted predictor (no LLM)', async () => {
    const out = join(dir, 'memory.json');
    const { code, stdout } = await toolmem(['build-memory', '--data', SLICE, '--train', '15', '--seed', '3', '--out', out, '--json']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout) as { tools: Record<string, Record<string, number>>; trainTasks: number; engine: string; facets: number };
    expect(summary).toMatchObject({ trainTasks: 15, engine: 'none' });
    const text = readFileSync(out, 'utf8');
    const file = readMemoryFile(text);
    expect(serializeMemoryFile(file)).toBe(text); // written in canonical form
    expect(file).toMatchObject({
      version: 4,
      kind: 'toolmem-memory',
      build: { state: 'completed', datasetId: 'genai-bench', engine: 'none', split: { train: 15, seed: 3 } },
    });
    expect(file.memory.embeddingModel).toMatch(/^glove-100d@/);
    expect(file.build.split.trainTasks).toHaveLength(15);
    expect(file.tools.map((t) => t.id)).toEqual(TOOLS);
    const cap = file.build.capability!;
    expect(cap.tools).toEqual(TOOLS);
    expect(cap.report.facetsTested).toBe(summary.facets);
    expect(cap.facets).toHaveLength(summary.facets);
    expect(cap.model?.model.tools).toEqual(TOOLS);
    for (const tool of file.tools) expect(summary.tools[tool.id]).toEqual(tool.counts);
  });

  it.skipIf(!existsSync(FULL))('--skills: GenAI-Bench skills become facets; entries carry facet, effect and evidence from the training split', async () => {
    const out = join(dir, 'skills.json');
    const { code } = await toolmem(['build-memory', '--data', FULL, '--skills', SKILLS, '--train', '200', '--seed', '1', '--out', out, '--json']);
    expect(code).toBe(0);
    const file = readMemoryFile(readFileSync(out, 'utf8'));
    const cap = file.build.capability!;
    expect(cap.facets.filter((f) => f.facet.kind === 'category').map((f) => f.facet.name)).toContain('negation (tagged)');
    const train = new Set(file.build.split.trainTasks);
    const entries = file.tools.flatMap((t) => t.entries.filter((e) => !e.profile));
    expect(entries.length).toBeGreaterThan(0);
    // Every tool has its profile (the overall entry), with all its training experiences as evidence.
    for (const t of file.tools) expect(t.entries.filter((e) => e.profile).map((e) => e.evidence.length)).toEqual([200]);
    for (const e of entries) {
      expect(e).toMatchObject({ origin: 'stats', value: { proficient: 2, good: 1, bad: -1, weak: -2 }[e.level] });
      expect(e.facet).toBeDefined();
      expect(e.effect!.n).toBe(e.evidence.length);
      expect(e.support).toBe(e.evidence.length);
      for (const t of e.evidenceTasks) expect(train.has(t)).toBe(true);
    }
    // Shrunk claims keep their raw estimate beside them; a claim's 95% interval excludes 0.
    for (const e of entries) {
      expect(e.effect!.raw).toBeDefined();
      if (e.effect!.status === 'claim') expect(e.effect!.ci95[0] > 0 || e.effect!.ci95[1] < 0).toBe(true);
    }
  });

  it('exit 1 on usage errors, 2 when the data or the LLM server fails', async () => {
    expect((await toolmem(['build-memory', '--data', SLICE])).stderr).toMatch(/--out FILE is required/);
    expect((await toolmem(['build-memory', '--data', SLICE, '--out', join(dir, 'x.json'), '--llm', 'gpt'])).code).toBe(1);
    const browserOnly = await toolmem(['build-memory', '--data', SLICE, '--out', join(dir, 'x.json'), '--llm', 'wllama:/models/m.gguf']);
    expect(browserOnly.code).toBe(1);
    expect(browserOnly.stderr).toContain('runs only in the browser app');
    expect((await toolmem(['build-memory', '--data', SLICE, '--out', join(dir, 'x.json'), '--train', '0'])).code).toBe(1);
    expect((await toolmem(['build-memory', '--data', SLICE, '--out', join(dir, 'x.json'), '--no-clusters'])).code).toBe(1);
    expect((await toolmem(['build-memory', '--data', SLICE, '--out', join(dir, 'x.json'), '--tools', 'Nope'])).stderr).toMatch(
      /--tools: not in the data: 'Nope' \(tools: 'DALLE_3', /,
    );
    const missing = await toolmem(['build-memory', '--data', join(dir, 'missing.json'), '--out', join(dir, 'x.json')]);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toMatch(/no such file/);

    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((done) => probe.close(done));
    const down = await toolmem([
      'build-memory',
      '--data',
      SLICE,
      '--tools',
      'DALLE_3',
      '--out',
      join(dir, 'y.json'),
      '--llm',
      `openai:http://127.0.0.1:${port}/v1#m`,
    ]);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/the build failed: LlmConnectionError: Cannot reach the LLM server/);
  });

  it('builds with an OpenAI-compatible server: feedback, updates and critiques end to end', async () => {
    const requests: { system: string; model: unknown }[] = [];
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (d: Buffer) => (raw += d.toString('utf8')));
      req.on('end', () => {
        const body = JSON.parse(raw) as { model: string; messages: { content: string }[] };
        const system = body.messages[0]!.content;
        requests.push({ system: system.slice(0, 20), model: body.model });
        const content = system.startsWith('You explain')
          ? 'The scene was complex.'
          : system.startsWith('You study')
            ? '{"critique": {"level": "bad", "text": "Struggles with busy scenes"}}'
            : '{"operations": [{"op": "add", "level": "good", "text": "Handles simple scenes"}]}';
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { content } }], usage: { prompt_tokens: 100, completion_tokens: 10 } }));
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    const out = join(dir, 'llm.json');
    try {
      const { code, stdout, stderr } = await toolmem([
        'build-memory',
        '--data',
        SLICE,
        '--tools',
        'SDXL_2_1',
        '--train',
        '4',
        '--seed',
        '1',
        '--out',
        out,
        '--llm',
        `openai:http://127.0.0.1:${port}/v1#test-model`,
        '--json',
      ]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const summary = JSON.parse(stdout) as { llmCalls: number; promptTokens: number };
      expect(summary.llmCalls).toBe(requests.length);
      expect(summary.promptTokens).toBe(100 * requests.length);
    } finally {
      await new Promise((done) => server.close(done));
    }
    expect(requests.every((r) => r.model === 'test-model')).toBe(true);
    const file = JSON.parse(readFileSync(out, 'utf8')) as MemoryFileV1;
    expect(file.build.engine).toBe(`openai:http://127.0.0.1:${port}/v1#test-model`);
    // One tool: its capability analysis has no contrast and, on 4 tasks, no clear effect (only its
    // profile); the model writes the rest.
    expect(file.tools[0]!.entries.filter((e) => e.origin === 'stats').map((e) => e.id)).toEqual([expect.stringMatching(/:SDXL_2_1:overall$/)]);
    const origins = new Set(file.tools[0]!.entries.filter((e) => e.origin !== 'stats').map((e) => e.origin));
    expect(origins).toEqual(new Set(['llm', ...(requests.some((r) => r.system.startsWith('You study')) ? ['critique'] : [])]));
    // Every training experience lacked feedback: one explanation each, then one update each.
    expect(requests.filter((r) => r.system.startsWith('You explain'))).toHaveLength(4);
    expect(requests.filter((r) => r.system.startsWith('You maintain'))).toHaveLength(4);
  });

  it('--help', async () => {
    const { code, stdout } = await toolmem(['build-memory', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--llm SPEC/);
  });
});
