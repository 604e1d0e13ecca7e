/**
 * promptfoo `promptfoo eval -o results.json` (results format v3): one object
 * `{evalId, results: {version: 3, prompts, results: [...], stats}, config, …}`; each element of
 * `results.results` is one test × prompt × provider. Read as a stream from inside the document
 * (json-container.ts). Fields:
 *
 *   task      testIdx and the first 8 characters of promptId (the prompt template), else vars as JSON
 *   prompt    prompt.raw (the prompt with the test's vars filled in)
 *   tool      provider.label, else provider.id
 *   response  response.output
 *   score     score (0–1), else success as 1/0
 *   feedback  gradingResult.reason, else error
 *   cost      cost, else response.cost        latencyMs  latencyMs, else response.latencyMs
 *   rater     `promptfoo` (the assertions grade every row)
 */
import type { CanonicalRow, DetectSample, FieldMapping, MapResult, Preset, SourceRecord } from '../types';
import { own } from '../../data-keys';
import { resolvePath } from '../record-path';
import { isRecord, numberOf } from './messages';
import { cell, textDefaults, optional, UNIT_CONTINUOUS } from './shared';

const RATER = 'promptfoo';
const CONTAINER = ['results', 'results'] as const;
const COLUMNS: FieldMapping = {
  id: 'testIdx',
  prompt: 'prompt.raw',
  tool: 'provider.label',
  score: 'score',
  response: 'response.output',
  feedback: 'gradingResult.reason',
};

function detect(sample: DetectSample): number {
  if (sample.format !== 'json' || sample.container !== CONTAINER.join('.')) return 0;
  const d = sample.first?.data;
  if (!d || !isRecord(own(d, 'provider')) || !isRecord(own(d, 'prompt'))) return 0.3;
  return 'score' in d || 'success' in d ? 0.98 : 0.6;
}

/** The output file begins with `{"evalId": …, "results": {"version": …` (promptfoo writes it with these keys first). */
function sniff(head: string): boolean {
  return /^\s*\{\s*"evalId"\s*:/.test(head) && /"results"\s*:\s*\{\s*"version"\s*:/.test(head);
}

/**
 * Task = test × prompt template. `promptIdx` cannot tell prompts apart: it indexes
 * `results.prompts`, which lists every prompt × provider pair, so it differs between providers
 * for one prompt. `promptId` is the template's hash, the same for every provider.
 */
function taskOf(d: Record<string, unknown>, row: number): string {
  const test = own(d, 'testIdx');
  const promptId = own(d, 'promptId');
  const suffix = typeof promptId === 'string' && promptId !== '' ? `-${promptId.slice(0, 8)}` : '';
  if (typeof test === 'number') return `${test}${suffix}`;
  const vars = own(d, 'vars');
  return isRecord(vars) ? `${JSON.stringify(vars)}${suffix}` : String(row);
}

/** One element of `results.results`: one test × prompt × provider. */
function mapResult(record: SourceRecord): MapResult {
  const d = record.data;
  const label = cell(d, 'provider.label').trim();
  const score = own(d, 'score');
  const success = own(d, 'success');
  const row: CanonicalRow = {
    taskId: taskOf(d, record.row),
    prompt: cell(d, 'prompt.raw'),
    tool: label || cell(d, 'provider.id'),
    score: typeof score === 'number' ? score : typeof success === 'boolean' ? (success ? 1 : 0) : cell(d, 'score'),
    rater: RATER,
    response: optional(d, 'response.output'),
    feedback: optional(d, 'gradingResult.reason') ?? optional(d, 'error'),
    categories: [],
    scoreSource: 'judge',
    source: { row: record.row, columns: { ...COLUMNS, tool: label ? 'provider.label' : 'provider.id' }, raw: d },
  };
  const cost = numberOf(own(d, 'cost')) ?? numberOf(resolvePath(d, 'response.cost'));
  const latency = numberOf(own(d, 'latencyMs')) ?? numberOf(resolvePath(d, 'response.latencyMs'));
  if (cost !== undefined) row.cost = cost;
  if (latency !== undefined) row.latencyMs = latency;
  return { rows: [row], errors: [] };
}

export const promptfoo: Preset = {
  id: 'promptfoo',
  label: 'promptfoo results (promptfoo eval -o results.json)',
  defaults: textDefaults('promptfoo eval', UNIT_CONTINUOUS),
  detect,
  container: { path: CONTAINER, sniff },
  prepare: async () => ({ map: mapResult }),
};
