/**
 * `toolmem verify --memory FILE --data FILE`: checks every entry of a memory file on the data's
 * tasks outside the memory's own training split (src/app/memory/verify.ts) and prints each
 * claim's verdict (holds / inconclusive / contradicted / untested) and the summary: direction (share
 * of tested claims whose unseen sign agrees, also `precision`), confirmed (share that hold) and
 * calibration. `--json`: `{ direction, confirmed, calibration, precision, tested, counts, entries:
 * [{ id, tool, verdict, n, claimed, observed, ci95 }] }`. Exit codes: 0 it ran, 1 usage error, 2
 * unreadable input.
 */
import { verifyMemoryFile } from '../../app/memory/verify';
import { ToolMemError } from '../../core/errors';
import { clipInput, quote } from '../../core/text/quote';
import { createTransformersEmbedder } from '../../model-host/transformers-embedder';
import { readMemoryArg } from '../memory-arg';
import { EXIT, command, strictArgs, UsageError, type Io } from '../io';
import { DATA_OPTIONS, DATA_USAGE, dataArgs, loadData, type DataArgs } from '../load-data';
import { FileReadError } from '../node-files';
import { verdictSummary } from '../build-memory-report';

const USAGE = `Usage: toolmem verify --memory MEMORY.json --data FILE [data options]

Checks each claim of a memory on tasks it never saw: every task of the data outside the memory's
training split. Prints each claim's verdict from the unseen 95% interval — holds (on the claimed
side of zero), inconclusive (spans zero), contradicted (on the other side), untested (fewer than
15 such tasks) — and the summary: direction (share of tested claims whose unseen sign agrees),
confirmed (share that hold) and calibration (unseen size / claimed size). Tentative entries and
the tools' profiles are not claims and are not checked.

Options:
  --memory FILE        the memory file (toolmem build-memory, or exported from the app)
${DATA_USAGE}
  --json               print { direction, confirmed, calibration, precision, tested, counts,
                       entries: [{ id, tool, verdict, n, claimed, observed, ci95 }] }
  -h, --help           show this help

Exit codes: 0 done, 1 usage error, 2 the memory or the data could not be read.`;

interface ParsedArgs extends DataArgs {
  memory: string;
  json: boolean;
  help: boolean;
}

function parse(args: string[]): ParsedArgs {
  const values = strictArgs(args, {
    ...DATA_OPTIONS,
    memory: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const help = values.help === true;
  if (!help && !values.memory) throw new UsageError('--memory FILE is required.');
  return { ...dataArgs(values, !help), memory: values.memory ?? '', json: values.json === true, help };
}

const fmt = (x: number | null) => (x === null ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`);

async function run(opts: ParsedArgs, io: Io): Promise<number> {
  const file = await readMemoryArg('verify', opts.memory, io);
  if (typeof file === 'number') return file;
  let loaded;
  try {
    loaded = await loadData(opts);
  } catch (err) {
    if (!(err instanceof ToolMemError) && !(err instanceof FileReadError)) throw err;
    io.err(`toolmem verify: ${err.message}`);
    return EXIT.unreadable;
  }
  const model = file.memory.embeddingModel.split('@')[0]!;
  const embedder = createTransformersEmbedder({ model });
  const result = await verifyMemoryFile(file, loaded.dataset, loaded.experiences, embedder, Date.now());
  if (opts.json) {
    io.out(
      JSON.stringify(
        {
          direction: result.direction,
          confirmed: result.confirmed,
          calibration: result.calibration,
          precision: result.precision,
          tested: result.tested,
          counts: result.counts,
          unseenTasks: result.unseenTasks,
          untestedTools: result.untestedTools,
          entries: result.entries,
        },
        null,
        2,
      ),
    );
    return EXIT.ok;
  }
  io.out(
    `Memory ${quote(file.memory.name, 80)} checked on ${result.unseenTasks.toLocaleString('en-US')} tasks of ${quote(loaded.dataset.name, 80)} it ` +
      `never saw (${result.trainTasksSkipped.toLocaleString('en-US')} training tasks left out).`,
  );
  // Tool and entry ids come from the file: shown bounded.
  for (const e of result.entries)
    io.out(
      `  ${e.verdict.padEnd(12)} ${clipInput(e.tool, 40).padEnd(20)} n=${String(e.n).padStart(4)}  claimed ${fmt(e.claimed)}  ` +
        `observed ${fmt(e.observed)}  ${clipInput(e.id, 120)}`,
    );
  for (const t of result.untestedTools) io.out(`  untested tool ${quote(t.toolId, 60)}: ${t.why}`);
  const line = verdictSummary(result);
  io.out(line.charAt(0).toUpperCase() + line.slice(1));
  return EXIT.ok;
}

export const verifyCommand = command('verify', "check a memory's claims on tasks it never saw (verdicts and precision)", USAGE, parse, run);
