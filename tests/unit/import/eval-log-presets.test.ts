/**
 * Presets for evaluation logs (issue #18): each imports its fixture with the right counts, tools,
 * scores, feedback, cost and latency. promptfoo's fixture was written by promptfoo itself; the
 * others by hand from the tools' documented formats (tests/fixtures/import/README.md).
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/core/errors';
import { detectPreset, previewRows } from '../../../src/core/import';
import { FIXTURES, chunked, fileSource, importFile, importSource, mean, readText } from './helpers';
import type { Experience } from '../../../src/core/types';

const fx = (name: string) => resolve(FIXTURES, name);
const byTool = (rows: Experience[]) => {
  const out = new Map<string, Experience[]>();
  for (const r of rows) out.set(r.toolId, [...(out.get(r.toolId) ?? []), r]);
  return out;
};
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('promptfoo preset (fixture written by promptfoo 0.123.1)', () => {
  const FILE = fx('promptfoo/results.json');

  it('reads results.results[] from inside the output file: 20 tests × 3 providers', async () => {
    const { summary, sink } = await importFile(FILE);
    expect(summary.preset).toBe('promptfoo');
    expect(summary.confidence).toBe(0.98);
    expect(summary.format).toBe('json');
    expect([summary.rowsRead, summary.accepted, summary.rejected]).toEqual([60, 60, 0]);
    expect(summary.scale).toEqual({ min: 0, max: 1, direction: 'higher-better', integer: false });
    const tools = byTool(sink.rows);
    expect([...tools.keys()]).toEqual(['terse-model', 'sloppy-model', 'chatty-model']);
    expect([...tools.values()].map((rows) => rows.length)).toEqual([20, 20, 20]);
    expect(mean(tools.get('terse-model')!.map((r) => r.score))).toBe(1);
    expect(mean(tools.get('sloppy-model')!.map((r) => r.score))).toBeCloseTo(0.725, 10);
    expect(mean(tools.get('chatty-model')!.map((r) => r.score))).toBeCloseTo(0.7, 10);
    // Cost and latency as promptfoo recorded them, per row.
    expect(sum(tools.get('chatty-model')!.map((r) => r.cost ?? 0))).toBeCloseTo(0.001904, 9);
    expect(sum(tools.get('sloppy-model')!.map((r) => r.latencyMs ?? 0))).toBe(165);
    expect(sink.rows.every((r) => typeof r.cost === 'number' && typeof r.latencyMs === 'number')).toBe(true);
  });

  it('maps prompt, vars, response and the grading reason', async () => {
    const { sink } = await importFile(FILE);
    const peru = sink.rows.find((r) => r.toolId === 'sloppy-model' && r.prompt.includes('Canada'));
    expect(peru).toMatchObject({
      id: 'test|sloppy-model|4-7b4abdf2|promptfoo',
      taskId: '4-7b4abdf2',
      prompt: 'What is the capital of Canada? Answer briefly.',
      response: 'Toronto',
      score: 0.5,
      rater: 'promptfoo',
      scoreSource: 'judge',
      feedback: 'Expected output to contain "Ottawa"',
    });
    expect(sink.rows.find((r) => r.id === 'test|terse-model|0-7b4abdf2|promptfoo')?.feedback).toBe('All assertions passed');
    // The same task id across providers: one task, three tools.
    expect(new Set(sink.rows.map((r) => r.taskId)).size).toBe(20);
  });

  it('is detected from the head and streams in small chunks', async () => {
    const text = readText(FILE);
    expect(detectPreset('results.json', text.slice(0, 64 * 1024)).preset).toBe('promptfoo');
    const { summary } = await importSource(chunked(text, 97), 'results.json');
    expect(summary.accepted).toBe(60);
  });

  it('says where the records were expected when the array is missing', async () => {
    const broken = '{"evalId": "x", "results": {"version": 3, "prompts": []}}';
    await expect(importSource(chunked(broken), 'results.json')).rejects.toThrow(
      "The file has no array at 'results.results', where this format keeps its records, so there is nothing to import.",
    );
  });
});

describe('inspect preset (EvalLog JSON, written from the documented format)', () => {
  it('imports one row per sample × scorer, with letter grades, explanations, time and cost', async () => {
    const { summary, sink } = await importFile(fx('inspect/arithmetic_gpt-4o-mini.json'));
    expect(summary.preset).toBe('inspect');
    expect([summary.rowsRead, summary.accepted, summary.rejected]).toEqual([9, 8, 1]);
    expect(summary.errors.map((e) => [e.row, e.column, e.reason])).toEqual([
      [5, 'scores', 'missing score: the sample stopped with an error and has no scores'],
    ]);
    // The run's model is the tool; the provider's dated id is kept on each row.
    expect(Object.keys(summary.tools)).toEqual(['openai/gpt-4o-mini']);
    expect(new Set(sink.rows.map((r) => r.modelVersion))).toEqual(new Set(['gpt-4o-mini-2024-07-18']));
    const match = sink.rows.filter((r) => r.rater === 'match').map((r) => r.score);
    const graded = sink.rows.filter((r) => r.rater === 'model_graded_qa').map((r) => r.score);
    expect(match).toEqual([1, 0, 1, 0]);
    expect(graded).toEqual([1, 0, 1, 0.5]);
    const four = sink.rows.find((r) => r.taskId === '4' && r.rater === 'model_graded_qa');
    expect(four).toMatchObject({
      prompt: 'What is 144 / 12?',
      response: 'The result is 12.',
      feedback: 'Right number, but the answer is not given as a bare number.',
      latencyMs: 900,
      cost: 35 * 0.00000015,
    });
    expect(summary.scale).toEqual({ min: 0, max: 1, direction: 'higher-better', integer: false });
  });
});

describe('lm-eval-harness preset (samples_*.jsonl, written from the documented format)', () => {
  const MC = fx('lm-eval/EleutherAI__pythia-160m/samples_capitals_mc_2025-03-14T10-22-07.123456.jsonl');
  const GEN = fx('lm-eval/EleutherAI__pythia-160m/samples_arith_gen_2025-03-14T10-22-07.123456.jsonl');

  it('multiple choice: one row per metric, the chosen continuation as the response', async () => {
    const { summary, sink } = await importSource(fileSource(MC), MC);
    expect(summary.preset).toBe('lm-eval-harness');
    expect([summary.rowsRead, summary.accepted]).toEqual([6, 6]);
    // The harness's folder name org__model, turned back into org/model.
    expect(Object.keys(summary.tools)).toEqual(['EleutherAI/pythia-160m']);
    expect(sink.rows.map((r) => [r.taskId, r.rater, r.score, r.response])).toEqual([
      ['capitals_mc:0', 'acc', 1, 'Paris'],
      ['capitals_mc:0', 'acc_norm', 1, 'Paris'],
      ['capitals_mc:1', 'acc', 0, '90 degrees Celsius'],
      ['capitals_mc:1', 'acc_norm', 1, '90 degrees Celsius'],
      ['capitals_mc:2', 'acc', 1, 'Jupiter'],
      ['capitals_mc:2', 'acc_norm', 0, 'Jupiter'],
    ]);
    expect(sink.rows[2]?.feedback).toBe('target: 100 degrees Celsius');
    expect(sink.rows[0]?.categories).toEqual(['capitals_mc']);
  });

  it('generation: the filtered response and exact_match', async () => {
    const { sink } = await importSource(fileSource(GEN), GEN);
    expect(sink.rows.map((r) => [r.taskId, r.score, r.response, r.prompt])).toEqual([
      ['arith_gen:0', 1, '42', 'Q: 12 + 30 = ?\nA:'],
      ['arith_gen:1', 0, '54', 'Q: 7 * 8 = ?\nA:'],
      ['arith_gen:2', 1, '9', 'Q: 81 / 9 = ?\nA:'],
    ]);
  });

  it('needs the model name when the file is not in its folder', async () => {
    const bare = 'samples_arith_gen_2025-03-14T10-22-07.123456.jsonl';
    const err = await importSource(fileSource(GEN), bare).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain('Name the tool (dialog: Tool for every row; CLI: --tool NAME)');
    const { summary } = await importSource(fileSource(GEN), bare, { defaultTool: 'pythia-160m' });
    expect(Object.keys(summary.tools)).toEqual(['pythia-160m']);
  });
});

describe('openai-evals preset (oaieval JSONL, written from the documented format)', () => {
  it('joins sampling and match events by sample id, wherever they are', async () => {
    const { summary, sink } = await importFile(fx('openai-evals/test-match.jsonl'));
    expect(summary.preset).toBe('openai-evals');
    expect([summary.accepted, summary.rejected]).toEqual([5, 1]);
    expect(summary.errors[0]?.reason).toBe("sample 'test-match.s1.simple-v0.5' lacks a match or metrics event (the grade) in the log");
    expect(Object.keys(summary.tools)).toEqual(['gpt-3.5-turbo']);
    expect(sink.rows.map((r) => [r.taskId.split('.').pop(), r.score, r.response])).toEqual([
      ['0', 1, 'time'],
      ['1', 1, 'George Washington'],
      ['3', 0, 'East, every morning'],
      ['2', 1, '15'],
      ['4', 0, 'five'],
    ]);
    expect(sink.rows[0]).toMatchObject({
      prompt: 'system: Complete the phrase as concisely as possible.\nuser: Once upon a ',
      rater: 'test-match.s1.simple-v0',
      feedback: "expected 'time', picked 'time'",
    });
  });

  it('a preview of a short log includes the rows completed at its end', async () => {
    const preview = await previewRows(fileSource(fx('openai-evals/test-match.jsonl')), { fileName: 'test-match.jsonl' }, 8);
    expect(preview.rows).toHaveLength(5);
    expect(preview.errors).toHaveLength(1);
  });
});
