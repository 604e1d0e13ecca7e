/**
 * Shared by every CLI subcommand that reads a data file (`import`, `eval`, `build-memory`):
 * the data options (--data, --preset, --map, --scale, --skills, --prompts, --judge, --dataset,
 * --delimiter) and loading a file through the same `runImport` the browser worker uses.
 */
import { slugify } from '../core/ids';
import { detectPreset, isPresetId, parseMapping, presetDefaults, runImport } from '../core/import';
import type { FieldMapping, ImportOptions, ImportSummary, Sidecars } from '../core/import/types';
import type { Dataset, Experience, PresetId, ScoreScale } from '../core/types';
import { UsageError } from './io';
import { toolChoiceArgs, type ToolChoiceArgs } from './tool-choices';
import { MemorySink } from './memory-sink';
import { byteChunks, fileRange, fileSize, headOf, textChunks } from './node-files';

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
  /** Tool to credit when the file names none (lm-eval-harness samples outside their model folder). */
  tool?: string;
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
  'known-tools': { type: 'string', multiple: true },
  'tool-map': { type: 'string', multiple: true },
  'new-tool': { type: 'string', multiple: true },
} as const;

export const DATA_USAGE = `  --data FILE          file to read (required)
  --preset NAME        genai-bench | genai-bench-long | biggen | alpaca-eval | prometheus |
                       promptfoo | inspect | lm-eval-harness | openai-evals | generic
                       (detected from the file when omitted)
  --map F=COL,...      generic preset: canonical field = column, fields: id, prompt, tool, score,
                       response, feedback, rubric, category, rater, image (may be repeated);
                       in JSON, JSONL and Parquet a column may be a nested path:
                       prompt=vars.question, score=gradingResult.componentResults[0].score,
                       a key holding '.' or brackets as ["a.b"]
  --tool NAME          lm-eval-harness: the model, when the file is not in the model's folder
  --scale MIN:MAX      score scale, e.g. 1:5 (whole numbers) or 0:1 (continuous);
                       add :int or :real to say which (e.g. 0:10:real)
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
  for (const key of ['skills', 'prompts', 'judge', 'dataset', 'tool'] as const) if (values[key] !== undefined) out[key] = values[key];
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
  const totalBytes = await fileSize(args.data);
  const sidecars: Sidecars = {};
  if (args.skills) {
    await fileSize(args.skills);
    sidecars.skills = textChunks(args.skills);
  }
  if (args.prompts) {
    await fileSize(args.prompts);
    sidecars.prompts = textChunks(args.prompts);
  }
  // The dataset id is needed up front; without --dataset it comes from the detected preset.
  const preset = args.preset ?? detectPreset(args.data, await headOf(args.data)).preset;
  const name = args.dataset ?? presetDefaults(preset, args.data).name;
  const now = Date.now();
  const options: ImportOptions = {
    fileName: args.data,
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
  if (args.delimiter) options.delimiter = args.delimiter;
  if (args.tool) options.defaultTool = args.tool;
  // Parquet is read from its footer (random access); the other formats ignore this.
  options.randomAccess = fileRange(args.data, totalBytes);
  if (args.knownTools) options.knownTools = args.knownTools;
  if (args.toolChoices) options.toolChoices = args.toolChoices;
  const sink = new MemorySink();
  const summary = await runImport(byteChunks(args.data), options, sink);
  const dataset: Dataset = {
    id: options.datasetId,
    name,
    source: args.data,
    preset: summary.preset,
    scale: summary.scale,
    raterPolicy: summary.datasetDefaults.raterPolicy,
    createdAt: now,
  };
  return { summary, dataset, experiences: [...sink.rows.values()] };
}
