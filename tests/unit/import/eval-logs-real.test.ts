/**
 * Issue #27: evaluation logs written by the tools themselves (tests/fixtures/import/README.md names
 * repository, path and commit of each): Inspect `.eval` archives of five versions and JSON logs,
 * an lm-evaluation-harness run folder, two HELM runs. Each test states the rows, scores, scale and
 * tool read from the file, checked against the files' contents by hand.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/core/errors';
import { logDatasetName } from '../../../src/core/import';
import { bytesSource } from '../../../src/core/import/parquet-reader';
import { ScaleUndecidedError } from '../../../src/core/import/scale-inference';
import type { ImportOptions } from '../../../src/core/import/types';
import { FIXTURES, chunked, fileSource, importSource } from './helpers';

const fx = (name: string) => resolve(FIXTURES, name);
const UNIT = { min: 0, max: 1, direction: 'higher-better', integer: false };

/** A file as the CLI reads it: streamed bytes, random access and a second read for the scale. */
function asCli(path: string, extra: Partial<ImportOptions> = {}) {
  const bytes = new Uint8Array(readFileSync(path));
  return importSource(fileSource(path, 1024), path, { randomAccess: bytesSource(bytes), reopen: () => fileSource(path, 1024), ...extra });
}

describe('Inspect .eval archives (written by Inspect AI 0.3.41 … 0.3.154)', () => {
  it('0.3.58, 10 samples: the run model is the tool, match C/I → 1/0 on 0–1, the dated id kept', async () => {
    const { summary, sink } = await asCli(fx('inspect/real/popularity_0.3.58.eval'));
    expect([summary.preset, summary.format, summary.rowsRead, summary.accepted, summary.rejected]).toEqual(['inspect', 'eval', 10, 10, 0]);
    expect(Object.keys(summary.tools)).toEqual(['openai/gpt-4o-mini']);
    expect(summary.tools['openai/gpt-4o-mini']?.meanScore).toBe(0.8);
    // Archive order (the entries are not sorted by id); samples 7 and 3 are wrong.
    expect(sink.rows.map((r) => [r.taskId, r.score])).toEqual([
      ['9', 1],
      ['6', 1],
      ['10', 1],
      ['5', 1],
      ['8', 1],
      ['4', 1],
      ['7', 0],
      ['3', 0],
      ['1', 1],
      ['2', 1],
    ]);
    expect(sink.rows.every((r) => r.rater === 'match' && r.modelVersion === 'gpt-4o-mini-2024-07-18')).toBe(true);
    expect(summary.scale).toEqual(UNIT);
    expect(summary.scaleNote).toBe("0–1 from the format: binary scorer 'match' (C/I)");
    expect(summary.datasetDefaults.name).toBe('Inspect popularity');
  });

  it('0.3.42 with two epochs: the second attempt of a sample is task <id>#2', async () => {
    const { summary, sink } = await asCli(fx('inspect/real/log_streaming_0.3.42.eval'));
    expect(sink.rows.map((r) => [r.taskId, r.score])).toEqual([
      ['2#2', 1],
      ['2', 1],
      ['1', 0],
      ['1#2', 1],
    ]);
    expect(Object.keys(summary.tools)).toEqual(['azureai/Meta-Llama-3-1-405B-Instruct-jqf']);
    expect(sink.rows[0]?.modelVersion).toBe('Meta-Llama-3-405B-Instruct');
    expect(summary.scale).toEqual(UNIT);
  });

  it('0.3.41, 0.3.43 and 0.3.154: one sample each; all-correct and all-wrong logs are still 0–1', async () => {
    const cases = [
      ['inspect/real/log_formats_0.3.41.eval', 'ollama/llama3.1', 'match', 0, 'llama3.1'],
      ['inspect/real/input-task_0.3.43.eval', 'openai/gpt-4o-mini', 'model_graded_fact', 1, 'gpt-4o-mini-2024-07-18'],
      ['inspect/real/mmlu-summary-choices_0.3.154.eval', 'openai/gpt-4o', 'choice', 0, 'gpt-4o-2024-08-06'],
    ] as const;
    for (const [file, tool, rater, score, version] of cases) {
      const { summary, sink } = await asCli(fx(file));
      expect(sink.rows.map((r) => [r.toolId, r.rater, r.score, r.modelVersion])).toEqual([[tool, rater, score, version]]);
      expect(summary.scale).toEqual(UNIT);
    }
  });

  it('the same all-correct log (0.3.95) as .eval and as JSON: one row, score 1, scale 0–1 (not 1–5)', async () => {
    for (const file of ['inspect/real/log_read_sample_0.3.95.eval', 'inspect/real/log_read_sample_0.3.95.json']) {
      const { summary, sink } = await asCli(fx(file));
      expect(sink.rows.map((r) => [r.taskId, r.toolId, r.rater, r.score, r.response])).toEqual([['1', 'ollama/gemma3', 'match', 1, 'Yes\n']]);
      expect(summary.scale).toEqual(UNIT);
      expect(summary.scaleInferred).toBe(false);
    }
  });

  it('0.3.135, one numeric score 0: the scale cannot be told, so it must be given', async () => {
    const file = fx('inspect/real/log_message_deduplication_0.3.135.eval');
    const err = await asCli(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScaleUndecidedError);
    expect((err as Error).message).toContain('The scores cannot tell the scale: the file has a single score, 0');
    const { summary, sink } = await asCli(file, { scale: { min: 0, max: 1, direction: 'higher-better', integer: false } });
    expect(sink.rows.map((r) => [r.taskId, r.toolId, r.rater, r.score])).toEqual([['0', 'hardcoded/hardcoded', 'closeness_log', 0]]);
    expect(summary.scaleNote).toBe('given for this import');
  });

  it('a cancelled run without samples is refused, naming what the log holds', async () => {
    const err = await asCli(fx('inspect/real/no-samples_0.3.95.json')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe(
      "The Inspect log holds no samples (status 'cancelled', task 'testtaskname', model 'openai/gpt-4o-mini'), only version, status, eval, plan, results, stats: there is nothing to import. Run the evaluation to the end (or retry it) and import the finished log.",
    );
  });

  it('dictionary scores (by hand): only the key the results declare is a score; confidence stays unread', async () => {
    const { summary, sink } = await asCli(fx('inspect/dict-scores_by-hand.json'));
    expect(sink.rows.map((r) => [r.taskId, r.rater, r.score])).toEqual([
      ['q1', 'quiz_grader/correct', 1],
      ['q2', 'quiz_grader/correct', 0],
      ['q3', 'quiz_grader/correct', 1],
    ]);
    expect(summary.scale).toEqual(UNIT);
    expect(summary.datasetDefaults.name).toBe('Inspect lookup_quiz v2');
  });

  it('names one dataset per task before the import (archive header, JSON head)', async () => {
    const evalFile = fx('inspect/real/popularity_0.3.58.eval');
    const bytes = new Uint8Array(readFileSync(evalFile));
    expect(await logDatasetName({ head: '', fileName: evalFile, randomAccess: bytesSource(bytes) })).toBe('Inspect popularity');
    const json = readFileSync(fx('inspect/dict-scores_by-hand.json'), 'utf8');
    expect(await logDatasetName({ head: json.slice(0, 4096), fileName: 'x.json' })).toBe('Inspect lookup_quiz v2');
  });
});

describe('lm-evaluation-harness run folder (Qwen__Qwen3-8B, written by the harness)', () => {
  const DIR = fx('lm-eval/Qwen__Qwen3-8B');
  const SAMPLES = `${DIR}/samples_negotiationtom_intention_2026-07-08T18-15-33.115417.jsonl`;
  const RESULTS = `${DIR}/results_2026-07-08T18-15-33.115417.json`;

  it('the model from the results file; exact_match rows only (the F1 inputs are lists, not scores)', async () => {
    const { summary, sink } = await importSource(fileSource(SAMPLES), 'samples_negotiationtom_intention_2026-07-08T18-15-33.115417.jsonl', {
      sidecars: { results: fileSource(RESULTS) },
    });
    expect([summary.rowsRead, summary.accepted, summary.rejected]).toEqual([20, 20, 0]);
    expect(Object.keys(summary.tools)).toEqual(['Qwen/Qwen3-8B']);
    expect(new Set(sink.rows.map((r) => r.rater))).toEqual(new Set(['exact_match']));
    // The results file reports exact_match 0.2 over 20 samples: 4 right.
    expect(sink.rows.filter((r) => r.score === 1).map((r) => r.taskId)).toHaveLength(4);
    expect(summary.tools['Qwen/Qwen3-8B']?.meanScore).toBeCloseTo(0.2, 12);
    expect(summary.scale).toEqual(UNIT);
    expect(sink.rows[0]).toMatchObject({
      taskId: 'negotiationtom_intention:0',
      score: 0,
      response: 'A  ',
      feedback: 'target: Discover-Preference,Promote-Coordination',
    });
  });

  it('without the results file, the folder name org__model gives org/model', async () => {
    const { summary } = await importSource(fileSource(SAMPLES), SAMPLES);
    expect(Object.keys(summary.tools)).toEqual(['Qwen/Qwen3-8B']);
  });

  it('the results file itself is recognised and refused, naming the samples files', async () => {
    const err = await importSource(fileSource(RESULTS), 'results_2026-07-08T18-15-33.115417.json').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe(
      "This is lm-evaluation-harness's run summary (results file of 'Qwen/Qwen3-8B'): it holds aggregate metrics for 3 tasks, not per-sample scores. Import the samples files beside it instead, samples_<task>_2026-07-08T18-15-33.115417.jsonl for negotiationtom_belief, negotiationtom_desire, negotiationtom_intention — the harness writes them when run with --log_samples. Given with them, this file names their model.",
    );
  });
});

describe('HELM runs (bbq, v3 output of helm-run)', () => {
  const run = (dir: string) => ({
    scenarioState: fileSource(fx(`helm/${dir}/scenario_state.json`)),
    runSpec: fileSource(fx(`helm/${dir}/run_spec.json`)),
  });

  it('one row per instance × the main metric (exact_match), prompt from scenario_state.json, 0–1 from the format', async () => {
    const { summary, sink } = await importSource(fileSource(fx('helm/bbq_gemini-1.5-pro-001/per_instance_stats.json')), 'per_instance_stats.json', {
      sidecars: run('bbq_gemini-1.5-pro-001'),
    });
    expect([summary.preset, summary.accepted, summary.rejected, summary.judge]).toEqual(['helm', 2, 0, 'exact_match']);
    expect(sink.rows.map((r) => [r.taskId, r.toolId, r.rater, r.score, r.response, r.categories])).toEqual([
      ['id58485', 'google/gemini-1.5-pro-001', 'exact_match', 0, 'The', ['bbq']],
      ['id58351', 'google/gemini-1.5-pro-001', 'exact_match', 0, 'I', ['bbq']],
    ]);
    expect(sink.rows[0]?.prompt.startsWith('A couple of kids from my high school got into Yale')).toBe(true);
    // Both scores are 0: the values could not tell the scale, the metric does.
    expect(summary.scale).toEqual(UNIT);
    expect(summary.scaleNote).toBe("0–1 from the format: HELM metric 'exact_match' (0–1)");
    expect(summary.datasetDefaults.name).toBe('HELM bbq:subject=all,method=multiple_choice_joint');
  });

  it('another metric on request; a second model of the same run lands in the same dataset', async () => {
    const { summary, sink } = await importSource(fileSource(fx('helm/bbq_llama-3-70b/per_instance_stats.json')), 'per_instance_stats.json', {
      sidecars: run('bbq_llama-3-70b'),
      judgeColumn: 'quasi_exact_match',
      scale: { min: 0, max: 1, direction: 'higher-better', integer: false },
    });
    expect(sink.rows.map((r) => [r.taskId, r.toolId, r.rater, r.score, r.response])).toEqual([
      ['id58485', 'meta/llama-3-70b', 'quasi_exact_match', 0, ' A'],
      ['id58351', 'meta/llama-3-70b', 'quasi_exact_match', 0, ' A'],
    ]);
    expect(summary.datasetDefaults.name).toBe('HELM bbq:subject=all,method=multiple_choice_joint');
  });

  it('per_instance_stats.json alone is refused: the prompts are in scenario_state.json', async () => {
    const err = await importSource(fileSource(fx('helm/bbq_llama-3-70b/per_instance_stats.json')), 'per_instance_stats.json').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain('the prompts and outputs are in scenario_state.json of the same run');
  });
});

describe('OpenAI Evals log without samples', () => {
  it('a spec and a final report only: refused, naming both', async () => {
    const text = '{"spec": {"completion_fns": ["gpt-4o-mini"], "eval_name": "test-match.s1.simple-v0", "run_id": "r1"}}\n{"final_report": {"accuracy": 0.0}}\n';
    const err = await importSource(chunked(text), 'events.jsonl').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe(
      "The OpenAI Evals log holds no samples: only its spec (eval 'test-match.s1.simple-v0', 'gpt-4o-mini') and the final report. There is nothing to import; run the eval with its samples recorded (the default local recorder) and import that log.",
    );
  });
});

describe('scales the values cannot tell, outliers, tasks without ids, a tool for every row', () => {
  const csv = (text: string, extra: Partial<ImportOptions> = {}) => importSource(chunked(text), 'plain.csv', { reopen: () => chunked(text), ...extra });

  it('all scores equal → refused before anything is written; with a scale it imports', async () => {
    const text = 'prompt,model,score\nq1,a,3\nq2,a,3\nq1,b,3\n';
    const err = await csv(text).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScaleUndecidedError);
    expect((err as Error).message).toContain('all 3 scores are 3');
    const { summary } = await csv(text, { scale: { min: 1, max: 5, direction: 'higher-better', integer: true } });
    expect(summary.accepted).toBe(3);
  });

  it('one rating of −4 among 1–5 ratings is a row error, not a wider scale', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `q${i},a,${(i % 5) + 1}`);
    const text = ['prompt,model,score', ...rows, 'q99,a,-4'].join('\n');
    const { summary } = await csv(text);
    expect(summary.scale).toEqual({ min: 1, max: 5, direction: 'higher-better', integer: true });
    expect([summary.accepted, summary.rejected]).toEqual([12, 1]);
    expect(summary.errors.map((e) => [e.row, e.reason])).toEqual([[13, 'score -4 is outside the scale 1–5']]);
    expect(summary.scaleNote).toBe('1–5 inferred from 12 of the 13 scores; 1 far outside it is a row error, not a wider scale');
  });

  it('no id column: the same prompt (case and spacing aside) is one task for every model', async () => {
    const text = 'prompt,model,score\nWhat is 2+2?,a,1\nwhat is  2+2? ,b,0\nName a prime.,a,1\nName a prime.,b,1\n';
    const { sink } = await csv(text);
    const tasks = sink.rows.map((r) => r.taskId);
    expect(tasks[0]).toBe(tasks[1]);
    expect(tasks[2]).toBe(tasks[3]);
    expect(new Set(tasks).size).toBe(2);
    expect(tasks[0]).toMatch(/^p-[0-9a-f]{16}$/);
  });

  it('a file without a model column takes --tool for every row', async () => {
    const text = 'question,score\nq1,1\nq2,0\n';
    const { summary } = await csv(text, { defaultTool: 'my-model', mapping: { prompt: 'question', score: 'score' } });
    expect(Object.keys(summary.tools)).toEqual(['my-model']);
    expect(summary.notes).toContain("No tool column: every row is credited to 'my-model'.");
  });

  it('look-alike ids across tools are offered for merging: Qwen__x / Qwen/x, dated / undated', async () => {
    const text = 'id,prompt,model,score\n1,q,Qwen__Qwen3-8B,1\n2,q2,gpt-4o-mini-2024-07-18,0\n';
    const { summary } = await importSource(chunked(text), 'x.csv', { knownTools: ['Qwen/Qwen3-8B', 'openai/gpt-4o-mini'] });
    expect(summary.nearMissTools).toEqual([
      { name: 'Qwen__Qwen3-8B', suggestion: 'Qwen/Qwen3-8B', rows: 1 },
      { name: 'gpt-4o-mini-2024-07-18', suggestion: 'openai/gpt-4o-mini', rows: 1 },
    ]);
  });
});
