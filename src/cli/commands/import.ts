/**
 * `toolmem import`: reads a file with fs streams into the same `runImport` the browser worker uses,
 * with an in-memory sink. Exit codes: 0 file read (even with rejected rows), 1 usage error,
 * 2 the file could not be read or imported at all (missing, empty, unparseable, wrong columns).
 */
import { ToolMemError } from '../../core/errors';
import { clipInput } from '../../core/text/quote';
import { formatSummary } from '../format-import';
import { EXIT, command, strictArgs, type Io } from '../io';
import { DATA_OPTIONS, DATA_USAGE, dataArgs, loadData, type DataArgs } from '../load-data';
import { FileReadError } from '../node-files';
import { describeNearMisses } from '../tool-choices';

/** Longest error message printed (with "toolmem import: " and "… (N more)" it stays under 2 KB). */
const MESSAGE_MAX = 1_900;

const USAGE = `Usage: toolmem import --data FILE [options]

Reads an evaluation log (CSV/TSV, JSON, JSONL, Parquet, an Inspect .eval or a HELM run folder) and
reports, per tool, the rows accepted and rejected, with the first 10 errors.

Options:
${DATA_USAGE}
  --dry-run            check only (the CLI stores nothing yet either way)
  --json               print the import summary as JSON
  -h, --help           show this help

Exit codes: 0 the file was read (even if rows were rejected), 1 usage error,
2 the file could not be read or imported at all.`;

interface ParsedArgs extends DataArgs {
  dryRun: boolean;
  json: boolean;
  help: boolean;
}

function parse(args: string[]): ParsedArgs {
  const values = strictArgs(args, {
    ...DATA_OPTIONS,
    'dry-run': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const help = values.help === true;
  return { ...dataArgs(values, !help), dryRun: values['dry-run'] === true, json: values.json === true, help };
}

async function run(opts: ParsedArgs, io: Io): Promise<number> {
  try {
    const { summary } = await loadData(opts);
    io.out(opts.json ? JSON.stringify({ ...summary, dryRun: opts.dryRun, stored: false }, null, 2) : formatSummary(summary, { dryRun: opts.dryRun }));
    // Look-alike tool names: the refusal and the two ways out, on stderr so --json stays parseable.
    const nearMisses = describeNearMisses(summary);
    if (nearMisses.length) io.err(nearMisses.join('\n'));
    return EXIT.ok;
  } catch (err) {
    if (!(err instanceof ToolMemError) && !(err instanceof FileReadError)) throw err;
    const row = 'row' in err && typeof err.row === 'number' ? err.row : undefined;
    // Messages echo input only through quote()/clipInput(); this bound also keeps a terminal safe from
    // control characters in any message that still carries some (clipInput escapes them).
    const message = clipInput(err.message, MESSAGE_MAX);
    if (opts.json) io.out(JSON.stringify({ error: { name: err.name, message, ...(row !== undefined ? { row } : {}) } }, null, 2));
    io.err(`toolmem import: ${message}`);
    return EXIT.unreadable;
  }
}

export const importCommand = command('import', 'read an evaluation log and report accepted/rejected rows per tool', USAGE, parse, run);
