/**
 * The build job: resumable with no experience applied twice (the cursor is committed with the
 * memory change), cancellation and failures leave no half-applied step, resuming after any of
 * them gives the same memory as an uninterrupted run. Also: feedback generation and critiques.
 */
import { describe, expect, it } from 'vitest';
import { CancelledError, ValidationError } from '../../../src/core/errors';
import { LlmHttpError, ScriptedEngine, type ChatMessage, type ChatOptions, type LlmEngine } from '../../../src/core/llm';
import {
  buildCursor,
  buildMetrics,
  createBuildRun,
  InMemoryMemoryRepository,
  nextStep,
  runBuild,
  type BuildConfig,
  type BuildMemoryRepository,
} from '../../../src/core/memory';
import type { Experience } from '../../../src/core/types';
import type { BuildRun } from '../../../src/core/records';
import { buildConfigFor, experience, hashEmbedder } from './helpers';

/** Replies that depend only on the request, so any split of the work gives the same answers. */
function reply(messages: readonly ChatMessage[]): string {
  const system = messages[0]!.content;
  const user = messages[1]!.content;
  const task = /Task: task (\d+)/.exec(user)?.[1] ?? '?';
  if (system.startsWith('You explain evaluation scores')) return `The fences in task ${task} were hard to count.`;
  if (system.startsWith('You study the failures')) return JSON.stringify({ critique: { level: 'weak', text: `Fails at fences like task ${task}` } });
  const ops: unknown[] = [{ op: 'add', level: Number(task) % 2 ? 'good' : 'bad', text: `Insight from task ${task}` }];
  const first = /^\[(E\d+)\]/m.exec(user)?.[1];
  if (first && Number(task) % 3 === 0) ops.push({ op: 'update', id: first, text: `Refined at task ${task}` });
  return JSON.stringify({ operations: ops });
}

const data = (): Map<string, Experience[]> =>
  new Map(['ToolA', 'ToolB'].map((t) => [t, Array.from({ length: 8 }, (_, i) => experience(i + 1, { toolId: t, id: `ds|${i + 1}|${t}|r1` }))]));

const config = (over: Partial<BuildConfig['settings']> = {}) => buildConfigFor(['ToolA', 'ToolB'], {}, { clusters: true, cluster: { minSize: 2 }, ...over });

async function build(engine: LlmEngine, repo: BuildMemoryRepository, run: BuildRun, opts: Parameters<typeof runBuild>[2] = {}, d = data()) {
  return runBuild(run, { repo, engine, embedder: hashEmbedder(), experiences: d, now: () => 1000 }, opts);
}

async function uninterrupted() {
  const repo = new InMemoryMemoryRepository();
  const engine = new ScriptedEngine(reply);
  const run = await build(engine, repo, createBuildRun('b1', config(), data(), 0));
  return { repo, run, calls: engine.calls.length, entries: await repo.allEntries('m1') };
}

/** An engine that fails (once) on a given call number. */
function failingOn(call: number, error: () => Error): LlmEngine & { calls: number } {
  const inner = new ScriptedEngine(reply);
  const e = {
    id: 'flaky',
    capabilities: inner.capabilities,
    calls: 0,
    countTokens: (t: string) => inner.countTokens(t),
    chat(messages: readonly ChatMessage[], options?: ChatOptions) {
      e.calls++;
      if (e.calls === call) return Promise.reject(error());
      return inner.chat(messages, options);
    },
  };
  return e;
}

describe('build job', () => {
  it('runs the capability analysis once for all tools, then experiences per tool, and reports progress', async () => {
    const repo = new InMemoryMemoryRepository();
    const progress: number[] = [];
    const run = await build(new ScriptedEngine(reply), repo, createBuildRun('b1', config(), data(), 0), {
      onProgress: (r) => progress.push(buildMetrics(r).done),
    });
    expect(run.state).toBe('completed');
    expect(progress).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
    const m = buildMetrics(run);
    expect(m).toMatchObject({ done: 17, total: 17, applied: 16, skipped: [], llmCalls: 16, etaMs: 0 });
    expect(m.capability).toMatchObject({ entries: expect.any(Number), facetsTested: expect.any(Number) });
    expect(m.promptTokens).toBeGreaterThan(0);
    expect(m.updatePrompt.count).toBe(16);
    expect(nextStep(run)).toBeNull();
    expect(await repo.getRun('b1')).toMatchObject({ state: 'completed' });
  });

  it('pause after half and resume gives the same memory as an uninterrupted run, no step twice', async () => {
    const full = await uninterrupted();
    const repo = new InMemoryMemoryRepository();
    const engine = new ScriptedEngine(reply);
    const half = await build(engine, repo, createBuildRun('b1', config(), data(), 0), { maxSteps: 9 });
    expect(half.state).toBe('paused');
    const saved = (await repo.getRun('b1'))!;
    expect(saved.state).toBe('paused');
    // Step 1 analysed every tool at once; steps 2–9 were ToolA's eight experiences.
    expect(buildCursor(saved).capability).toBe(true);
    expect(buildCursor(saved).tools.ToolA).toMatchObject({ clustered: true, next: 8 });
    expect(buildCursor(saved).tools.ToolB).toMatchObject({ clustered: true, next: 0 });
    const done = await build(engine, repo, saved);
    expect(done.state).toBe('completed');
    expect(engine.calls.length).toBe(full.calls);
    expect(await repo.allEntries('m1')).toEqual(full.entries);
    expect(buildMetrics(done).applied).toBe(16);
  });

  it('pauses between steps when the signal is aborted', async () => {
    const repo = new InMemoryMemoryRepository();
    const ctrl = new AbortController();
    const run = await build(new ScriptedEngine(reply), repo, createBuildRun('b1', config(), data(), 0), {
      signal: ctrl.signal,
      onProgress: (r) => buildMetrics(r).done === 3 && ctrl.abort(),
    });
    expect(run.state).toBe('paused');
    expect(buildMetrics(run).done).toBe(3);
  });

  it.each([
    ['cancelled inside an LLM call', () => new CancelledError(), 'paused'],
    ['the server answers HTTP 500', () => new LlmHttpError('LLM server answered HTTP 500', 500, 'boom'), 'failed'],
  ] as const)('%s: nothing of that step is applied; resuming completes the same memory', async (_name, error, state) => {
    const full = await uninterrupted();
    const repo = new InMemoryMemoryRepository();
    const flaky = failingOn(5, error);
    const stopped = await build(flaky, repo, createBuildRun('b1', config(), data(), 0));
    expect(stopped.state).toBe(state);
    if (state === 'failed') expect(stopped.error).toMatch(/LlmHttpError: .*HTTP 500/);
    // Clusters of ToolA and its first 4 experiences are in; experience 5 is not.
    expect(buildCursor((await repo.getRun('b1'))!).tools.ToolA!.next).toBe(4);
    expect((await repo.allEntries('m1')).some((e) => e.evidence.includes('ds|5|ToolA|r1') && e.origin === 'llm')).toBe(false);
    const resumed = await build(new ScriptedEngine(reply), repo, (await repo.getRun('b1'))!);
    expect(resumed.state).toBe('completed');
    expect(resumed.error).toBeUndefined();
    expect(await repo.allEntries('m1')).toEqual(full.entries);
  });

  it('a storage failure during the commit applies nothing; resuming completes the same memory', async () => {
    const full = await uninterrupted();
    const repo = new InMemoryMemoryRepository();
    let commits = 0;
    const broken: BuildMemoryRepository = Object.create(repo) as BuildMemoryRepository;
    broken.applyUpdate = (...args) => (++commits === 6 ? Promise.reject(new Error('disk full')) : repo.applyUpdate(...args));
    const stopped = await build(new ScriptedEngine(reply), broken, createBuildRun('b1', config(), data(), 0));
    expect(stopped).toMatchObject({ state: 'failed', error: 'Error: disk full' });
    const resumed = await build(new ScriptedEngine(reply), repo, (await repo.getRun('b1'))!);
    expect(await repo.allEntries('m1')).toEqual(full.entries);
    expect(buildMetrics(resumed).applied).toBe(16);
  });

  it('refuses to resume when the data changed', async () => {
    const repo = new InMemoryMemoryRepository();
    await build(new ScriptedEngine(reply), repo, createBuildRun('b1', config(), data(), 0), { maxSteps: 2 });
    const changed = data();
    changed.get('ToolB')!.push(experience(99, { toolId: 'ToolB' }));
    await expect(build(new ScriptedEngine(reply), repo, (await repo.getRun('b1'))!, {}, changed)).rejects.toThrow(ValidationError);
  });

  it('writes missing feedback (marked generated) and distils critiques from low scores', async () => {
    const repo = new InMemoryMemoryRepository();
    const saved: Experience[] = [];
    const exps = [experience(1, { score: 1, feedback: undefined }), experience(2, { score: 5, feedback: undefined }), experience(4, { score: 2 })];
    const d = new Map([['ToolA', exps]]);
    const engine = new ScriptedEngine(reply);
    const run = await runBuild(createBuildRun('b2', buildConfigFor(['ToolA'], {}, { feedback: true, critiqueBelow: 0.25 }), d, 0), {
      repo,
      engine,
      embedder: hashEmbedder(),
      experiences: d,
      saveFeedback: async (e) => void saved.push(e),
    });
    expect(run.state).toBe('completed');
    // 1: feedback, update, critique; 2: feedback, update; 4 (has feedback, score 2): update, critique.
    expect(engine.calls.map((c) => c.messages[0]!.content.slice(0, 14))).toEqual([
      'You explain ev',
      'You maintain a',
      'You study the ',
      'You explain ev',
      'You maintain a',
      'You maintain a',
      'You study the ',
    ]);
    expect(engine.calls[1]!.messages[1]!.content).toContain('Feedback (written by a model, not by the rater): The fences in task 1');
    expect(saved.map((e) => [e.id, e.feedbackGenerated, e.feedback])).toEqual([
      [exps[0]!.id, true, 'The fences in task 1 were hard to count.'],
      [exps[1]!.id, true, 'The fences in task 2 were hard to count.'],
    ]);
    const critiques = (await repo.validEntries('m1', 'ToolA')).filter((e) => e.origin === 'critique');
    expect(critiques.map((e) => [e.level, e.text, e.evidence])).toEqual([
      ['weak', 'Fails at fences like task 1', [exps[0]!.id]],
      ['weak', 'Fails at fences like task 4', [exps[2]!.id]],
    ]);
    expect(buildMetrics(run)).toMatchObject({ generatedFeedback: 2, critiques: 2, llmCalls: 7 });
  });
});
