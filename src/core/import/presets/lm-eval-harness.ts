/**
 * lm-evaluation-harness `--log_samples` output: `<output_path>/<model>/samples_<task>_<date>.jsonl`,
 * one line per document: doc_id, doc, target, arguments ({gen_args_0: {arg_0: context, arg_1:
 * continuation or generation kwargs}, …}), resps, filtered_resps, filter, metrics (names) and one
 * field per metric (`acc`, `exact_match`, …). The file names neither model nor task inside: the
 * task comes from the file name; the tool from the caller (dialog: Tool; CLI: --tool), else from
 * the run's `results_<date>.json` beside the file (`model_name`; lm-eval-results.ts), else from the
 * folder when it has the harness's own `org__model` form (turned back into `org/model`). One row per
 * metric whose value is a number or a boolean (a list, such as the inputs of an F1 aggregation, is
 * not a per-sample score and is skipped):
 *
 *   task      <task>:<doc_id>               prompt  arguments.gen_args_0.arg_0
 *   response  generation: filtered_resps[0]; multiple choice: the continuation (arg_1) of the
 *             choice with the highest log-likelihood in filtered_resps
 *   score     the metric's value             rater   the metric's name
 *   feedback  `target: <target>` (multiple choice: the right choice's text)
 */
import { own } from '../../data-keys';
import { ValidationError } from '../../errors';
import { quote } from '../../text/quote';
import { resolvePath } from '../record-path';
import type { CanonicalRow, DetectSample, Preset } from '../types';
import { cell, textDefaults, UNIT_CONTINUOUS } from './shared';
import { harnessFolderModel } from '../tool-alias';
import { readResultsModel } from './lm-eval-results';

/** Per-sample metrics that are 0/1 (or a 0–1 rate) by definition: the scale is 0–1 even when every value is 1. */
const UNIT_METRICS = new Set(['acc', 'acc_norm', 'exact_match', 'em', 'mcc', 'f1', 'pass@1', 'pass_at_1', 'bleu', 'rouge1', 'rougeL']);

const FILE = /(?:^|[\\/])samples_(.+?)_(\d{4}-\d{2}-\d{2}T[\d-]+(?:\.\d+)?)\.jsonl$/;
const FILE_NO_DATE = /(?:^|[\\/])samples_(.+)\.jsonl$/;

/** Task name from `samples_<task>_<date>.jsonl` (or `samples_<task>.jsonl`). */
export function lmEvalTask(fileName: string): string | undefined {
  return FILE.exec(fileName)?.[1] ?? FILE_NO_DATE.exec(fileName)?.[1];
}

/** The folder the file is in: the harness names it after the model (`EleutherAI__pythia-160m`). */
export function lmEvalModelDir(fileName: string): string | undefined {
  const parts = fileName.split(/[\\/]/);
  const dir = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  return dir && dir !== '.' && dir !== '..' ? dir : undefined;
}

function detect(sample: DetectSample): number {
  if (sample.format !== 'jsonl') return 0;
  const d = sample.first?.data;
  if (!d || !('doc_id' in d) || !('filtered_resps' in d) || !('arguments' in d)) return 0;
  return lmEvalTask(sample.fileName) ? 0.97 : 0.9;
}

/** Log-likelihood of a loglikelihood response (`["-1.25", "False"]`, numbers written as text). */
function loglik(resp: unknown): number {
  const first = Array.isArray(resp) ? resp[0] : resp;
  const n = typeof first === 'number' ? first : typeof first === 'string' ? Number(first) : NaN;
  return Number.isFinite(n) ? n : -Infinity;
}

function responseOf(d: Record<string, unknown>): string | undefined {
  const filtered = own(d, 'filtered_resps');
  if (!Array.isArray(filtered) || filtered.length === 0) return undefined;
  if (typeof filtered[0] === 'string') return filtered[0];
  // Multiple choice: one [loglik, is_greedy] per choice, each choice's text in gen_args_<i>.arg_1.
  let best = 0;
  filtered.forEach((resp, i) => {
    if (loglik(resp) > loglik(filtered[best])) best = i;
  });
  const text = resolvePath(d, `arguments.gen_args_${best}.arg_1`);
  return typeof text === 'string' ? text.trim() : undefined;
}

export const lmEvalHarness: Preset = {
  id: 'lm-eval-harness',
  label: 'lm-evaluation-harness samples (samples_<task>_*.jsonl)',
  defaults: textDefaults('lm-eval-harness', null),
  detect,
  async prepare(ctx) {
    const folder = lmEvalModelDir(ctx.fileName);
    const fromResults = ctx.sidecars?.results ? await readResultsModel(ctx.sidecars.results, ctx.fileName) : undefined;
    const tool = ctx.defaultTool?.trim() || fromResults || (folder ? harnessFolderModel(folder) : undefined);
    if (!tool) {
      throw new ValidationError(
        `An lm-evaluation-harness samples file does not name the model: the run's results_<date>.json beside it does, and so does a folder named ` +
          `org__model, but ${quote(ctx.fileName)} came with ` +
          `neither${folder ? ` (its folder ${quote(folder)} is not an org__model name)` : ''}. Name the tool (dialog: Tool for every row; ` +
          `CLI: --tool NAME), or import it with its results file.`,
      );
    }
    const task = lmEvalTask(ctx.fileName) ?? 'task';
    return {
      map(record) {
        const d = record.data;
        const metrics = own(d, 'metrics');
        const names = Array.isArray(metrics) ? metrics.filter((m): m is string => typeof m === 'string') : [];
        const docId = cell(d, 'doc_id').trim() || String(record.row);
        const prompt = cell(d, 'arguments.gen_args_0.arg_0');
        const response = responseOf(d);
        // Multiple choice: the target is the index of the right choice; show the choice itself.
        const targetIndex = cell(d, 'target').trim();
        const choice = /^\d+$/.test(targetIndex) ? resolvePath(d, `arguments.gen_args_${targetIndex}.arg_1`) : undefined;
        const target = typeof choice === 'string' ? choice.trim() : cell(d, 'target');
        if (names.length === 0) {
          return { rows: [], errors: [{ file: ctx.fileName, row: record.row, column: 'metrics', reason: 'missing score: the line lists no metrics', raw: d }] };
        }
        const numeric = names.filter((m) => typeof own(d, m) === 'number' || typeof own(d, m) === 'boolean');
        if (numeric.length === 0) {
          return {
            rows: [],
            errors: [
              {
                file: ctx.fileName,
                row: record.row,
                column: names[0] ?? 'metrics',
                reason: `missing score: no metric of the line (${names.join(', ')}) holds a number; they are inputs to an aggregate computed for the whole run`,
                raw: d,
              },
            ],
          };
        }
        const rows: CanonicalRow[] = numeric.map((metric) => {
          const value = own(d, metric);
          const row: CanonicalRow = {
            taskId: `${task}:${docId}`,
            prompt,
            tool,
            score: typeof value === 'boolean' ? (value ? 1 : 0) : typeof value === 'number' || value === undefined || value === null ? value : cell(d, metric),
            rater: metric,
            categories: [task],
            scoreSource: 'model',
            source: {
              row: record.row,
              columns: {
                id: 'doc_id',
                prompt: 'arguments.gen_args_0.arg_0',
                tool: ctx.defaultTool?.trim() ? '(--tool)' : fromResults ? '(results file: model_name)' : '(folder)',
                score: metric,
                response: 'filtered_resps',
              },
              raw: d,
              rendered: ['response'],
            },
          };
          if (response !== undefined && response.trim() !== '') row.response = response;
          if (target.trim() !== '') row.feedback = `target: ${target}`;
          if (UNIT_METRICS.has(metric)) row.scaleHint = { scale: UNIT_CONTINUOUS, reason: `metric ${quote(metric)} (0–1 per sample)` };
          return row;
        });
        return { rows, errors: [] };
      },
    };
  },
};
