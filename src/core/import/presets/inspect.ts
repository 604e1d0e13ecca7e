/**
 * Inspect AI eval logs in JSON (`inspect eval … --log-format json`, or `inspect log convert`): one
 * EvalLog object `{version, status, eval: {task, model, …}, plan, results, stats, samples: [...]}`;
 * each element of `samples` is one EvalSample, read as a stream from inside the document
 * (json-container.ts). One row per sample × scorer:
 *
 *   task      id (`#<epoch>` appended from the second epoch on: a repeated attempt)
 *   prompt    input (text, or chat messages as `role: content` lines)
 *   tool      output.model
 *   response  output.completion, else the text of output.choices[0].message.content
 *   score     scores.<scorer>.value: a number; true/false → 1/0; C/I/P/N (correct, incorrect,
 *             partial, no answer) → 1/0/0.5/0; a dict value gives one row per key (`scorer/key`)
 *   feedback  scores.<scorer>.explanation            rater  the scorer's name
 *   latencyMs total_time × 1000, else output.time × 1000
 *   cost      the sum of model_usage.*.total_cost, when recorded
 */
import { own } from '../../data-keys';
import { quote } from '../../text/quote';
import { resolvePath } from '../record-path';
import { textDefaults } from './shared';
import type { RowError } from '../../types';
import type { CanonicalRow, DetectSample, Preset } from '../types';
import { contentText, isRecord, messagesText, numberOf } from './messages';

const CONTAINER = ['samples'] as const;
/** Inspect's letter values (inspect_ai.scorer: CORRECT, INCORRECT, PARTIAL, NOANSWER). */
const LETTERS = new Map<string, number>([
  ['C', 1],
  ['I', 0],
  ['P', 0.5],
  ['N', 0],
]);

function detect(sample: DetectSample): number {
  if (sample.format !== 'json' || sample.container !== CONTAINER.join('.')) return 0;
  const d = sample.first?.data;
  if (!d || !('input' in d) || !('epoch' in d)) return 0.3;
  return isRecord(own(d, 'output')) || isRecord(own(d, 'scores')) ? 0.97 : 0.5;
}

/** EvalLog JSON starts `{"version": 2, "status": "success", "eval": {` (pydantic field order). */
function sniff(head: string): boolean {
  return /^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:\s*"/.test(head) && /"eval"\s*:\s*\{/.test(head);
}

function scoreValue(value: unknown): number | string | null | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') return LETTERS.get(value.trim()) ?? value;
  if (typeof value === 'number' || value === null || value === undefined) return value;
  return JSON.stringify(value);
}

function responseOf(output: unknown): string | undefined {
  if (!isRecord(output)) return undefined;
  const completion = own(output, 'completion');
  if (typeof completion === 'string' && completion.trim() !== '') return completion;
  const text = contentText(resolvePath(output, 'choices[0].message.content'));
  return text !== undefined && text.trim() !== '' ? text : undefined;
}

function costOf(usage: unknown): number | undefined {
  if (!isRecord(usage)) return undefined;
  let total: number | undefined;
  for (const model of Object.values(usage)) {
    const cost = isRecord(model) ? numberOf(own(model, 'total_cost')) : undefined;
    if (cost !== undefined) total = (total ?? 0) + cost;
  }
  return total;
}

export const inspect: Preset = {
  id: 'inspect',
  label: 'Inspect AI eval log (JSON)',
  // Scorers differ (accuracy 0/1, model-graded 0–10, …): the import infers the scale.
  defaults: textDefaults('Inspect eval', null),
  detect,
  container: { path: CONTAINER, sniff },
  async prepare(ctx) {
    return {
      map(record) {
        const d = record.data;
        const id = own(d, 'id');
        const epoch = own(d, 'epoch');
        const taskId = `${typeof id === 'string' || typeof id === 'number' ? id : record.row}${typeof epoch === 'number' && epoch > 1 ? `#${epoch}` : ''}`;
        const prompt = messagesText(own(d, 'input')) ?? '';
        const output = own(d, 'output');
        const tool = isRecord(output) && typeof own(output, 'model') === 'string' ? (own(output, 'model') as string) : '';
        const response = responseOf(output);
        const total = numberOf(own(d, 'total_time')) ?? (isRecord(output) ? numberOf(own(output, 'time')) : undefined);
        const cost = costOf(own(d, 'model_usage'));
        const scores = own(d, 'scores');
        const errors: RowError[] = [];
        if (!isRecord(scores) || Object.keys(scores).length === 0) {
          const why = own(d, 'error') !== undefined && own(d, 'error') !== null ? 'the sample stopped with an error and' : 'the sample';
          errors.push({ file: ctx.fileName, row: record.row, column: 'scores', reason: `missing score: ${why} has no scores`, raw: d });
          return { rows: [], errors };
        }
        const rows: CanonicalRow[] = [];
        const add = (rater: string, value: unknown, explanation: unknown, column: string): void => {
          const row: CanonicalRow = {
            taskId,
            prompt,
            tool,
            score: scoreValue(value),
            rater,
            categories: [],
            scoreSource: 'judge',
            source: { row: record.row, columns: { id: 'id', prompt: 'input', tool: 'output.model', score: column, feedback: column.replace(/\.value(\[.*\])?$/, '.explanation') }, raw: d, rendered: ['prompt', 'response'] },
          };
          if (response !== undefined) row.response = response;
          if (typeof explanation === 'string' && explanation.trim() !== '') row.feedback = explanation;
          if (total !== undefined) row.latencyMs = total * 1000;
          if (cost !== undefined) row.cost = cost;
          rows.push(row);
        };
        for (const [scorer, score] of Object.entries(scores)) {
          if (!isRecord(score)) {
            errors.push({ file: ctx.fileName, row: record.row, column: `scores.${scorer}`, reason: `scores ${quote(scorer)} is not a Score object`, raw: d });
            continue;
          }
          const value = own(score, 'value');
          const column = `scores[${JSON.stringify(scorer)}].value`;
          if (isRecord(value)) {
            for (const [key, v] of Object.entries(value)) add(`${scorer}/${key}`, v, own(score, 'explanation'), `${column}[${JSON.stringify(key)}]`);
          } else add(scorer, value, own(score, 'explanation'), column);
        }
        return { rows, errors };
      },
    };
  },
};
