/** The eval service with the memory and LLM methods (ScriptedEngine as the host's `engineOf`). */
import { dropDbs, newDb } from '../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEngineSpec, parseEngineSpec, ScriptedEngine } from '../../../src/core/llm';
import { createRepositories } from '../../../src/db';
import { createTransformersEmbedder } from '../../../src/model-host/transformers-embedder';
import { createInThreadClient } from '../../../src/rpc';
import { main } from '../../../src/cli/main';
import type { EvalResult } from '../../../src/app/evaluate/api';
import { createEvalHandlers } from '../../../src/app/evaluate/evaluate';
import { createImportHandlers } from '../../../src/app/import/handlers';

const REPO = resolve(import.meta.dirname, '../../..');
const FIXTURE = 'tests/fixtures/import/genai_image_slice.json';
const db = newDb('eval-llm-svc');
const repos = createRepositories(db);
const embedder = createTransformersEmbedder();
const specs: string[] = [];
const engine = new ScriptedEngine((messages, call) =>
  call % 10 === 9 ? 'not sure' : `{"score": ${messages.at(-1)!.content.includes('capability memory') ? 4 : 3}}`,
);
const client = createInThreadClient(
  createEvalHandlers({
    repos,
    embedder: async () => embedder,
    // The scripted engine stands in for every spec (as the llm worker's engines do in the app).
    engineOf: (spec) => {
      specs.push(formatEngineSpec(spec));
      return engine;
    },
  }),
);

beforeAll(async () => {
  await db.open();
  const imports = createInThreadClient(createImportHandlers(repos));
  await imports.call('import', { file: new File([readFileSync(resolve(REPO, FIXTURE))], 'genai_image.json'), datasetName: 'G' });
});
afterAll(async () => {
  await dropDbs();
});

describe('eval service: memory and LLM methods', { timeout: 60_000 }, () => {
  it('memory gives the same numbers as `toolmem eval --methods memory`', async () => {
    const run = await client.call('evaluate', { datasetId: 'g', train: 10, test: 10, seeds: 2, methods: ['memory'] });
    const result = run.metrics as unknown as EvalResult;
    let out = '';
    await main(['eval', '--data', FIXTURE, '--train', '10', '--test', '10', '--seeds', '2', '--methods', 'memory', '--json', '-'], {
      out: (t) => void (out += t),
      err: () => undefined,
    });
    const cli = JSON.parse(out);
    // The CLI adds the bootstrap's ci95 beside the means (the service keeps them in result.intervals).
    const { ci95, vsBaseline: _vs, tools, ...means } = cli.methods.memory;
    const plainTools = Object.fromEntries(Object.entries(tools as Record<string, { ci95: unknown }>).map(([t, { ci95: _ci, ...m }]) => [t, m]));
    expect(result.report.methods.memory).toEqual({ ...means, tools: plainTools });
    expect(result.intervals!.methods.memory!.metrics.mae.lo).toBeCloseTo(ci95.mae[0], 6);
    expect(result.report.pairs.memory).toEqual(cli.pairs.memory);
  });

  it('runs LLM methods on the first N test tasks, reports calls as progress and the parse counts', async () => {
    const progress: { calls?: { done: number; total: number } }[] = [];
    const run = await client.call(
      'evaluate',
      {
        datasetId: 'g',
        train: 10,
        test: 10,
        seeds: 1,
        methods: ['tool-mean', 'generic-llm', 'toolmem-llm'],
        engine: 'openai:http://127.0.0.1:9/v1#m',
        llmMaxTest: 4,
      },
      { onProgress: (p) => progress.push(p) },
    );
    expect(specs.at(-1)).toBe('openai:http://127.0.0.1:9/v1#m');
    const result = run.metrics as unknown as EvalResult;
    // 4 test tasks × 6 tools = 24 calls per LLM method; every 10th reply is unreadable.
    expect(result.llm!['generic-llm']).toMatchObject({ calls: 24, testTasks: 4 });
    expect(result.llm!['toolmem-llm']).toMatchObject({ calls: 24, testTasks: 4 });
    expect(result.llm!['generic-llm']!.parseFailures + result.llm!['toolmem-llm']!.parseFailures).toBe(4);
    expect(result.llm!['tool-mean']).toBeUndefined();
    expect(result.report.methods['generic-llm']!.tools.DALLE_3!.n).toBe(4);
    expect(result.report.methods['tool-mean']!.tools.DALLE_3!.n).toBe(10);
    // The last progress with a call count (the bootstrap intervals report after it, without one).
    expect(progress.filter((p) => p.calls).at(-1)!.calls).toEqual({ done: 48, total: 48 });
  });

  it('refuses LLM methods without a language model, naming where to choose one', async () => {
    await expect(client.call('evaluate', { datasetId: 'g', seeds: 1, methods: ['generic-llm'] })).rejects.toThrow(/choose one in Settings/);
    await expect(client.call('evaluate', { datasetId: 'g', seeds: 1, methods: ['hybrid'], engine: 'none' })).rejects.toThrow(/choose one in Settings/);
    await expect(
      client.call('evaluate', { datasetId: 'g', seeds: 1, methods: ['generic-llm'], engine: 'openai:http://x/v1#m', llmMaxTest: 0 }),
    ).rejects.toThrow(/whole number ≥ 1/);
  });

  it('predicts with toolmem-llm from the capability analysis of the data (entries cited with their text)', async () => {
    const res = await client.call('predict', {
      datasetId: 'g',
      method: 'toolmem-llm',
      prompt: 'A cat asleep under a wooden table',
      engine: parseEngineSpec('openai:http://127.0.0.1:9/v1#m'),
    });
    expect(res.predictions).toHaveLength(6);
    // On the 20-prompt slice, with theme facets tested too, no tool × facet effect is clear (BH at
    // q ≤ 0.10): no entry applies, and the prompt says so instead of inventing one.
    // (Which entries reach the prompt when some apply: tests/unit/predict/llm-predictors.test.ts.)
    expect(res.predictions.flatMap((p) => p.evidence)).toEqual([]);
    expect(engine.calls.at(-1)!.messages.at(-1)!.content).toContain('its memory has no entries related to this task');
    expect(res.predictions.every((p) => p.score >= 1 && p.score <= 5)).toBe(true);
  });
});
