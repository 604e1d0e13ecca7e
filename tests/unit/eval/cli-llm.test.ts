/**
 * `toolmem eval --llm` against the e2e fake OpenAI-compatible server: the same numbers as the
 * app's eval handler for the same split, seed and engine (issue #17), the `llm` stats in the JSON,
 * progress on stderr, and a stopped run reporting what it finished, marked partial.
 */
import { dropDbs, newDb } from '../helpers/db';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEval } from '../../../src/cli/commands/eval';
import { main } from '../../../src/cli/main';
import { duration, llmProgress, progressLine } from '../../../src/cli/llm-progress';
import { createRepositories } from '../../../src/db';
import { createTransformersEmbedder } from '../../../src/model-host/transformers-embedder';
import { createInThreadClient } from '../../../src/rpc';
import type { EvalResult } from '../../../src/app/evaluate/api';
import { createEvalHandlers } from '../../../src/app/evaluate/evaluate';
import { createImportHandlers } from '../../../src/app/import/handlers';
import { startFakeLlmServer, type FakeLlmServer } from '../../e2e/support/fake-llm-server';

const REPO = resolve(import.meta.dirname, '../../..');
const FIXTURE = 'tests/fixtures/import/genai_image_slice.json';
// Our e2e port (4506) + 60: no other suite's server listens there.
const PORT = 4566;
const METHODS = ['generic-llm', 'fewshot-llm', 'toolmem-llm', 'hybrid'];

/** A deterministic reply that follows the prompt: a score from its length, and every 7th-length prompt unreadable. */
function scoreReply(user: string): string {
  if (user.length % 7 === 0) return 'I cannot tell.';
  return `{"score": ${1 + (user.length % 5)}}`;
}

/** `value` without the bootstrap intervals (`ci95`, `vsBaseline`, at any depth). */
function withoutCi(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCi);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'ci95' && k !== 'vsBaseline')
      .map(([k, v]) => [k, withoutCi(v)]),
  );
}

let server: FakeLlmServer;
let spec: string;
/** Stops a run (as Ctrl-C would) once the server has answered `calls` more score predictions. */
let abortAfter: { calls: number; controller: AbortController } | null = null;
let served = 0;
const db = newDb('eval-cli-llm');
const repos = createRepositories(db);
const embedder = createTransformersEmbedder();

async function cli(args: string[], signal?: AbortSignal): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runEval(args, { out: (t) => void (stdout += `${t}\n`), err: (t) => void (stderr += `${t}\n`) }, signal);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  server = await startFakeLlmServer(PORT, {
    scorePrediction: (user) => {
      served++;
      if (abortAfter && served >= abortAfter.calls) abortAfter.controller.abort(new Error('test stop'));
      return scoreReply(user);
    },
  });
  spec = `openai:${server.url}#fake-model`;
  await db.open();
  const imports = createInThreadClient(createImportHandlers(repos));
  await imports.call('import', { file: new File([readFileSync(resolve(REPO, FIXTURE))], 'genai_image.json'), datasetName: 'G' });
});
afterAll(async () => {
  await server.close();
  await dropDbs();
});

describe('toolmem eval --llm', { timeout: 120_000 }, () => {
  it("gives the app's numbers for the same split, seed and engine (5 test tasks, every LLM method)", async () => {
    const app = createInThreadClient(createEvalHandlers({ repos, embedder: async () => embedder }));
    const run = await app.call('evaluate', { datasetId: 'g', train: 10, test: 10, seeds: 1, methods: METHODS, engine: spec, llmMaxTest: 5 });
    const result = run.metrics as unknown as EvalResult;
    const before = server.requests.length;
    const { code, stdout, stderr } = await cli([
      '--data',
      FIXTURE,
      '--train',
      '10',
      '--test',
      '10',
      '--seeds',
      '1',
      '--methods',
      METHODS.join(','),
      '--llm',
      spec,
      '--llm-tasks',
      '5',
      '--json',
      '-',
    ]);
    expect(code).toBe(0);
    // 4 methods × 5 test tasks × 6 tools.
    expect(server.requests.length - before).toBe(120);
    const json = JSON.parse(stdout);
    for (const m of METHODS) {
      // ci95 (the bootstrap intervals) has its own test; the metrics and pairs are compared here.
      const { llm, ...metrics } = withoutCi(json.methods[m]) as { llm: unknown; tools: { DALLE_3: { n: number } } };
      expect(metrics).toEqual(result.report.methods[m]);
      expect(withoutCi(json.pairs[m])).toEqual(result.report.pairs[m]);
      const appLlm = result.llm![m]!;
      expect(llm).toEqual({
        calls: 30,
        parseFailures: appLlm.parseFailures,
        outOfRange: appLlm.outOfRange,
        promptTokens: appLlm.promptTokens,
        completionTokens: appLlm.completionTokens,
        testTasks: 5,
      });
      expect(metrics.tools.DALLE_3.n).toBe(5);
    }
    // The replies vary, so the comparison is not between constants; some were unreadable.
    expect(new Set(METHODS.map((m) => json.methods[m].mean.mae)).size).toBeGreaterThan(1);
    expect(METHODS.reduce((s, m) => s + json.methods[m].llm.parseFailures, 0)).toBeGreaterThan(0);
    expect(json.baselines.alwaysStronger).toEqual(result.report.baselines.alwaysStronger);
    expect(json.baselines.oracleGapCaptured).toEqual(result.report.baselines.oracleGapCaptured);
    // Progress on stderr: calls done / planned, the rate and the time left.
    expect(stderr).toMatch(/model calls 120 \/ 120 \(100%\), [\d.]+ calls\/s, about 0 s left/);
    expect(stderr).toMatch(/Seed 1: fewshot-llm/);
  });

  it('prints the text report with a table of model calls', async () => {
    const { code, stdout } = await cli([
      '--data',
      FIXTURE,
      '--train',
      '10',
      '--test',
      '10',
      '--seeds',
      '1',
      '--methods',
      'tool-mean,generic-llm',
      '--llm',
      spec,
      '--llm-tasks',
      '2',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Language-model calls/);
    expect(stdout).toMatch(/generic-llm\s+2\s+12\s+\d+\s+\d+\s+\d+\s+\d+/);
    expect(stdout).not.toMatch(/PARTIAL/);
  });

  it('a stopped run reports the seeds it finished, marked partial, with exit code 130', async () => {
    const controller = new AbortController();
    // Seed 1: 2 methods × 2 tasks × 6 tools = 24 calls; stop during seed 2.
    abortAfter = { calls: served + 30, controller };
    try {
      const { code, stdout, stderr } = await cli(
        [
          '--data',
          FIXTURE,
          '--train',
          '10',
          '--test',
          '10',
          '--seeds',
          '3',
          '--methods',
          'generic-llm,toolmem-llm',
          '--llm',
          spec,
          '--llm-tasks',
          '2',
          '--json',
          '-',
        ],
        controller.signal,
      );
      expect(code).toBe(130);
      const json = JSON.parse(stdout);
      expect(json.partial).toEqual({ interrupted: true, finished: '1 complete seed(s) of the run: 1' });
      expect(json.methods['generic-llm'].llm).toMatchObject({ calls: 12, testTasks: 2 });
      expect(stderr).toMatch(/stopped by Ctrl-C; reporting 1 complete seed/);
    } finally {
      abortAfter = null;
    }
  });

  it('stopped inside the first seed: the methods that finished, marked partial', async () => {
    const controller = new AbortController();
    abortAfter = { calls: served + 15, controller };
    try {
      const { code, stdout } = await cli(
        ['--data', FIXTURE, '--train', '10', '--test', '10', '--seeds', '1', '--methods', 'generic-llm,fewshot-llm', '--llm', spec, '--llm-tasks', '2'],
        controller.signal,
      );
      expect(code).toBe(130);
      expect(stdout).toMatch(/PARTIAL RESULTS \(stopped by Ctrl-C\): seed 1 only, methods generic-llm/);
      expect(stdout).toMatch(/^generic-llm /m);
      expect(stdout).not.toMatch(/^fewshot-llm /m);
    } finally {
      abortAfter = null;
    }
  });

  it('--memory FILE: a memory built with the model is evaluated on its own split, the prompts quoting its entries', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'toolmem-eval-mem-')), 'memory.json');
    let built = '';
    const code = await main(['build-memory', '--data', FIXTURE, '--train', '10', '--seed', '1', '--llm', spec, '--no-critiques', '--out', out], {
      out: (t) => void (built += t),
      err: () => undefined,
    });
    expect(code, built).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    const trainTasks: string[] = file.build.split.trainTasks;
    expect(trainTasks).toHaveLength(10);
    const before = server.requests.length;
    const {
      code: evalCode,
      stdout,
      stderr,
    } = await cli(['--data', FIXTURE, '--memory', out, '--methods', 'memory,toolmem-llm', '--llm', spec, '--llm-tasks', '3', '--json', '-']);
    expect(evalCode, stderr).toBe(0);
    expect(stderr).toMatch(/its own split, 10 training tasks and \d+ test tasks it never saw \(seed 1\)/);
    const json = JSON.parse(stdout);
    // 3 test tasks × 6 tools for toolmem-llm; memory needs no model.
    expect(json.methods['toolmem-llm'].llm).toMatchObject({ calls: 18, testTasks: 3 });
    const prompts = server.requests
      .slice(before)
      .filter((r) => r.schema === 'score_prediction')
      .map((r) => r.user);
    expect(prompts).toHaveLength(18);
    // The model's own entries (the fake server writes "Fake model: …") reach the prompts; no training task is asked about.
    expect(prompts.some((u) => u.includes('Fake model:'))).toBe(true);
    const asked = new Set(prompts.map((u) => /New task: (.*)/.exec(u)![1]!));
    const trainPrompts = new Set(
      (Object.values(JSON.parse(readFileSync(resolve(REPO, FIXTURE), 'utf8'))) as { id: string; prompt: string }[])
        .filter((r) => trainTasks.includes(r.id))
        .map((r) => r.prompt),
    );
    expect(trainPrompts.size).toBe(10);
    for (const p of asked) expect(trainPrompts.has(p)).toBe(false);
    const bad = await cli(['--data', FIXTURE, '--memory', out, '--seeds', '3']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/one split, its own/);
  });

  it('refuses LLM methods without --llm, and engines the CLI cannot run', async () => {
    const a = await cli(['--data', FIXTURE, '--methods', 'generic-llm']);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/needs a language model: add --llm openai:URL#MODEL/);
    const b = await cli(['--data', FIXTURE, '--llm', 'wllama:https://example.org/m.gguf']);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/runs only in the browser app/);
    const c = await cli(['--data', FIXTURE, '--llm', spec, '--llm-tasks', '0']);
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/--llm-tasks must be a whole number ≥ 1 or 'all', got “0”|--llm-tasks must be a whole number ≥ 1 or 'all'/);
  });
});

describe('progress line', () => {
  it('shows calls done of planned, the rate and the time left in whole units', () => {
    expect(progressLine({ done: 1, total: 4, label: 'Seed 1: generic-llm', calls: { done: 120, total: 480 } }, 50_000)).toBe(
      'model calls 120 / 480 (25%), 2.4 calls/s, about 2 min 30 s left — Seed 1: generic-llm',
    );
    expect(duration(3725)).toBe('1 h 02 min');
    expect(duration(59.6)).toBe('1 min 00 s');
  });

  it('writes at most one line a second, and the last one', () => {
    let t = 0;
    const lines: string[] = [];
    const sink = llmProgress((l) => lines.push(l), { now: () => t });
    const p = (done: number) => ({ done: 0, total: 1, label: 'Seed 1: generic-llm', calls: { done, total: 10 } });
    for (let i = 1; i <= 10; i++) {
      t += 300;
      sink(p(i));
    }
    // t = 300 (first), 1500 (the first time ≥ 1 s later), 2700, and the 10th and last call at 3000.
    expect(lines.map((l) => /calls (\d+)/.exec(l)![1])).toEqual(['1', '5', '9', '10']);
  });
});
