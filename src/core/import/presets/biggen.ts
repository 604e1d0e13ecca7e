/**
 * BiGGen-Bench results export: id, capability, task, system_prompt, input, reference_answer,
 * score_rubric, response, model_name and one `<judge>_score` / `<judge>_feedback` pair per judge
 * (e.g. gpt4_04_turbo_score). The rater is the judge's name; categories are [capability, task].
 */
import { ValidationError } from '../../errors';
import type { DetectSample, Preset, RowMapper } from '../types';
import { LIKERT_1_5, RUBRIC_1_5_MEANING, cell, headerCoverage, judgedRow, textDefaults, requireColumns, uniqueNonEmpty, type RowColumns } from './shared';
import { clipList } from '../bounded';
import { quote } from '../../text/quote';

const SCORE_SUFFIX = '_score';

/** Judge names, from the `<judge>_score` columns in header order. */
export function judgeNames(headers: string[]): string[] {
  return headers.filter((h) => h.endsWith(SCORE_SUFFIX) && h.length > SCORE_SUFFIX.length).map((h) => h.slice(0, -SCORE_SUFFIX.length));
}

function detect(sample: DetectSample): number {
  const core = headerCoverage(sample.headers, ['capability', 'task', 'input', 'score_rubric']);
  if (core < 1) return 0;
  const results = headerCoverage(sample.headers, ['response', 'model_name']);
  // The instances-only file (no responses, no judges) cannot be imported on its own.
  if (results < 1 || judgeNames(sample.headers).length === 0) return 0.2;
  return 0.95;
}

export const biggen: Preset = {
  id: 'biggen',
  scaleMeaning: RUBRIC_1_5_MEANING,
  // The paper's protocol split: 211 training instances, 485 test instances.
  split: { train: 211, test: 485 },
  label: 'BiGGen-Bench results',
  defaults: textDefaults('BiGGen-Bench', LIKERT_1_5),
  detect,
  async prepare(ctx) {
    requireColumns('biggen', ctx.headers, ['input', 'response', 'model_name']);
    const judges = judgeNames(ctx.headers);
    if (judges.length === 0) {
      throw new ValidationError(
        `The biggen preset needs a judge score column such as 'gpt4_04_turbo_score'; none of the columns ends in '_score'. The file ` +
          `has: ${clipList(ctx.headers)}.`,
      );
    }
    let judge = judges[0] as string;
    if (ctx.judgeColumn) {
      const wanted = ctx.judgeColumn.endsWith(SCORE_SUFFIX) ? ctx.judgeColumn.slice(0, -SCORE_SUFFIX.length) : ctx.judgeColumn;
      if (!judges.includes(wanted)) {
        throw new ValidationError(
          `Judge ${quote(ctx.judgeColumn)} has no ${quote(`${wanted}_score`)} column. Available judges: ${clipList(judges, 300, 'judges')}.`,
        );
      }
      judge = wanted;
    }
    const columns: RowColumns = {
      id: 'id',
      prompt: 'input',
      tool: 'model_name',
      score: `${judge}${SCORE_SUFFIX}`,
      response: 'response',
      feedback: `${judge}_feedback`,
      rubric: 'score_rubric',
    };
    const map: RowMapper = (record) => ({
      rows: [judgedRow(record, columns, judge, uniqueNonEmpty([cell(record.data, 'capability'), cell(record.data, 'task')]))],
      errors: [],
    });
    return { judge, map };
  },
};
