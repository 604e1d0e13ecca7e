/**
 * Shared by every CLI subcommand that reads a data file (`import`, `eval`, `build-memory`):
 * the data options (--data, --preset, --map, --scale, --skills, --prompts, --judge, --dataset,
 * --delimiter) and loading a file through the same `runImport` the browser worker uses.
 */
import { slugify } from '../core/ids';
import { detectPreset, isPresetId, logDatasetName, parseMapping, presetDefaults, runImport } from '../core/import';
import type { FieldMapping, ImportOptions, ImportSummary, Sidecars } from '../core/import/types';
import type { Dataset, Experience, PresetId, ScoreScale } from '../core/types';
import { UsageError } from './io';
import { toolChoiceArgs, type ToolChoiceArgs } from './tool-choices';
import { MemorySink } from './memory-sink';
import { byteChunks, fileRange, fileSize, headOf, textChunks } from './node-files';
import { runFiles } from './run-files';

export interface DataArgs extends ToolChoiceArgs {
  data: string;
  preset?: PresetId;
  mapping?: FieldMapping;
  scale?: ScoreScale;
  skills?: string;
  prompts?: string;
  judge?: string;
  dataset?: string;
  delimiter?: string;
  /** Tool to credit when the file names none (no model column; lm-eval-harness samples without their run). */
  tool?: string;
  /** HELM: the metric to import (default: the run's main metric). */
  metric?: string;
}

/** parseArgs option specs for the data options; spread into a command's own options. */
export const DATA_OPTIONS = {
  data: { type: 'string' },
  preset: { type: 'string' },
  map: { type: 'string', multiple: true },
  scale: { type: 'string' },
  skills: { type: 'string' },
  prompts: { type: 'string' },
  judge: { type: 'string' },
  dataset: { type: 'string' },
  delimiter: { type: 'string' },
  tool: { type: 'string' },
  metric: { type: 'string' },
  'known-tools': { type: 'string', multiple: true },
  'tool-map': { type: 'string', multiple: true },
  'new-tool': { type: 'string', multiple: true },
} as const;

export const DATA_USAGE = `  --data FILE          file to read (required): also an Inspect .eval, or a HELM run folder
                       (per_instance_stats.json + scenario_state.json + run_spec.json); files of
                       the same run beside it are read too (lm-eval results_<date>.json)
  --preset NAME        genai-bench | genai-bench-long | biggen | alpaca-eval | prometheus |
                       promptfoo | inspect | lm-eval-harness | openai-evals | helm | generic
                       (detected from the file when omitted)
  --map F=COL,...      generic preset: canonical field = column, fields: id, prompt, tool, score,
                       response, feedback, rubric, category, rater, image (may be repeated);
                       in JSON, JSONL and Parquet a column may be a nested path:
                       prompt=vars.question, score=gradingResult.componentResults[0].score,
                       a key holding '.' or brackets as ["a.b"]
  --tool NAME          the tool of every row, for a file without a model column (generic,
                       lighteval Parquet, lm-eval-harness samples without their results file)
  --metric NAME        helm: the metric to import (default: the run's main metric)
  --scale MIN:MAX      score scale, e.g. 1:5 (whole numbers) or 0:1 (continuous);
                       add :int or :real to say which (e.g. 0:10:real, -25:0:real); required
                       when the scores cannot tell it (all equal, a single score, or none:
                       a file of outputs to label)
  --skills FILE        genai-bench sidecar genai_skills.json (categories)
  --prompts FILE       genai-bench-long sidecar prompts.csv (prompt text; required there)
  --judge COLUMN       biggen: which <judge>_score column to use (default: the first)
  --dataset NAME       dataset name (default: the preset's dataset name)
  --delimiter CHAR     CSV delimiter (default: detected; use 'tab' for tabs)
  --known-tools A,B    tools that already exist; a file tool within 2 edits of one (dalle beside
                       DALLE_3) is refused unless --tool-map or --new-tool decides it (may be repeated)
  --tool-map NAME=TOOL store NAME's rows under the existing TOOL (one pair per flag; may be repeated)
  --new-tool NAME      import NAME as a new tool although it looks like a known one (may be repeated)`;

/** `MIN:MAX[:int|:real]`; whole-number bounds at least 2 apart mean a whole-number scale unless told otherwise. */
export function parseScale(text: string, direction: ScoreScale['direction'] = 'higher-better'): ScoreScale {
  const parts = text.split(':');
  const [lo, hi, kind] = parts;
  const min = Number(lo);
  const max = Number(hi);
  if (parts.length < 2 || parts.length > 3 || lo === '' || hi === '' || !Number.isFinite(min) || !Number.isFinite(max) || min >= max) {
    throw new UsageError(`--scale '${text}': expected MIN:MAX with MIN < MAX, e.g. 1:5 or 0:1.`);
  }
  if (kind !== undefined && kind !== 'int' && kind !== 'real') throw new UsageError(`--scale '${text}': the third part must be 'int' or 'real'.`);
  const integer = kind === undefined ? Number.isInteger(min) && Number.isInteger(max) && max - min >= 2 : kind === 'int';
  return { min, max, direction, integer };
}

type DataValues = { [K in keyof typeof DATA_OPTIONS]?: (typeof DATA_OPTIONS)[K] extends { multiple: true } ? string[] : string };

/** Validates the data options parsed by `parseArgs`; throws UsageError with a specific message. */
export function dataArgs(values: DataValues, required = true): DataArgs {
  if (!values.data && required) throw new UsageError('--data FILE is required.');
  if (values.preset !== undefined && !isPresetId(values.preset)) throw new UsageError(`Unknown preset '${values.preset}'.`);
  const out: DataArgs = { data: values.data ?? '' };
  if (values.preset !== undefined) out.preset = values.preset as PresetId;
  if (values.map) {
    try {
      out.mapping = parseMapping(values.map.join(','));
    } catch (err) {
      throw new UsageError(`--map: ${(err as Error).message}`);
    }
  }
  if (values.scale !== undefined) out.scale = parseScale(values.scale);
  const delimiter = values.delimiter === 'tab' || values.delimiter === '\\t' ? '\t' : values.delimiter;
  if (delimiter !== undefined && ![',', ';', '\t', '|'].includes(delimiter)) throw new UsageError(`--delimiter must be one of , ; | tab.`);
  if (delimiter !== undefined) out.delimiter = delimiter;
  for (const key of ['skills', 'prompts', 'judge', 'dataset', 'tool', 'metric'] as const) if (values[key] !== undefined) out[key] = values[key];
  return { ...out, ...toolChoiceArgs(values) };
}

export interface LoadedData {
  summary: ImportSummary;
  /** The dataset as the app would create it (scale and ground-truth rater policy from the preset). */
  dataset: Dataset;
  experiences: Experience[];
}

/** Reads a data file into memory with the same pipeline as the app (fs streams, in-memory sink). */
export async function loadData(args: DataArgs): Promise<LoadedData> {
  const run = await runFiles(args.data);
  const data = run.data;
  const totalBytes = await fileSize(data);
  const sidecars: Sidecars = {};
  // Files of the same run: read when the preset asks for them (each is opened once).
  if (run.results) sidecars.results = byteChunks(run.results);
  if (run.scenarioState) sidecars.scenarioState = byteChunks(run.scenarioState);
  if (run.runSpec) sidecars.runSpec = byteChunks(run.runSpec);
  if (args.skills) {
    await fileSize(args.skills);
    sidecars.skills = textChunks(args.skills);
  }
  if (args.prompts) {
    await fileSize(args.prompts);
    sidecars.prompts = textChunks(args.prompts);
  }
  // The dataset id is needed up front; without --dataset it comes from the detected preset.
  const head = await headOf(data);
  const preset = args.preset ?? detectPreset(data, head).preset;
  const logName = args.dataset
    ? undefined
    : await logDatasetName({ head, fileName: data, randomAccess: fileRange(data, totalBytes), ...(run.runSpec ? { runSpec: byteChunks(run.runSpec) } : {}) });
  const name = args.dataset ?? logName ?? presetDefaults(preset, data).name;
  const now = Date.now();
  const options: ImportOptions = {
    fileName: data,
    totalBytes,
    datasetId: slugify(name),
    importId: `cli-${now.toString(36)}`,
    now,
    sidecars,
  };
  if (args.preset) options.preset = args.preset;
  if (args.mapping) options.mapping = args.mapping;
  if (args.scale) options.scale = args.scale;
  if (args.judge) options.judgeColumn = args.judge;
  if (args.metric) options.judgeColumn = args.metric;
  if (args.delimiter) options.delimiter = args.delimiter;
  if (args.tool) options.defaultTool = args.tool;
  // Parquet is read from its footer (random access); the other formats ignore this.
  options.randomAccess = fileRange(data, totalBytes);
  // A second read of the scores decides an unstated scale before anything is kept (scale-inference.ts).
  options.reopen = () => byteChunks(data);
  if (args.knownTools) options.knownTools = args.knownTools;
  if (args.toolChoices) options.toolChoices = args.toolChoices;
  const sink = new MemorySink();
  const summary = await runImport(byteChunks(data), options, sink);
  const dataset: Dataset = {
    id: options.datasetId,
    name,
    source: data,
    preset: summary.preset,
    scale: summary.scale,
    raterPolicy: summary.datasetDefaults.raterPolicy,
    createdAt: now,
  };
  return { summary, dataset, experiences: [...sink.rows.values()] };
}
