/**
 * AlpacaEval 2.0 `experiences.csv`: id, prompt, model, response, score, feedback, category,
 * preference_raw, win, judge, reference_model, response_chars. Scores are P(beats the reference),
 * continuous in [0, 1]; the rater is the judge named in the row.
 */
import type { DetectSample, Preset } from '../types';
import { cell, headerCoverage, optional, requireColumns, scoreCell, uniqueNonEmpty } from './shared';

const DEFAULT_JUDGE = 'alpaca-eval-judge';

function detect(sample: DetectSample): number {
  const core = headerCoverage(sample.headers, ['prompt', 'model', 'score']);
  if (core < 1) return 0;
  const marks = headerCoverage(sample.headers, ['preference_raw', 'reference_model', 'judge']);
  return marks === 0 ? 0 : 0.6 + 0.35 * marks;
}

export const alpacaEval: Preset = {
  id: 'alpaca-eval',
  label: 'AlpacaEval 2.0 experiences',
  defaults: {
    name: 'AlpacaEval 2.0',
    scale: { min: 0, max: 1, direction: 'higher-better', integer: false },
    raterPolicy: { kind: 'mean' },
    modality: 'text→text',
  },
  detect,
  async prepare(ctx) {
    requireColumns('alpaca-eval', ctx.headers, ['prompt', 'model', 'score']);
    return {
      map(record) {
        const d = record.data;
        const row = {
          taskId: cell(d, 'id').trim() || String(record.row),
          prompt: cell(d, 'prompt'),
          tool: cell(d, 'model'),
          score: scoreCell(d, 'score'),
          rater: cell(d, 'judge').trim() || DEFAULT_JUDGE,
          response: optional(d, 'response'),
          feedback: optional(d, 'feedback'),
          categories: uniqueNonEmpty([cell(d, 'category')]),
          scoreSource: 'judge' as const,
          source: {
            row: record.row,
            columns: { id: 'id', prompt: 'prompt', tool: 'model', score: 'score', response: 'response', feedback: 'feedback', rater: 'judge' },
            raw: d,
          },
        };
        return { rows: [row], errors: [] };
      },
    };
  },
};
