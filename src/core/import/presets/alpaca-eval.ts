/**
 * AlpacaEval 2.0 `experiences.csv`: id, prompt, model, response, score, feedback, category,
 * preference_raw, win, judge, reference_model, response_chars. Scores are P(beats the reference),
 * continuous in [0, 1]; the rater is the judge named in the row.
 */
import type { DetectSample, Preset, RowMapper } from '../types';
import { UNIT_CONTINUOUS, cell, headerCoverage, judgedRow, requireColumns, textDefaults, uniqueNonEmpty, type RowColumns } from './shared';

const DEFAULT_JUDGE = 'alpaca-eval-judge';

function detect(sample: DetectSample): number {
  const core = headerCoverage(sample.headers, ['prompt', 'model', 'score']);
  if (core < 1) return 0;
  const marks = headerCoverage(sample.headers, ['preference_raw', 'reference_model', 'judge']);
  return marks === 0 ? 0 : 0.6 + 0.35 * marks;
}

const COLUMNS: RowColumns = { id: 'id', prompt: 'prompt', tool: 'model', score: 'score', response: 'response', feedback: 'feedback', rater: 'judge' };

export const alpacaEval: Preset = {
  id: 'alpaca-eval',
  label: 'AlpacaEval 2.0 experiences',
  defaults: textDefaults('AlpacaEval 2.0', UNIT_CONTINUOUS),
  detect,
  async prepare(ctx) {
    requireColumns('alpaca-eval', ctx.headers, ['prompt', 'model', 'score']);
    const map: RowMapper = (record) => {
      const rater = cell(record.data, 'judge').trim() || DEFAULT_JUDGE;
      return { rows: [judgedRow(record, COLUMNS, rater, uniqueNonEmpty([cell(record.data, 'category')]))], errors: [] };
    };
    return { map };
  },
};
