/**
 * Inspect AI eval logs: JSON (`--log-format json`: one EvalLog object `{version, status, eval,
 * plan, results, stats, samples: [...]}`, the samples streamed from inside it by json-container.ts)
 * and `.eval` archives (eval-archive.ts: header.json + one entry per sample). One row per sample ×
 * score the log itself declares:
 *
 *   scores    the entries of `results.scores` (EvalScore: name, scorer, metrics); a sample's
 *             `scores[name].value`, or for a scorer whose value is a dictionary, the key `name` of
 *             `scores[scorer].value`. A dictionary named by its scorer (ifeval, browse-comp) gives
 *             one rater `<scorer>/<key>` per key the results' metrics name, else per key that is a
 *             score on 0–1 (inspect-scores.ts); counts and confidences are not read. A log without
 *             results (a run still going or cancelled) falls back to `eval.scorers`, else to the
 *             sample's own scorers.
 *   task      id (`#<epoch>` appended from the second epoch on: a repeated attempt of the same
 *             sample; docs/data-model.md)
 *   prompt    input (text, or chat messages as `role: content` lines)
 *   tool      eval.model (`openai/gpt-4o-mini`); the answering model's own id
 *             (output.model: `gpt-4o-mini-2024-07-18`) is kept as the row's modelVersion
 *   response  output.completion, else the text of output.choices[0].message.content
 *   score     as Inspect's value_to_float reads it: a number; true/false → 1/0; C/I/P/N (correct,
 *             incorrect, partial, no answer) → 1/0/0.5/0; yes/no → 1/0. Such grades are on 0–1
 *             whatever values a log happens to hold
 *   feedback  the Score's explanation            rater  the score's name
 *   latencyMs total_time × 1000, else output.time × 1000
 *   cost      the sum of model_usage.*.total_cost, when recorded
 */
import { own } from '../../data-keys';
import { quote } from '../../text/quote';
import { clipList } from '../bounded';
import { resolvePath } from '../record-path';
import { textDefaults } from './shared';
import type { RowError } from '../../types';
import type { CanonicalRow, DetectSample, MapResult, Preset, PresetContext } from '../types';
import { contentText, isRecord, messagesText, numberOf } from './messages';
import { gradeHint, gradeOf, HeldKeys, isCountName, keysNamedByMetrics, keysWithOwnEntry, scoreValue, slimSample, type Declared } from './inspect-scores';

const CONTAINER = ['samples'] as const;

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

/** What the header declares as scores: results.scores, else eval.scorers; undefined when neither. */
function declaredScores(document: Record<string, unknown> | undefined): Declared[] | undefined {
  const results = document ? own(document, 'results') : undefined;
  const list = isRecord(results) ? own(results, 'scores') : undefined;
  if (Array.isArray(list) && list.length > 0) {
    return list.filter(isRecord).flatMap((s) => {
      const name = text(own(s, 'name'));
      const metrics = own(s, 'metrics');
      return name ? [{ name, scorer: text(own(s, 'scorer')) ?? name, metrics: isRecord(metrics) ? Object.keys(metrics) : [] }] : [];
    });
  }
  const spec = document ? own(document, 'eval') : undefined;
  const scorers = isRecord(spec) ? own(spec, 'scorers') : undefined;
  if (Array.isArray(scorers) && scorers.length > 0) {
    return scorers.filter(isRecord).flatMap((s) => {
      const name = text(own(s, 'name'));
      return name ? [{ name, scorer: name, metrics: [] }] : [];
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
  const next =
    status === 'success'
      ? 'Was it written with samples turned off (--no-log-samples)?'
      : 'Run the evaluation to the end (or retry it) and import the finished log.';
  return `The Inspect log holds no samples${facts.length ? ` (${facts.join(', ')})` : ''}, only ${holds || 'its header'}: there is nothing to import. ${next}`;
}

/** What every row of one sample shares. */
interface SampleFacts {
  taskId: string;
  prompt: string;
  tool: string;
  /** The answering model's own id, when it is not the run's model. */
  modelVersion?: string;
  response?: string;
  latencyMs?: number;
  cost?: number;
  row: number;
  toolColumn: string;
}

function sampleFacts(d: Record<string, unknown>, row: number, runModel: string | undefined): SampleFacts {
  const id = own(d, 'id');
  const epoch = own(d, 'epoch');
  const output = own(d, 'output');
  const answered = isRecord(output) ? text(own(output, 'model')) : undefined;
  const tool = runModel ?? answered ?? '';
  const response = responseOf(output);
  const total = numberOf(own(d, 'total_time')) ?? (isRecord(output) ? numberOf(own(output, 'time')) : undefined);
  const cost = costOf(own(d, 'model_usage'));
  return {
    taskId: `${typeof id === 'string' || typeof id === 'number' ? id : row}${typeof epoch === 'number' && epoch > 1 ? `#${epoch}` : ''}`,
    prompt: messagesText(own(d, 'input')) ?? '',
    tool,
    ...(answered !== undefined && answered !== tool ? { modelVersion: answered } : {}),
    ...(response !== undefined ? { response } : {}),
    ...(total !== undefined ? { latencyMs: total * 1000 } : {}),
    ...(cost !== undefined ? { cost } : {}),
    row,
    toolColumn: runModel ? 'eval.model' : 'output.model',
  };
}

/** One row: `value` scored by `rater`, read from `column` of the sample `raw`. */
function rowOf(f: SampleFacts, rater: string, value: unknown, explanation: unknown, column: string, raw: Record<string, unknown>): CanonicalRow {
  const row: CanonicalRow = {
    taskId: f.taskId,
    prompt: f.prompt,
    tool: f.tool,
    score: scoreValue(value),
    rater,
    categories: [],
    scoreSource: 'judge',
    source: {
      row: f.row,
      columns: { id: 'id', prompt: 'input', tool: f.toolColumn, score: column, feedback: column.replace(/\.value(\[.*\])?$/, '.explanation') },
      raw,
      rendered: ['prompt', 'response'],
    },
  };
  const hint = gradeHint(value, rater);
  if (hint) row.scaleHint = hint;
  if (f.modelVersion !== undefined) row.modelVersion = f.modelVersion;
  if (f.response !== undefined) row.response = f.response;
  if (typeof explanation === 'string' && explanation.trim() !== '') row.feedback = explanation;
  if (f.latencyMs !== undefined) row.latencyMs = f.latencyMs;
  if (f.cost !== undefined) row.cost = f.cost;
  return row;
}

const valueColumn = (scorer: string, key?: string): string => `scores[${JSON.stringify(scorer)}].value${key === undefined ? '' : `[${JSON.stringify(key)}]`}`;

/**
 * The rows of scorer `scorer`, whose value is the dictionary `value`: the keys the results' metrics
 * name, else every grade key now and every numeric key at the end of the file (`held`, within 0–1
 * throughout). Keys an EvalScore of their own reads are left to it. Returns how many keys were read.
 */
function dictionaryRows(
  scorer: string,
  parent: Record<string, unknown>,
  value: Record<string, unknown>,
  ctx: { declared: readonly Declared[]; facts: SampleFacts; d: Record<string, unknown>; held: HeldKeys; rows: CanonicalRow[] },
): number {
  const named = keysNamedByMetrics(ctx.declared, scorer, value);
  const ownEntry = keysWithOwnEntry(ctx.declared, scorer);
  const keys = named.length ? named : Object.keys(value).filter((k) => !ownEntry.has(k));
  const explanation = own(parent, 'explanation');
  let read = 0;
  for (const key of keys) {
    const v = own(value, key);
    const rater = `${scorer}/${key}`;
    if (named.length || gradeOf(v) !== undefined) {
      ctx.rows.push(rowOf(ctx.facts, rater, v, explanation, valueColumn(scorer, key), ctx.d));
      read++;
    } else if (typeof v === 'number' && !isCountName(key)) {
      ctx.held.hold(rater, v, rowOf(ctx.facts, rater, v, explanation, valueColumn(scorer, key), slimSample(ctx.d)));
      read++;
    } else ctx.held.exclude(rater);
  }
  return read + ownEntry.size;
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
    if (declared)
      notes.push(
        `Scores read: ${clipList(declared.map((d) => (d.name === d.scorer ? d.name : `${d.scorer}/${d.name}`)))} (as the log's results declare ` +
          `them; other values under a sample's scores stay unread).`,
      );
    if (runModel) notes.push(`Tool: the run's model ${quote(runModel)}; the provider's own model id is kept with each row.`);
    const held = new HeldKeys();
    return {
      ...(name ? { name } : {}),
      notes,
      empty: () => emptyMessage(ctx),
      map: (record) => mapSample(record.data, record.row, { fileName: ctx.fileName, runModel, declared, held }),
      finish: (): MapResult => ({ rows: held.release(), errors: [] }),
    };
  },
};

/** One sample's rows and errors: one row per declared score (or per score key of a dictionary). */
function mapSample(
  d: Record<string, unknown>,
  row: number,
  opts: { fileName: string; runModel: string | undefined; declared: Declared[] | undefined; held: HeldKeys },
): MapResult {
  const scores = own(d, 'scores');
  const errors: RowError[] = [];
  const fail = (column: string, reason: string): void => void errors.push({ file: opts.fileName, row, column, reason, raw: d });
  if (!isRecord(scores) || Object.keys(scores).length === 0) {
    const why = own(d, 'error') !== undefined && own(d, 'error') !== null ? 'the sample stopped with an error and' : 'the sample';
    fail('scores', `missing score: ${why} has no scores`);
    return { rows: [], errors };
  }
  const facts = sampleFacts(d, row, opts.runModel);
  const rows: CanonicalRow[] = [];
  const wanted = opts.declared ?? Object.keys(scores).map((s) => ({ name: s, scorer: s, metrics: [] }));
  const dict = { declared: wanted, facts, d, held: opts.held, rows };
  for (const { name: scoreName, scorer } of wanted) {
    const direct = own(scores, scoreName);
    if (direct !== undefined) {
      if (!isRecord(direct)) {
        fail(`scores.${scoreName}`, `scores ${quote(scoreName)} is not a Score object`);
        continue;
      }
      const value = own(direct, 'value');
      if (!isRecord(value)) rows.push(rowOf(facts, scoreName, value, own(direct, 'explanation'), valueColumn(scoreName), d));
      else if (dictionaryRows(scoreName, direct, value, dict) === 0) {
        const keys = clipList(Object.keys(value));
        const why = "the log's results name none of its keys, and none holds a grade (true/false, C/I/P/N, yes/no) or a number within 0–1";
        fail(valueColumn(scoreName), `score ${quote(scoreName)} is a dictionary (${keys}) with no key that is a score: ${why}`);
      }
      continue;
    }
    const parent = own(scores, scorer);
    const value = isRecord(parent) ? own(parent, 'value') : undefined;
    if (isRecord(parent) && isRecord(value) && own(value, scoreName) !== undefined) {
      rows.push(rowOf(facts, `${scorer}/${scoreName}`, own(value, scoreName), own(parent, 'explanation'), valueColumn(scorer, scoreName), d));
    } else if (wanted.length === 1 || scorer === scoreName) {
      fail(valueColumn(scoreName), `missing score: the sample has no score ${quote(scoreName)}, which the log's results list`);
    }
  }
  if (rows.length === 0 && errors.length === 0 && !heldAny(wanted, scores)) {
    fail('scores', `missing score: none of the sample's scores (${clipList(Object.keys(scores))}) is one the log's results list`);
  }
  return { rows, errors };
}

/** True when a declared scorer of this sample has a dictionary value (its numeric keys may be held to the end). */
function heldAny(wanted: readonly Declared[], scores: Record<string, unknown>): boolean {
  return wanted.some(({ name }) => {
    const s = own(scores, name);
    return isRecord(s) && isRecord(own(s, 'value'));
  });
}
