/**
 * OpenAI Evals (`oaieval`) event logs, the JSONL its LocalRecorder writes: a first line
 * `{"spec": {completion_fns, eval_name, run_id, …}}`, then one line per event `{run_id, event_id,
 * sample_id, type, data, created_by, created_at}` and a `{"final_report": …}` line. A sample's
 * events are joined by sample_id: its first `sampling` event is the model's answer (a model-graded
 * eval records the grader's sampling after it), its first `match` or `metrics` event the grade.
 * Threads interleave samples, so a sample is emitted when its grade arrives after its answer, and
 * whatever is still open at the end of the file is emitted (or refused) by `finish`. Memory holds
 * the samples in flight and the ids of those emitted (a Set of strings).
 *
 *   task      sample_id                      tool     spec.completion_fns (joined with +)
 *   prompt    sampling data.prompt (text, or chat messages as `role: content` lines)
 *   response  sampling data.sampled (the first when a list)
 *   score     match: correct → 1/0; metrics: score, else accuracy
 *   feedback  match: `expected …, picked …`; metrics: choice     rater  spec.eval_name
 */
import { own } from '../../data-keys';
import { quote } from '../../text/quote';
import { textDefaults } from './shared';
import type { RowError } from '../../types';
import type { CanonicalRow, DetectSample, MapResult, Preset } from '../types';
import { isRecord, messagesText, numberOf } from './messages';

const DEFAULT_RATER = 'openai-evals';

function detect(sample: DetectSample): number {
  if (sample.format !== 'jsonl') return 0;
  const d = sample.first?.data;
  if (!d) return 0;
  const spec = own(d, 'spec');
  if (isRecord(spec) && ('completion_fns' in spec || 'eval_name' in spec)) return 0.97;
  return 'sample_id' in d && 'type' in d && 'data' in d && 'event_id' in d ? 0.85 : 0;
}

interface Pending {
  row: number;
  prompt?: string;
  response?: string;
  grade?: { score: number | string | null; feedback?: string; column: string; row: number; raw: Record<string, unknown> };
}

function sampledText(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The sample's row once it has its prompt and its grade. */
function rowOf(id: string, p: Pending, tool: string, rater: string): CanonicalRow | undefined {
  const grade = p.grade;
  if (!grade || p.prompt === undefined) return undefined;
  const row: CanonicalRow = {
    taskId: id,
    prompt: p.prompt,
    tool,
    score: grade.score,
    rater,
    categories: [],
    scoreSource: 'judge',
    source: {
      row: grade.row,
      columns: { id: 'sample_id', prompt: 'data.prompt', tool: 'spec.completion_fns', score: grade.column },
      raw: grade.raw,
      rendered: ['prompt'],
    },
  };
  if (p.response !== undefined) row.response = p.response;
  if (grade.feedback !== undefined) row.feedback = grade.feedback;
  return row;
}

/** What one event adds to its sample: the prompt and answer (sampling), or the grade (match, metrics). */
function applyEvent(p: Pending, type: string, data: Record<string, unknown>, row: number, d: Record<string, unknown>): void {
  if (type === 'sampling' && p.prompt === undefined) {
    p.prompt = messagesText(own(data, 'prompt')) ?? '';
    const response = sampledText(own(data, 'sampled'));
    if (response !== undefined) p.response = response;
  } else if (type === 'match' && !p.grade) {
    const correct = own(data, 'correct');
    const expected = own(data, 'expected');
    const picked = own(data, 'picked');
    p.grade = {
      score: typeof correct === 'boolean' ? (correct ? 1 : 0) : null,
      feedback: `expected ${quote(text(expected ?? null), 300)}, picked ${quote(text(picked ?? null), 300)}`,
      column: 'data.correct',
      row,
      raw: d,
    };
  } else if (type === 'metrics' && !p.grade) {
    const score = numberOf(own(data, 'score')) ?? numberOf(own(data, 'accuracy'));
    const choice = own(data, 'choice');
    p.grade = { score: score ?? null, column: 'score' in data ? 'data.score' : 'data.accuracy', row, raw: d };
    if (typeof choice === 'string') p.grade.feedback = `choice: ${choice}`;
  }
}

export const openaiEvals: Preset = {
  id: 'openai-evals',
  label: 'OpenAI Evals event log (oaieval JSONL)',
  defaults: textDefaults('OpenAI Evals', null),
  detect,
  async prepare(ctx) {
    let tool = '';
    let rater = DEFAULT_RATER;
    let sawSpec = false;
    let sawReport = false;
    const pending = new Map<string, Pending>();
    const emitted = new Set<string>();

    return {
      empty: () =>
        `The OpenAI Evals log holds no samples: ` +
        `only ${
          [sawSpec ? `its spec (eval ${quote(rater)}${tool ? `, ${quote(tool)}` : ''})` : '', sawReport ? 'the final report' : '']
            .filter(Boolean)
            .join(' and ') || 'lines that are not events'
        }. ` +
        `There is nothing to import; run the eval with its samples recorded (the default local recorder) and import that log.`,
      map(record): MapResult {
        const d = record.data;
        const spec = own(d, 'spec');
        if (isRecord(spec)) {
          sawSpec = true;
          const fns = own(spec, 'completion_fns');
          tool = Array.isArray(fns) ? fns.filter((f) => typeof f === 'string').join('+') : '';
          const name = own(spec, 'eval_name');
          if (typeof name === 'string' && name.trim() !== '') rater = name;
          return { rows: [], errors: [] };
        }
        if ('final_report' in d) {
          sawReport = true;
          return { rows: [], errors: [] };
        }
        const id = own(d, 'sample_id');
        const type = own(d, 'type');
        const data = own(d, 'data');
        if (typeof id !== 'string' || typeof type !== 'string' || !isRecord(data)) {
          const error: RowError = {
            file: ctx.fileName,
            row: record.row,
            column: 'sample_id',
            reason: 'not an OpenAI Evals event: expected sample_id, type and data',
            raw: d,
          };
          return { rows: [], errors: [error] };
        }
        if (emitted.has(id)) return { rows: [], errors: [] };
        const p = pending.get(id) ?? { row: record.row };
        applyEvent(p, type, data, record.row, d);
        pending.set(id, p);
        const row = rowOf(id, p, tool, rater);
        if (!row) return { rows: [], errors: [] };
        pending.delete(id);
        emitted.add(id);
        return { rows: [row], errors: [] };
      },
      finish(): MapResult {
        const errors: RowError[] = [];
        for (const [id, p] of pending) {
          const missing = p.prompt === undefined ? 'sampling event (the prompt and the answer)' : 'match or metrics event (the grade)';
          errors.push({
            file: ctx.fileName,
            row: p.row,
            column: 'sample_id',
            reason: `sample ${quote(id)} lacks a ${missing} in the log`,
            raw: { sample_id: id },
          });
        }
        pending.clear();
        return { rows: [], errors };
      },
    };
  },
};
