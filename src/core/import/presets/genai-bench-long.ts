/**
 * GenAI-Bench, long form: `ratings.csv` (id, model, rater1, rater2, rater3, mean_valid, out_of_range)
 * with the `prompts.csv` sidecar (id, prompt, category, basic_skills, advanced_skills, prompt_zh).
 * The ratings file has no prompt text, so the sidecar is required.
 */
import { ValidationError } from '../../errors';
import { readAllRecords } from '../readers';
import type { CanonicalRow, DetectSample, Preset } from '../types';
import { GENAI_BENCH_DEFAULTS, GENAI_BENCH_SPLIT } from './genai-bench';
import { GENAI_BENCH_MEANING, cell, headerCoverage, requireColumns, scoreCell, splitList, uniqueNonEmpty } from './shared';
import { clipList } from '../bounded';
import { quote } from '../../text/quote';

const RATER_COLUMN = /^rater\d+$/;

interface PromptInfo {
  prompt: string;
  categories: string[];
}

async function readPrompts(input: AsyncIterable<string | Uint8Array>): Promise<Map<string, PromptInfo>> {
  const { headers, records } = await readAllRecords(input, 'prompts sidecar', 'csv');
  requireColumns('genai-bench-long prompts sidecar', headers, ['id', 'prompt']);
  const byId = new Map<string, PromptInfo>();
  for (const { data } of records) {
    const categories = uniqueNonEmpty([cell(data, 'category'), ...splitList(cell(data, 'basic_skills')), ...splitList(cell(data, 'advanced_skills'))]);
    byId.set(cell(data, 'id').trim(), { prompt: cell(data, 'prompt'), categories });
  }
  return byId;
}

function detect(sample: DetectSample): number {
  if (sample.format !== 'csv') return 0;
  const raters = sample.headers.filter((h) => RATER_COLUMN.test(h)).length;
  if (raters === 0) return 0;
  const base = headerCoverage(sample.headers, ['id', 'model']);
  if (base < 1) return 0;
  return 0.8 + 0.15 * headerCoverage(sample.headers, ['mean_valid', 'out_of_range']);
}

export const genaiBenchLong: Preset = {
  id: 'genai-bench-long',
  scaleMeaning: GENAI_BENCH_MEANING,
  split: GENAI_BENCH_SPLIT,
  label: 'GenAI-Bench long form (ratings.csv + prompts.csv)',
  defaults: GENAI_BENCH_DEFAULTS,
  detect,
  async prepare(ctx) {
    requireColumns('genai-bench-long', ctx.headers, ['id', 'model']);
    const raterColumns = ctx.headers.filter((h) => RATER_COLUMN.test(h));
    if (raterColumns.length === 0) {
      throw new ValidationError(`The genai-bench-long preset needs rater columns (rater1, rater2, …); the file has: ${clipList(ctx.headers)}.`);
    }
    if (!ctx.sidecars?.prompts) {
      throw new ValidationError(
        'The genai-bench-long preset needs the prompts sidecar (prompts.csv; CLI: --prompts FILE): ratings.csv has no prompt text, and a prompt is ' +
          'required for every experience.',
      );
    }
    const prompts = await readPrompts(ctx.sidecars.prompts);
    return {
      map(record) {
        const id = cell(record.data, 'id').trim();
        const tool = cell(record.data, 'model');
        const info = prompts.get(id);
        if (!info) {
          return {
            rows: [],
            errors: [
              {
                file: ctx.fileName,
                row: record.row,
                column: 'id',
                reason: `id ${quote(id)} is not in the prompts sidecar, so the prompt text is unknown`,
                raw: record.data,
              },
            ],
          };
        }
        const rows: CanonicalRow[] = raterColumns.map((rater) => ({
          taskId: id,
          prompt: info.prompt,
          tool,
          score: scoreCell(record.data, rater),
          rater,
          categories: [...info.categories],
          scoreSource: 'human',
          source: { row: record.row, columns: { id: 'id', prompt: 'prompts.csv:prompt', tool: 'model', score: rater }, raw: record.data },
        }));
        return { rows, errors: [] };
      },
    };
  },
};
