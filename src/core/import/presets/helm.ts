/**
 * HELM runs (`helm-run` writes `benchmark_output/runs/<suite>/<run>/`): the scores are in
 * `per_instance_stats.json` (one entry per instance and train trial: `{instance_id,
 * train_trial_index, stats: [{name: {name, split, perturbation?}, count, sum, mean, …}]}`), the
 * prompts and outputs in `scenario_state.json` (`request_states[]`: instance.input.text,
 * result.completions[0].text, request.model), the model and metrics in `run_spec.json`. The stats
 * file is the data; the other two are sidecars (CLI: the run folder; dialog: the run's files or its
 * folder). One row per instance × the metric chosen (`judgeColumn`; CLI --metric), by default the
 * run's main metric: the first name its metric specs list, else exact_match.
 *
 *   task      instance_id (`#<trial>` from the second train trial on)    rater  the metric
 *   prompt    instance.input.text          response  the first completion
 *   tool      run_spec adapter_spec.model, else request.model            score  the stat's mean
 *
 * Stats of perturbed instances (robustness, fairness variants) are not the instance's own score and
 * are skipped; the eval split's stat (test, else valid) is read.
 */
import { own } from '../../data-keys';
import { ParseError, ValidationError } from '../../errors';
import { quote } from '../../text/quote';
import { clipList } from '../bounded';
import { JsonContainerScanner } from '../json-container';
import { TextSource } from '../text-source';
import type { CanonicalRow, DetectSample, Preset, ScaleHint } from '../types';
import { isRecord, numberOf } from './messages';
import { UNIT_CONTINUOUS, textDefaults } from './shared';

/** HELM metrics defined on 0–1 (basic_metrics, classification, QA overlap). */
const UNIT_METRICS = new Set([
  'exact_match',
  'quasi_exact_match',
  'prefix_exact_match',
  'quasi_prefix_exact_match',
  'exact_match@5',
  'quasi_exact_match@5',
  'f1_score',
  'rouge_1',
  'rouge_2',
  'rouge_l',
  'bleu_1',
  'bleu_4',
  'math_equiv',
  'math_equiv_chain_of_thought',
  'classification_macro_f1',
  'classification_micro_f1',
]);
const RUN_SPEC_MAX = 4 * 1024 * 1024;

function detect(sample: DetectSample): number {
  if (sample.format !== 'json' || sample.container) return 0;
  const d = sample.first?.data;
  if (!d || !('instance_id' in d) || !Array.isArray(own(d, 'stats'))) return 0;
  return /per_instance_stats\.json$/.test(sample.fileName) ? 0.98 : 0.9;
}

async function readText(input: AsyncIterable<string | Uint8Array>, max: number, what: string): Promise<string> {
  let text = '';
  for await (const chunk of new TextSource(input).chunks()) {
    text += chunk;
    if (text.length > max) throw new ValidationError(`${what} is over ${max.toLocaleString('en-US')} characters: not a HELM run spec.`);
  }
  return text;
}

export interface HelmRunSpec {
  name?: string;
  model?: string;
  metrics: string[];
}

/** run_spec.json: the run's name, its model and the metric names its metric specs list. */
export async function readRunSpec(input: AsyncIterable<string | Uint8Array>): Promise<HelmRunSpec> {
  let value: unknown;
  try {
    value = JSON.parse(await readText(input, RUN_SPEC_MAX, 'run_spec.json'));
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw new ValidationError('run_spec.json is not valid JSON.');
  }
  if (!isRecord(value)) throw new ValidationError('run_spec.json is not a JSON object.');
  const adapter = own(value, 'adapter_spec');
  const model = isRecord(adapter) ? own(adapter, 'model') : undefined;
  const specs = own(value, 'metric_specs');
  const metrics = (Array.isArray(specs) ? specs : []).flatMap((s) => {
    const args = isRecord(s) ? own(s, 'args') : undefined;
    const names = isRecord(args) ? own(args, 'names') : undefined;
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
  });
  const name = own(value, 'name');
  return { ...(typeof name === 'string' ? { name } : {}), ...(typeof model === 'string' ? { model } : {}), metrics };
}

/** The dataset a HELM run goes into: its run name without the model (runs of several models compare). */
export function helmDatasetName(spec: HelmRunSpec): string | undefined {
  const name = spec.name
    ?.replace(/(?:^|,)model=[^,]*/, '')
    .replace(/:$/, '')
    .replace(/:,/, ':');
  return name ? `HELM ${name}` : undefined;
}

interface Request {
  prompt: string;
  response?: string;
  model?: string;
}

/** scenario_state.json's request states by `instance id|train trial`, streamed (only the texts kept). */
async function readRequests(input: AsyncIterable<string | Uint8Array>): Promise<Map<string, Request>> {
  const scanner = new JsonContainerScanner('scenario_state.json', ['request_states']);
  const out = new Map<string, Request>();
  const take = (text: string): void => {
    const state: unknown = JSON.parse(text);
    if (!isRecord(state)) return;
    const instance = own(state, 'instance');
    const id = isRecord(instance) ? own(instance, 'id') : undefined;
    const inputText = isRecord(instance) ? own(instance, 'input') : undefined;
    if (typeof id !== 'string') return;
    const request = own(state, 'request');
    const result = own(state, 'result');
    const completions = isRecord(result) ? own(result, 'completions') : undefined;
    const first = Array.isArray(completions) ? completions[0] : undefined;
    const response = isRecord(first) ? own(first, 'text') : undefined;
    const model = isRecord(request) ? own(request, 'model') : undefined;
    const trial = numberOf(own(state, 'train_trial_index')) ?? 0;
    const entry: Request = { prompt: isRecord(inputText) && typeof own(inputText, 'text') === 'string' ? (own(inputText, 'text') as string) : '' };
    if (typeof response === 'string') entry.response = response;
    if (typeof model === 'string') entry.model = model;
    // A request per reference (multiple_choice_separate) shares the instance: the first is kept.
    if (!out.has(`${id}|${trial}`)) out.set(`${id}|${trial}`, entry);
  };
  try {
    for await (const chunk of new TextSource(input).chunks()) for (const member of scanner.push(chunk)) take(member.text);
    scanner.end();
  } catch (err) {
    if (err instanceof ParseError) throw new ValidationError(`scenario_state.json cannot be read: ${err.message}`);
    throw err;
  }
  return out;
}

/** The stat of `metric` for an instance: not perturbed, from the eval split (test, else valid, else any). */
function statOf(stats: unknown[], metric: string): number | undefined {
  let found: { split: string; mean: number } | undefined;
  for (const s of stats) {
    if (!isRecord(s)) continue;
    const name = own(s, 'name');
    if (!isRecord(name) || own(name, 'name') !== metric || own(name, 'perturbation') !== undefined) continue;
    const count = numberOf(own(s, 'count'));
    const mean = numberOf(own(s, 'mean')) ?? (count ? (numberOf(own(s, 'sum')) ?? NaN) / count : undefined);
    if (mean === undefined || !Number.isFinite(mean)) continue;
    const split = String(own(name, 'split') ?? '');
    if (!found || (split === 'test' && found.split !== 'test')) found = { split, mean };
  }
  return found?.mean;
}

const statNames = (stats: unknown): string[] =>
  Array.isArray(stats)
    ? [
        ...new Set(
          stats.flatMap((s) =>
            isRecord(s) && isRecord(own(s, 'name')) && typeof own(own(s, 'name') as Record<string, unknown>, 'name') === 'string'
              ? [own(own(s, 'name') as Record<string, unknown>, 'name') as string]
              : [],
          ),
        ),
      ]
    : [];

export const helm: Preset = {
  id: 'helm',
  label: 'HELM run (per_instance_stats.json + scenario_state.json + run_spec.json)',
  defaults: textDefaults('HELM run', null),
  detect,
  async prepare(ctx) {
    const spec: HelmRunSpec = ctx.sidecars?.runSpec ? await readRunSpec(ctx.sidecars.runSpec) : { metrics: [] };
    if (!ctx.sidecars?.scenarioState) {
      throw new ValidationError(
        `${quote(ctx.fileName)} holds HELM's scores only; the prompts and outputs are in scenario_state.json of the same run (the model in ` +
          `run_spec.json). Import the run as a whole: CLI --data RUN_FOLDER; in the dialog choose the run's files together, or its folder.`,
      );
    }
    const requests = await readRequests(ctx.sidecars.scenarioState);
    const metric = ctx.judgeColumn?.trim() || spec.metrics[0] || 'exact_match';
    const scenario = spec.name?.split(':')[0];
    const hint: ScaleHint | undefined = UNIT_METRICS.has(metric) ? { scale: UNIT_CONTINUOUS, reason: `HELM metric ${quote(metric)} (0–1)` } : undefined;
    const name = helmDatasetName(spec);
    const notes = [
      `Metric: ${quote(metric)}${ctx.judgeColumn ? '' : " (the run's main metric; another: the dialog's Metric field / CLI --metric NAME)"}; one ` +
        `row per instance.`,
    ];
    if (spec.model) notes.push(`Tool: the run's model ${quote(spec.model)} (run_spec.json).`);
    return {
      judge: metric,
      notes,
      ...(name ? { name } : {}),
      empty: () => `${quote(ctx.fileName)} holds no instances: the HELM run evaluated nothing, so there is nothing to import.`,
      map(record) {
        const d = record.data;
        const id = own(d, 'instance_id');
        const trial = numberOf(own(d, 'train_trial_index')) ?? 0;
        const stats = own(d, 'stats');
        const fail = (column: string, reason: string) => ({ rows: [], errors: [{ file: ctx.fileName, row: record.row, column, reason, raw: d }] });
        if (typeof id !== 'string' || !Array.isArray(stats)) return fail('instance_id', 'not a HELM per-instance entry: expected instance_id and a stats list');
        const score = statOf(stats, metric);
        if (score === undefined)
          return fail('stats', `missing score: instance ${quote(id)} has no ${quote(metric)} stat (it has ${clipList(statNames(stats), 300, 'stats')})`);
        const request = requests.get(`${id}|${trial}`);
        if (!request) return fail('instance_id', `instance ${quote(id)} (train trial ${trial}) is not in scenario_state.json, so its prompt is unknown`);
        const row: CanonicalRow = {
          taskId: trial > 0 ? `${id}#${trial}` : id,
          prompt: request.prompt,
          tool: spec.model ?? request.model ?? '',
          score,
          rater: metric,
          categories: scenario ? [scenario] : [],
          scoreSource: 'model',
          source: {
            row: record.row,
            columns: {
              id: 'instance_id',
              prompt: 'scenario_state.json: instance.input.text',
              tool: 'run_spec.json: adapter_spec.model',
              score: `stats[${metric}].mean`,
            },
            raw: d,
          },
        };
        if (request.response !== undefined && request.response.trim() !== '') row.response = request.response;
        if (hint) row.scaleHint = hint;
        return { rows: [row], errors: [] };
      },
    };
  },
};
