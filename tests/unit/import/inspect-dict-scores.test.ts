/**
 * Issue #35 item 8: Inspect logs whose scorer value is a dictionary. The logs below are written in
 * this test, shaped after inspect_evals' own scorers (ifeval.py `instruction_following`: Score.value
 * {prompt_level_strict, inst_level_strict, prompt_level_loose, inst_level_loose, num_instructions},
 * metric `if_metric`; browse_comp.py `browse_comp_scorer`: {score: C/I, confidence: 0–100}, metrics
 * `browse_comp_accuracy` and `calibration_error`). They are NOT logs written by Inspect: no public
 * repository reachable from here holds one with a dictionary score (tests/fixtures/import/README.md,
 * "Dictionary scores"). Each results section holds the values Inspect's metric definitions give for
 * these samples, worked out by hand in the comments; the tests check the imported raters' means
 * against them.
 */
import { describe, expect, it } from 'vitest';
import type { ImportOptions } from '../../../src/core/import/types';
import { chunked, importSource } from './helpers';

const UNIT = { min: 0, max: 1, direction: 'higher-better', integer: false } as const;

/** An EvalLog (JSON format) with `results.scores` and one sample per entry of `values`. */
function log(task: string, results: unknown[], scorer: string, values: unknown[], explanation = 'graded'): string {
  return JSON.stringify({
    version: 2,
    status: 'success',
    eval: { task, task_version: 0, model: 'openai/gpt-4o-mini', dataset: { name: task, samples: values.length } },
    plan: { name: 'plan', steps: [] },
    results: { total_samples: values.length, completed_samples: values.length, scores: results },
    stats: {},
    samples: values.map((value, i) => ({
      id: i + 1,
      epoch: 1,
      input: `prompt ${i + 1}`,
      output: { model: 'gpt-4o-mini-2024-07-18', completion: `answer ${i + 1}` },
      scores: { [scorer]: { value, explanation } },
    })),
  });
}

function importLog(text: string, extra: Partial<ImportOptions> = {}) {
  return importSource(chunked(text, 700), 'log.json', { reopen: () => chunked(text, 700), ...extra });
}

const meanOf = (rows: { rater: string; score: number }[], rater: string) => {
  const xs = rows.filter((r) => r.rater === rater).map((r) => r.score);
  return xs.reduce((a, b) => a + b, 0) / xs.length;
};

describe('Inspect dictionary scores (issue #35)', () => {
  // ifeval: 5 prompts with 1, 2, 3, 1 and 2 instructions.
  const IFEVAL = [
    { prompt_level_strict: true, inst_level_strict: 1, prompt_level_loose: true, inst_level_loose: 1, num_instructions: 1 },
    { prompt_level_strict: false, inst_level_strict: 1, prompt_level_loose: true, inst_level_loose: 2, num_instructions: 2 },
    { prompt_level_strict: false, inst_level_strict: 2, prompt_level_loose: false, inst_level_loose: 2, num_instructions: 3 },
    { prompt_level_strict: true, inst_level_strict: 1, prompt_level_loose: true, inst_level_loose: 1, num_instructions: 1 },
    { prompt_level_strict: false, inst_level_strict: 0, prompt_level_loose: false, inst_level_loose: 1, num_instructions: 2 },
  ];
  // if_metric: prompt accuracies are means over prompts (2/5, 3/5); instruction accuracies are
  // followed / given over all instructions (5/9, 7/9); final_acc is the mean of the four.
  const IFEVAL_RESULTS = [
    {
      name: 'instruction_following',
      scorer: 'instruction_following',
      params: {},
      metrics: {
        prompt_strict_acc: { name: 'prompt_strict_acc', value: 0.4 },
        prompt_loose_acc: { name: 'prompt_loose_acc', value: 0.6 },
        inst_strict_acc: { name: 'inst_strict_acc', value: 5 / 9 },
        inst_loose_acc: { name: 'inst_loose_acc', value: 7 / 9 },
        final_acc: { name: 'final_acc', value: (0.4 + 0.6 + 5 / 9 + 7 / 9) / 4 },
      },
    },
  ];

  it('ifeval: one rater per 0–1 key (the prompt-level booleans), with the means Inspect reports; counts stay unread', async () => {
    const { summary, sink } = await importLog(log('ifeval', IFEVAL_RESULTS, 'instruction_following', IFEVAL));
    expect([summary.rowsRead, summary.accepted, summary.rejected]).toEqual([10, 10, 0]); // 5 samples × 2 score keys
    expect([...new Set(sink.rows.map((r) => r.rater))].sort()).toEqual([
      'instruction_following/prompt_level_loose',
      'instruction_following/prompt_level_strict',
    ]);
    expect(meanOf(sink.rows, 'instruction_following/prompt_level_strict')).toBeCloseTo(IFEVAL_RESULTS[0]!.metrics.prompt_strict_acc.value, 12);
    expect(meanOf(sink.rows, 'instruction_following/prompt_level_loose')).toBeCloseTo(IFEVAL_RESULTS[0]!.metrics.prompt_loose_acc.value, 12);
    expect(sink.rows.filter((r) => r.taskId === '2').map((r) => [r.rater, r.score])).toEqual([
      ['instruction_following/prompt_level_strict', 0],
      ['instruction_following/prompt_level_loose', 1],
    ]);
    expect(summary.scale).toEqual(UNIT);
    expect(summary.scaleNote).toBe(
      "0–1 from the format: binary scorer 'instruction_following/prompt_level_strict' (true/false); binary scorer 'instruction_following/prompt_level_loose' (true/false)",
    );
    expect(sink.rows[0]).toMatchObject({ toolId: 'openai/gpt-4o-mini', modelVersion: 'gpt-4o-mini-2024-07-18', response: 'answer 1', feedback: 'graded' });
  });

  it("browse-comp: the C/I key is the score, read as Inspect's value_to_float does; the confidence stays unread", async () => {
    const values = [
      { score: 'C', confidence: 90 },
      { score: 'I', confidence: 80 },
      { score: 'I', confidence: 100 },
      { score: 'C', confidence: 1 },
      { score: 'I', confidence: 0 },
    ];
    // browse_comp_accuracy: the mean of value_to_float(score) = (1 + 0 + 0 + 1 + 0) / 5.
    const results = [
      {
        name: 'browse_comp_scorer',
        scorer: 'browse_comp_scorer',
        params: {},
        metrics: { browse_comp_accuracy: { name: 'browse_comp_accuracy', value: 0.4 }, calibration_error: { name: 'calibration_error', value: 0.47 } },
      },
    ];
    const { summary, sink } = await importLog(log('browse_comp', results, 'browse_comp_scorer', values));
    expect(sink.rows.map((r) => [r.taskId, r.rater, r.score])).toEqual([
      ['1', 'browse_comp_scorer/score', 1],
      ['2', 'browse_comp_scorer/score', 0],
      ['3', 'browse_comp_scorer/score', 0],
      ['4', 'browse_comp_scorer/score', 1],
      ['5', 'browse_comp_scorer/score', 0],
    ]);
    expect(meanOf(sink.rows, 'browse_comp_scorer/score')).toBeCloseTo(results[0]!.metrics.browse_comp_accuracy.value, 12);
    expect(summary.scale).toEqual(UNIT);
  });

  it('numbers are a score only when every sample keeps them within 0–1; a key named as a count never is', async () => {
    const values = [
      { f1: 0.5, exact: 1, steps: 1, n_tokens: 0 },
      { f1: 0.25, exact: 0, steps: 4, n_tokens: 1 },
      { f1: 1, exact: 1, steps: 0, n_tokens: 1 },
    ];
    const results = [{ name: 'qa', scorer: 'qa', params: {}, metrics: { mean: { name: 'mean', value: 0 } } }];
    const { summary, sink } = await importLog(log('qa', results, 'qa', values));
    expect(sink.rows.map((r) => [r.taskId, r.rater, r.score]).sort()).toEqual([
      ['1', 'qa/exact', 1],
      ['1', 'qa/f1', 0.5],
      ['2', 'qa/exact', 0],
      ['2', 'qa/f1', 0.25],
      ['3', 'qa/exact', 1],
      ['3', 'qa/f1', 1],
    ]);
    expect(summary.scale).toEqual(UNIT);
    expect(summary.scaleNote).toBe(
      "0–1 from the format: dictionary score 'qa/f1' (every value within 0–1); dictionary score 'qa/exact' (every value within 0–1)",
    );
  });

  it('the words and letters Inspect reads (yes/no/true/false in any case, C/I/P/N) are grades', async () => {
    const values = [
      { ok: 'Yes', grade: 'P' },
      { ok: 'no', grade: 'N' },
      { ok: 'TRUE', grade: 'C' },
      { ok: 'False', grade: 'I' },
    ];
    const { sink } = await importLog(log('words', [{ name: 'judge', scorer: 'judge', params: {}, metrics: {} }], 'judge', values));
    expect(sink.rows.map((r) => [r.rater, r.score])).toEqual([
      ['judge/ok', 1],
      ['judge/grade', 0.5],
      ['judge/ok', 0],
      ['judge/grade', 0],
      ['judge/ok', 1],
      ['judge/grade', 1],
      ['judge/ok', 0],
      ['judge/grade', 0],
    ]);
  });

  it("where the results' metrics name keys, only those keys are read", async () => {
    const values = [
      { correct: 'C', share: 0.5 },
      { correct: 'I', share: 0.25 },
    ];
    const results = [
      { name: 'grader', scorer: 'grader', params: {}, metrics: { correct: { name: 'correct', value: 0.5 }, stderr: { name: 'stderr', value: 0.5 } } },
    ];
    const { sink } = await importLog(log('named', results, 'grader', values));
    expect(sink.rows.map((r) => [r.taskId, r.rater, r.score])).toEqual([
      ['1', 'grader/correct', 1],
      ['2', 'grader/correct', 0],
    ]);
  });

  it('a dictionary without any score key is a row error that says what it holds and why none is read', async () => {
    const values = [{ answer: 'Paris', confidence: 80 }];
    const { summary } = await importLog(log('none', [{ name: 'g', scorer: 'g', params: {}, metrics: {} }], 'g', values), { scale: UNIT });
    expect(summary.accepted).toBe(0);
    expect(summary.errors.map((e) => [e.column, e.reason])).toEqual([
      [
        'scores["g"].value',
        "score 'g' is a dictionary (answer, confidence) with no key that is a score: the log's results name none of its keys, and none holds a grade (true/false, C/I/P/N, yes/no) or a number within 0–1",
      ],
    ]);
  });
});
