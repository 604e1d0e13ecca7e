/**
 * Inspect AI eval logs: JSON (`--log-format json`: one EvalLog object `{version, status, eval,
 * plan, results, stats, samples: [...]}`, the samples streamed from inside it by json-container.ts)
 * and `.eval` archives (eval-archive.ts: header.json + one entry per sample). One row per sample ×
 * score the log itself declares:
 *
 *   scores    the entries of `results.scores` (EvalScore: name, scorer, metrics); a sample's
 *             `scores[name].value`, or for a scorer whose value is a dictionary, the key `name` of
 *             `scores[scorer].value`. Other keys of a dictionary (confidence, num_instructions, …)
 *             are not scores and are not read. A log without results (a run still going or
 *             cancelled) falls back to `eval.scorers`, else to the sample's own scorers.
 *   task      id (`#<epoch>` appended from the second epoch on: a repeated attempt of the same
 *             sample; docs/data-model.md)
 *   prompt    input (text, or chat messages as `role: content` lines)
 *   tool      eval.model (`openai/gpt-4o-mini`); the answering model's own id
 *             (output.model: `gpt-4o-mini-2024-07-18`) is kept as the row's modelVersion
 *   response  output.completion, else the text of output.choices[0].message.content
 *   score     a number; true/false → 1/0; C/I/P/N (correct, incorrect, partial, no answer) →
 *             1/0/0.5/0, and such scorers are on 0–1 whatever values a log happens to hold
 *   feedback  the Score's explanation            rater  the score's name
 *   latencyMs total_time × 1000, else output.time × 1000
 *   cost      the sum of model_usage.*.total_cost, when recorded
 */
import { own } from '../../data-keys';
import { quote } from '../../text/quote';
import { clipList } from '../bounded';
import { resolvePath } from '../record-path';
import { UNIT_CONTINUOUS, textDefaults } from './shared';
import type { RowError } from '../../types';
import type { CanonicalRow, DetectSample, Preset, PresetContext, ScaleHint } from '../types';
import { contentText, isRecord, messagesText, numberOf } from './messages';

const CONTAINER = ['samples'] as const;
/** Inspect's letter values (inspect_ai.scorer: CORRECT, INCORRECT, PARTIAL, NOANSWER). */
const LETTERS = new Map<string, number>([
  ['C', 1],
  ['I', 0],
  ['P', 0.5],
  ['N', 0],
]);

const isEvalLog = (d: Record<string, unknown> | undefined): boolean => !!d && isRecord(own(d, 'eval')) && 'version' in d;

function detect(sample: DetectSample): number {
  if ((sample.format !== 'json' && sample.format !== 'eval') || sample.container !== CONTAINER.join('.')) return 0;
  const d = sample.first?.data;
  if (!d || !('input' in d) || !('epoch' in d)) return isEvalLog(sample.document) ? 0.97 : 0.3;
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

/** Letters and booleans are a binary (or C/P/I) grade: the scale is 0–1 whatever this log holds. */
function hintOf(value: unknown, name: string): ScaleHint | undefined {
  if (typeof value === 'boolean') return { scale: UNIT_CONTINUOUS, reason: `binary scorer ${quote(name)} (true/false)` };
  if (typeof value === 'string' && LETTERS.has(value.trim())) return { scale: UNIT_CONTINUOUS, reason: `binary scorer ${quote(name)} (C/I)` };
  return undefined;
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

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/** A score the log declares: `name` in a sample's scores, or key `name` of scorer `scorer`'s dictionary. */
interface Declared {
  name: string;
  scorer: string;
}

/** What the header declares as scores: results.scores, else eval.scorers; undefined when neither. */
function declaredScores(document: Record<string, unknown> | undefined): Declared[] | undefined {
  const results = document ? own(document, 'results') : undefined;
  const list = isRecord(results) ? own(results, 'scores') : undefined;
  if (Array.isArray(list) && list.length > 0) {
    return list.filter(isRecord).flatMap((s) => {
      const name = text(own(s, 'name'));
      return name ? [{ name, scorer: text(own(s, 'scorer')) ?? name }] : [];
    });
  }
  const spec = document ? own(document, 'eval') : undefined;
  const scorers = isRecord(spec) ? own(spec, 'scorers') : undefined;
  if (Array.isArray(scorers) && scorers.length > 0) {
    return scorers.filter(isRecord).flatMap((s) => {
      const name = text(own(s, 'name'));
      return name ? [{ name, scorer: name }] : [];
    });
  }
  return undefined;
}

/** The dataset an Inspect task's rows go into: one per task name and version. */
export function inspectDatasetName(document: Record<string, unknown> | undefined): string | undefined {
  const spec = document ? own(document, 'eval') : undefined;
  if (!isRecord(spec)) return undefined;
  const task = text(own(spec, 'task'));
  if (!task) return undefined;
  const version = own(spec, 'task_version');
  return `Inspect ${task}${version !== undefined && version !== null && version !== 0 && version !== '0' && version !== '' ? ` v${String(version)}` : ''}`;
}

function emptyMessage(ctx: PresetContext): string {
  const d = ctx.document;
  const spec = d ? own(d, 'eval') : undefined;
  const status = d ? text(own(d, 'status')) : undefined;
  const facts = [
    status ? `status ${quote(status)}` : undefined,
    isRecord(spec) && text(own(spec, 'task')) ? `task ${quote(text(own(spec, 'task')) as string)}` : undefined,
    isRecord(spec) && text(own(spec, 'model')) ? `model ${quote(text(own(spec, 'model')) as string)}` : undefined,
  ].filter(Boolean);
  const holds = d ? clipList(Object.keys(d).filter((k) => k !== 'samples')) : '';
  return `The Inspect log holds no samples${facts.length ? ` (${facts.join(', ')})` : ''}, only ${holds || 'its header'}: there is nothing to import. ${status === 'success' ? 'Was it written with samples turned off (--no-log-samples)?' : 'Run the evaluation to the end (or retry it) and import the finished log.'}`;
}

export const inspect: Preset = {
  id: 'inspect',
  label: 'Inspect AI eval log (.eval or JSON)',
  // Scorers differ (accuracy 0/1, model-graded 0–10, …): letters and booleans say 0–1, else inferred.
  defaults: textDefaults('Inspect eval', null),
  detect,
  container: { path: CONTAINER, sniff },
  async prepare(ctx) {
    const document = ctx.document;
    const spec = document ? own(document, 'eval') : undefined;
    const runModel = isRecord(spec) ? text(own(spec, 'model')) : undefined;
    const declared = declaredScores(document);
    const name = inspectDatasetName(document);
    const notes: string[] = [];
    if (declared) notes.push(`Scores read: ${clipList(declared.map((d) => (d.name === d.scorer ? d.name : `${d.scorer}/${d.name}`)))} (as the log's results declare them; other values under a sample's scores stay unread).`);
    if (runModel) notes.push(`Tool: the run's model ${quote(runModel)}; the provider's own model id is kept with each row.`);
    return {
      ...(name ? { name } : {}),
      notes,
      empty: () => emptyMessage(ctx),
      map(record) {
        const d = record.data;
        const id = own(d, 'id');
        const epoch = own(d, 'epoch');
        const taskId = `${typeof id === 'string' || typeof id === 'number' ? id : record.row}${typeof epoch === 'number' && epoch > 1 ? `#${epoch}` : ''}`;
        const prompt = messagesText(own(d, 'input')) ?? '';
        const output = own(d, 'output');
        const answered = isRecord(output) ? text(own(output, 'model')) : undefined;
        const tool = runModel ?? answered ?? '';
        const response = responseOf(output);
        const total = numberOf(own(d, 'total_time')) ?? (isRecord(output) ? numberOf(own(output, 'time')) : undefined);
        const cost = costOf(own(d, 'model_usage'));
        const scores = own(d, 'scores');
        const errors: RowError[] = [];
        const fail = (column: string, reason: string): void => void errors.push({ file: ctx.fileName, row: record.row, column, reason, raw: d });
        if (!isRecord(scores) || Object.keys(scores).length === 0) {
          const why = own(d, 'error') !== undefined && own(d, 'error') !== null ? 'the sample stopped with an error and' : 'the sample';
          fail('scores', `missing score: ${why} has no scores`);
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
            source: { row: record.row, columns: { id: 'id', prompt: 'input', tool: runModel ? 'eval.model' : 'output.model', score: column, feedback: column.replace(/\.value(\[.*\])?$/, '.explanation') }, raw: d, rendered: ['prompt', 'response'] },
          };
          const hint = hintOf(value, rater);
          if (hint) row.scaleHint = hint;
          if (answered !== undefined && answered !== tool) row.modelVersion = answered;
          if (response !== undefined) row.response = response;
          if (typeof explanation === 'string' && explanation.trim() !== '') row.feedback = explanation;
          if (total !== undefined) row.latencyMs = total * 1000;
          if (cost !== undefined) row.cost = cost;
          rows.push(row);
        };
        const wanted = declared ?? Object.keys(scores).map((s) => ({ name: s, scorer: s }));
        for (const { name: scoreName, scorer } of wanted) {
          const direct = own(scores, scoreName);
          const column = `scores[${JSON.stringify(scoreName)}].value`;
          if (direct !== undefined) {
            if (!isRecord(direct)) {
              fail(`scores.${scoreName}`, `scores ${quote(scoreName)} is not a Score object`);
              continue;
            }
            const value = own(direct, 'value');
            if (isRecord(value)) {
              fail(column, `score ${quote(scoreName)} is a dictionary (${clipList(Object.keys(value))}) and the log's results name none of its keys as a score`);
            } else add(scoreName, value, own(direct, 'explanation'), column);
            continue;
          }
          const parent = own(scores, scorer);
          const value = isRecord(parent) ? own(parent, 'value') : undefined;
          if (isRecord(parent) && isRecord(value) && own(value, scoreName) !== undefined) {
            add(`${scorer}/${scoreName}`, own(value, scoreName), own(parent, 'explanation'), `scores[${JSON.stringify(scorer)}].value[${JSON.stringify(scoreName)}]`);
          } else if (wanted.length === 1 || scorer === scoreName) {
            fail(column, `missing score: the sample has no score ${quote(scoreName)}, which the log's results list`);
          }
        }
        if (rows.length === 0 && errors.length === 0) fail('scores', `missing score: none of the sample's scores (${clipList(Object.keys(scores))}) is one the log's results list`);
        return { rows, errors };
      },
    };
  },
};
