import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/core/errors';
import { detectPreset, renderRubric, suggestMapping } from '../../../src/core/import';
import { FIXTURES, fileSource, importFile, mean, readText } from './helpers';

const fx = (name: string) => resolve(FIXTURES, name);

describe('genai-bench preset', () => {
  it('imports one row per tool per rater and rejects the two upstream typos', async () => {
    const { summary, sink } = await importFile(fx('genai_image_slice.json'), { sidecars: { skills: fileSource(fx('genai_skills_slice.json')) } });
    expect(summary.preset).toBe('genai-bench');
    expect(summary.format).toBe('json');
    expect(summary.rowsRead).toBe(20 * 6 * 3);
    expect(summary.accepted).toBe(358);
    expect(summary.rejected).toBe(2);
    expect(summary.errors.map((e) => [e.row, e.column, e.reason])).toEqual([
      [19, 'models.DALLE_3[1]', 'score 41 is outside the scale 1–5'],
      [20, 'models.DeepFloyd_I_XL_v1[2]', 'score 33 is outside the scale 1–5'],
    ]);
    expect(summary.errors[0]?.raw).toEqual({
      id: '00231',
      prompt: "'Zen Garden' etched into a stone at a peaceful retreat.",
      model: 'DALLE_3',
      rater: 'rater2',
      score: 41,
    });
    expect(summary.tools.DALLE_3).toMatchObject({ accepted: 59, rejected: 1 });
    expect(summary.datasetDefaults).toEqual({
      name: 'GenAI-Bench',
      scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
      raterPolicy: { kind: 'rater', rater: 'rater1' },
      modality: 'text→image',
    });
    const rater1 = sink.rows.filter((r) => r.rater === 'rater1' && r.toolId === 'DALLE_3');
    expect(mean(rater1.map((r) => r.score))).toBe(4);
    const first = sink.rows[0];
    expect(first).toEqual({
      id: 'test|DALLE_3|00000|rater1',
      datasetId: 'test',
      taskId: '00000',
      prompt: 'A baker pulling freshly baked bread out of an oven in a bakery.',
      toolId: 'DALLE_3',
      score: 5,
      rater: 'rater1',
      scoreSource: 'human',
      categories: ['basic', 'attribute', 'scene', 'spatial relation', 'action relation'],
      importId: 'imp-test',
      createdAt: 1_700_000_000_000,
    });
    expect(sink.rows.find((r) => r.taskId === '00231')?.categories).toEqual(['basic', 'scene', 'spatial relation']);
  });

  it('works without the skills sidecar (no categories)', async () => {
    const { summary, sink } = await importFile(fx('genai_image_slice.json'));
    expect(summary.accepted).toBe(358);
    expect(sink.rows.every((r) => r.categories.length === 0)).toBe(true);
  });
});

describe('genai-bench-long preset', () => {
  it('joins ratings with the prompts sidecar', async () => {
    const { summary, sink } = await importFile(fx('genai_ratings_slice.csv'), { sidecars: { prompts: fileSource(fx('genai_prompts_slice.csv')) } });
    expect(summary.preset).toBe('genai-bench-long');
    expect(summary.rowsRead).toBe(90);
    expect(summary.accepted).toBe(89);
    expect(summary.errors.map((e) => [e.row, e.column, e.reason])).toEqual([[25, 'rater2', 'score 41 is outside the scale 1–5']]);
    const row = sink.rows.find((r) => r.id === 'test|DALLE_3|00000|rater1');
    expect(row?.prompt).toBe('A baker pulling freshly baked bread out of an oven in a bakery.');
    expect(row?.categories).toEqual(['basic', 'attribute', 'scene', 'spatial relation', 'action relation']);
  });

  it('needs the prompts sidecar', async () => {
    const err = await importFile(fx('genai_ratings_slice.csv')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe(
      'The genai-bench-long preset needs the prompts sidecar (prompts.csv; CLI: --prompts FILE): ratings.csv has no prompt text, and a prompt is required for every experience.',
    );
  });
});

describe('alpaca-eval preset', () => {
  it('imports continuous 0–1 judge scores', async () => {
    const { summary, sink } = await importFile(fx('alpaca_experiences_slice.csv'));
    expect(summary.preset).toBe('alpaca-eval');
    expect(summary.rowsRead).toBe(12);
    expect(summary.accepted).toBe(12);
    expect(summary.scale).toEqual({ min: 0, max: 1, direction: 'higher-better', integer: false });
    expect(summary.tools['FuseChat-Llama-3.1-8B-Instruct']?.meanScore).toBeCloseTo((0.4586309383 + 0.7106180988) / 2, 12);
    const row = sink.rows.find((r) => r.toolId === 'claude-2.1' && r.taskId === '0');
    expect(row?.score).toBe(6.30276e-5);
    expect(row?.rater).toBe('weighted_alpaca_eval_gpt4_turbo (gpt-4-1106-preview logprob)');
    expect(row?.scoreSource).toBe('judge');
    expect(row?.categories).toEqual(['helpful_base']);
    expect(row?.feedback).toBeUndefined();
    expect(row?.response?.length).toBeGreaterThan(100);
  });
});

describe('prometheus preset', () => {
  it('imports one row per GPT-4 score with its own feedback', async () => {
    const { summary, sink } = await importFile(fx('vicuna_judged_slice.jsonl'));
    expect(summary).toMatchObject({ preset: 'prometheus', format: 'jsonl', rowsRead: 24, accepted: 24 });
    expect(summary.tools.vicuna).toEqual({ accepted: 6, rejected: 0, meanScore: 29 / 6 });
    const rows = sink.rows.filter((r) => r.taskId === '2' && r.toolId === 'vicuna');
    expect(rows.map((r) => [r.rater, r.score])).toEqual([
      ['gpt4-1', 4],
      ['gpt4-2', 5],
      ['gpt4-3', 5],
    ]);
    expect(new Set(rows.map((r) => r.feedback)).size).toBe(3);
    expect(rows[0]?.rubric).toMatch(/^Criteria: .+\nScore 1: .+\nScore 2: .+\nScore 3: .+\nScore 4: .+\nScore 5: .+$/);
    expect(rows[0]?.categories).toEqual(['generic']);
  });
});

describe('biggen preset', () => {
  it('uses the first judge column by default', async () => {
    const { summary, sink } = await importFile(fx('biggen_results_synthetic.csv'));
    expect(summary.preset).toBe('biggen');
    expect(summary.judge).toBe('gpt4_04_turbo');
    expect(summary.accepted).toBe(10);
    const row = sink.rows.find((r) => r.taskId === 'planning_travel_plan_0' && r.toolId === 'gemma-1.1-2b-it');
    expect(row).toMatchObject({ score: 2, rater: 'gpt4_04_turbo', scoreSource: 'judge', categories: ['planning', 'travel_plan'] });
    expect(row?.feedback).toBe('(synthetic) The response meets the rubric at level 2.');
    expect(row?.rubric?.startsWith("Criteria: Does the response effectively plan a tourist's 2-day trip to Paris")).toBe(true);
    expect(row?.rubric).toContain('\nScore 5: The response presents a well-thought-out');
  });

  it('picks another judge with judgeColumn (with or without _score)', async () => {
    for (const judgeColumn of ['prometheus_8x7b_bgb', 'prometheus_8x7b_bgb_score']) {
      const { summary, sink } = await importFile(fx('biggen_results_synthetic.csv'), { judgeColumn });
      expect(summary.judge).toBe('prometheus_8x7b_bgb');
      const row = sink.rows.find((r) => r.taskId === 'planning_travel_plan_0' && r.toolId === 'gemma-1.1-2b-it');
      expect(row).toMatchObject({ score: 3, rater: 'prometheus_8x7b_bgb', feedback: '(synthetic) Prometheus judge: level 3.' });
    }
    await expect(importFile(fx('biggen_results_synthetic.csv'), { judgeColumn: 'claude' })).rejects.toThrow(
      "Judge 'claude' has no 'claude_score' column. Available judges: gpt4_04_turbo, prometheus_8x7b_bgb.",
    );
  });

  it('renders the rubric object of BiGGen instances as readable text', () => {
    const first = JSON.parse(readText(fx('biggen_instances_slice.jsonl')).split('\n')[0] ?? '{}') as { score_rubric: Record<string, string> };
    const text = renderRubric(first.score_rubric) ?? '';
    const lines = text.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(`Criteria: ${first.score_rubric.criteria}`);
    expect(lines[3]).toBe(`Score 3: ${first.score_rubric.score3_description}`);
    expect(renderRubric(JSON.stringify(first.score_rubric))).toBe(text);
    expect(renderRubric('  Be concise.  ')).toBe('Be concise.');
    expect(renderRubric('{not json')).toBe('{not json');
    expect(renderRubric({ score2_description: 'b', score10_description: 'j', criteria: 'c', note: 'n' })).toBe('Criteria: c\nScore 2: b\nScore 10: j\nnote: n');
    expect(renderRubric('')).toBeUndefined();
    expect(renderRubric(null)).toBeUndefined();
  });
});

describe('detection', () => {
  it('recognises every fixture from its first chunk', () => {
    const cases: [string, string][] = [
      ['genai_image_slice.json', 'genai-bench'],
      ['genai_ratings_slice.csv', 'genai-bench-long'],
      ['alpaca_experiences_slice.csv', 'alpaca-eval'],
      ['vicuna_judged_slice.jsonl', 'prometheus'],
      ['biggen_results_synthetic.csv', 'biggen'],
    ];
    for (const [file, preset] of cases) {
      const guess = detectPreset(file, readText(fx(file)).slice(0, 16_384));
      expect(guess.preset, file).toBe(preset);
      expect(guess.confidence, file).toBeGreaterThanOrEqual(0.9);
    }
    const generic = detectPreset('mine.csv', 'question,system,rating\nhi,a,3\n');
    expect(generic).toMatchObject({ format: 'csv', preset: 'generic', confidence: 0.3, headers: ['question', 'system', 'rating'] });
    expect(detectPreset('x.json', '"scalar"').preset).toBe('generic');
  });

  it('falls back to generic for the BiGGen instances file (no responses to import)', () => {
    const guess = detectPreset('instances.jsonl', readText(fx('biggen_instances_slice.jsonl')));
    expect(guess.scores.find((s) => s.preset === 'biggen')?.score).toBe(0.2);
  });
});

describe('suggestMapping', () => {
  it('guesses common header names', () => {
    expect(suggestMapping(['Instruction', 'model_name', 'Rating', 'Output', 'rationale', 'skills', 'annotator', 'image_path', 'uid'])).toEqual({
      id: 'uid',
      prompt: 'Instruction',
      tool: 'model_name',
      score: 'Rating',
      response: 'Output',
      feedback: 'rationale',
      category: 'skills',
      rater: 'annotator',
      image: 'image_path',
    });
    expect(suggestMapping(['question', 'system', 'label'])).toEqual({ prompt: 'question', tool: 'system', score: 'label' });
    expect(suggestMapping(['input', 'model', 'gpt4_score', 'gpt4_feedback'])).toEqual({ prompt: 'input', tool: 'model', score: 'gpt4_score' });
    expect(suggestMapping(['prompt', 'task', 'tool', 'score'])).toEqual({ prompt: 'prompt', tool: 'tool', score: 'score' });
  });
});
