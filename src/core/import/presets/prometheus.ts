/**
 * Prometheus absolute-grading sets (e.g. `vicuna_judged.jsonl`): idx, category, model, task_input,
 * response, reference_answer, score_rubric{…}, gpt4_scores[3], gpt4_feedbacks[3] → one row per
 * judge score, raters `gpt4-1` … `gpt4-3`, each with its own feedback.
 */
import { z } from 'zod';
import { renderRubric } from '../rubric';
import type { CanonicalRow, DetectSample, Preset } from '../types';
import { LIKERT_1_5, RUBRIC_1_5_MEANING, cell, headerCoverage, textDefaults, optional, requireColumns, uniqueNonEmpty } from './shared';

const Scores = z.array(z.union([z.number(), z.string(), z.null()]));
const Feedbacks = z.array(z.union([z.string(), z.null()])).optional();

function detect(sample: DetectSample): number {
  const marks = headerCoverage(sample.headers, ['gpt4_scores', 'task_input']);
  if (marks < 1) return 0;
  return 0.85 + 0.1 * headerCoverage(sample.headers, ['gpt4_feedbacks', 'score_rubric', 'model']);
}

export const prometheus: Preset = {
  id: 'prometheus',
  scaleMeaning: RUBRIC_1_5_MEANING,
  label: 'Prometheus judged set (GPT-4 scores + feedback)',
  defaults: textDefaults('Prometheus GPT-4 judged', LIKERT_1_5),
  detect,
  async prepare(ctx) {
    requireColumns('prometheus', ctx.headers, ['task_input', 'model', 'gpt4_scores']);
    return {
      map(record) {
        const d = record.data;
        const scores = Scores.safeParse(d.gpt4_scores);
        if (!scores.success) {
          return {
            rows: [],
            errors: [{ file: ctx.fileName, row: record.row, column: 'gpt4_scores', reason: 'gpt4_scores must be a list of scores', raw: d }],
          };
        }
        const feedbacks = Feedbacks.safeParse(d.gpt4_feedbacks);
        const feedbackList = feedbacks.success ? (feedbacks.data ?? []) : [];
        const taskId = cell(d, 'idx').trim() || cell(d, 'id').trim() || String(record.row);
        const rubric = renderRubric(d.score_rubric);
        const rows: CanonicalRow[] = scores.data.map((score, i) => {
          const feedback = feedbackList[i];
          return {
            taskId,
            prompt: cell(d, 'task_input'),
            tool: cell(d, 'model'),
            score,
            rater: `gpt4-${i + 1}`,
            response: optional(d, 'response'),
            feedback: typeof feedback === 'string' && feedback.trim() !== '' ? feedback : undefined,
            rubric,
            categories: uniqueNonEmpty([cell(d, 'category')]),
            scoreSource: 'judge',
            source: {
              row: record.row,
              columns: { id: 'idx', prompt: 'task_input', tool: 'model', score: `gpt4_scores[${i}]`, feedback: `gpt4_feedbacks[${i}]` },
              raw: d,
            },
          };
        });
        return { rows, errors: [] };
      },
    };
  },
};
