/**
 * `toolmem import`: reads a file with fs streams into the same `runImport` the browser worker uses,
 * with an in-memory sink. Exit codes: 0 file read (even with rejected rows), 1 usage error,
 * 2 the file could not be read or imported at all (missing, empty, unparseable, wrong columns).
 */
import { parseArgs } from 'node:util';
import { ToolMemError } from '../../core/errors';
import { slugify } from '../../core/ids';
import { detectPreset, isPresetId, parseMapping, presetDefaults, runImport } from '../../core/import';
import type { FieldMapping, ImportOptions, Sidecars } from '../../core/import/types';
import type { PresetId, ScoreScale } from '../../core/types';
import { formatSummary } from '../format-import';
import { EXIT, UsageError, type Command, type Io } from '../io';
import { MemorySink } from '../memory-sink';
import { FileReadError, fileSize, headOf, textChunks } from '../node-files';

const USAGE = `Usage: toolmem import --data FILE [options]

Reads an evaluation log (CSV/TSV, JSON or JSONL) and reports, per tool, the rows accepted and
rejected, with the first 10 errors.

Options:
  --data FILE          file to import (required)
  --preset NAME        genai-bench | genai-bench-long | biggen | alpaca-eval | prometheus | generic
                       (detected from the file when omitted)
  --map F=COL,...      generic preset: canonical field = column, fields: id, prompt, tool, score,
                       response, feedback, rubric, category, rater, image (may be repeated)
  --scale MIN:MAX      score scale, e.g. 1:5 (whole numbers) or 0:1 (continuous);
                       add :int or :real to say which (e.g. 0:10:real)
  --skills FILE        genai-bench sidecar genai_skills.json (categories)
  --prompts FILE       genai-bench-long sidecar prompts.csv (prompt text; required there)
  --judge COLUMN       biggen: which <judge>_score column to use (default: the first)
  --dataset NAME       dataset name (default: the preset's dataset name)
  --delimiter CHAR     CSV delimiter (default: detected; use 'tab' for tabs)
  --dry-run            check only (the CLI stores nothing yet either way)
  --json               print the import summary as JSON
  -h, --help           show this help

Exit codes: 0 the file was read (even if rows were rejected), 1 usage error,
2 the file could not be read or imported at all.`;

interface ParsedArgs {
  data: string;
  preset?: PresetId;
  mapping?: FieldMapping;
  scale?: ScoreScale;
  skills?: string;
  prompts?: string;
  judge?: string;
  dataset?: string;
  delimiter?: string;
  dryRun: boolean;
  json: boolean;
  help: boolean;
}

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

function parse(args: string[]): ParsedArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        data: { type: 'string' },
        preset: { type: 'string' },
        map: { type: 'string', multiple: true },
        scale: { type: 'string' },
        skills: { type: 'string' },
        prompts: { type: 'string' },
        judge: { type: 'string' },
        dataset: { type: 'string' },
        delimiter: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const help = values.help === true;
  if (!values.data && !help) throw new UsageError('--data FILE is required.');
  if (values.preset !== undefined && !isPresetId(values.preset)) throw new UsageError(`Unknown preset '${values.preset}'.`);
  let mapping: FieldMapping | undefined;
  if (values.map) {
    try {
      mapping = parseMapping(values.map.join(','));
    } catch (err) {
      throw new UsageError(`--map: ${(err as Error).message}`);
    }
  }
  const delimiter = values.delimiter === 'tab' || values.delimiter === '\\t' ? '\t' : values.delimiter;
  if (delimiter !== undefined && ![',', ';', '\t', '|'].includes(delimiter)) throw new UsageError(`--delimiter must be one of , ; | tab.`);
  const parsed: ParsedArgs = { data: values.data ?? '', dryRun: values['dry-run'] === true, json: values.json === true, help };
  if (values.preset !== undefined) parsed.preset = values.preset as PresetId;
  if (mapping) parsed.mapping = mapping;
  if (values.scale !== undefined) parsed.scale = parseScale(values.scale);
  for (const key of ['skills', 'prompts', 'judge', 'dataset'] as const) if (values[key] !== undefined) parsed[key] = values[key];
  if (delimiter !== undefined) parsed.delimiter = delimiter;
  return parsed;
}

async function run(args: string[], io: Io): Promise<number> {
  let opts: ParsedArgs;
  try {
    opts = parse(args);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`toolmem import: ${err.message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (opts.help) {
    io.out(USAGE);
    return EXIT.ok;
  }
  try {
    const totalBytes = await fileSize(opts.data);
    const sidecars: Sidecars = {};
    if (opts.skills) {
      await fileSize(opts.skills);
      sidecars.skills = textChunks(opts.skills);
    }
    if (opts.prompts) {
      await fileSize(opts.prompts);
      sidecars.prompts = textChunks(opts.prompts);
    }
    // The dataset id is needed up front; without --dataset it comes from the detected preset.
    const preset = opts.preset ?? detectPreset(opts.data, await headOf(opts.data)).preset;
    const datasetName = opts.dataset ?? presetDefaults(preset, opts.data).name;
    const options: ImportOptions = {
      fileName: opts.data,
      totalBytes,
      datasetId: slugify(datasetName),
      importId: `cli-${Date.now().toString(36)}`,
      now: Date.now(),
      sidecars,
    };
    if (opts.preset) options.preset = opts.preset;
    if (opts.mapping) options.mapping = opts.mapping;
    if (opts.scale) options.scale = opts.scale;
    if (opts.judge) options.judgeColumn = opts.judge;
    if (opts.delimiter) options.delimiter = opts.delimiter;
    const summary = await runImport(textChunks(opts.data), options, new MemorySink());
    io.out(opts.json ? JSON.stringify({ ...summary, dryRun: opts.dryRun, stored: false }, null, 2) : formatSummary(summary, { dryRun: opts.dryRun }));
    return EXIT.ok;
  } catch (err) {
    if (!(err instanceof ToolMemError) && !(err instanceof FileReadError)) throw err;
    const row = 'row' in err && typeof err.row === 'number' ? err.row : undefined;
    if (opts.json) io.out(JSON.stringify({ error: { name: err.name, message: err.message, ...(row !== undefined ? { row } : {}) } }, null, 2));
    io.err(`toolmem import: ${err.message}`);
    return EXIT.unreadable;
  }
}

export const importCommand: Command = {
  name: 'import',
  summary: 'read an evaluation log and report accepted/rejected rows per tool',
  usage: USAGE,
  run,
};
