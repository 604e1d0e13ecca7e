/**
 * `toolmem build-memory`: learns a capability memory from a data file and writes it as JSON
 * (format version 2, docs/memory-format.md). The build is the app's use case (src/app/build-memory.ts)
 * over an in-memory repository: without an LLM (`--llm none`, the default) the capability analysis
 * (facets, effects, entries, the fitted predictor); with `--llm openai:URL#MODEL` every training
 * experience also goes through the retrieval-refined LLM update (and critiques for low scores).
 * Exit codes: 0 memory written, 1 usage error, 2 the data could not be read or the build failed
 * (LLM server unreachable, HTTP errors; the message says which).
 */
import { writeFile } from 'node:fs/promises';
import { exportBuiltMemory, planBuild, startBuild } from '../../app/build-memory';
import { dictFrom } from '../../core/data-keys';
import { ToolMemError, ValidationError } from '../../core/errors';
import { createEngine, EngineSpecError, isBrowserEngine, parseEngineSpec } from '../../core/llm';
import { buildMetrics, DEFAULT_INDUCE_SETTINGS, InMemoryMemoryRepository, runBuild } from '../../core/memory';
import { serializeMemoryFile, type MemoryFile } from '../../core/memory-format';
import { LEVELS } from '../../core/types';
import { createTransformersEmbedder } from '../../node/transformers-embedder';
import { EXIT, parseOrExit, strictArgs, UsageError, type Command, type Io } from '../io';
import { DATA_OPTIONS, DATA_USAGE, dataArgs, loadData, type DataArgs } from '../load-data';
import { FileReadError } from '../node-files';
import { scaleMeaningOption } from '../../core/import/presets/scale-meanings';


const USAGE = `Usage: toolmem build-memory --data FILE --out MEMORY.json [options]

Learns, per tool, what it is good and bad at from scored experiences, and writes the memory as JSON.

Options:
${DATA_USAGE}
  --out FILE           where to write the memory (required)
  --train N            learn from N training tasks of a seeded random split (default: all tasks)
  --seed S             seed of the split (default 0)
  --tools A,B          only these tools (default: all, in name order)
  --llm SPEC           none (default: the capability analysis only) or openai:URL#MODEL
                       (e.g. openai:http://127.0.0.1:8080/v1#qwen2.5-7b-instruct);
                       an API key is read from TOOLMEM_LLM_API_KEY when set
  --k N                entries retrieved per level for each update (default 6)
  --no-clusters        skip the capability analysis (needs --llm)
  --no-critiques       do not distil critiques from low-scoring experiences
  --json               print the build summary as JSON
  -h, --help           show this help

Exit codes: 0 memory written, 1 usage error, 2 data unreadable or build failed.`;

interface ParsedArgs extends DataArgs {
  out: string;
  train?: number;
  seed: number;
  tools?: string[];
  llm: string;
  k: number;
  clusters: boolean;
  critiques: boolean;
  json: boolean;
  help: boolean;
}

function int(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}, got '${text}'.`);
  return n;
}

function parse(args: string[]): ParsedArgs {
  const values = strictArgs(args, {
    ...DATA_OPTIONS,
    out: { type: 'string' },
    train: { type: 'string' },
    seed: { type: 'string' },
    tools: { type: 'string' },
    llm: { type: 'string', default: 'none' },
    k: { type: 'string' },
    'no-clusters': { type: 'boolean', default: false },
    'no-critiques': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const help = values.help === true;
  const data = dataArgs(values, !help);
  if (!help && !values.out) throw new UsageError('--out FILE is required.');
  const llm = values.llm ?? 'none';
  try {
    if (isBrowserEngine(parseEngineSpec(llm))) throw new UsageError(`--llm: '${llm}' runs only in the browser app; the CLI takes none or openai:URL#MODEL (a llama.cpp server serves GGUF files the same way).`);
  } catch (err) {
    if (err instanceof EngineSpecError) throw new UsageError(`--llm: ${err.message}`);
    throw err;
  }
  const clusters = values['no-clusters'] !== true;
  if (!help && !clusters && llm.trim() === 'none') throw new UsageError('--no-clusters needs --llm: without an LLM the capability analysis is the whole memory.');
  const train = int('train', values.train, 1);
  const tools = values.tools?.split(',').map((t) => t.trim()).filter(Boolean);
  return {
    ...data,
    out: values.out ?? '',
    ...(train !== undefined ? { train } : {}),
    seed: int('seed', values.seed, 0) ?? 0,
    ...(tools?.length ? { tools } : {}),
    llm,
    k: int('k', values.k, 1) ?? DEFAULT_INDUCE_SETTINGS.k,
    clusters,
    critiques: values['no-critiques'] !== true,
    json: values.json === true,
    help,
  };
}

type Verification = NonNullable<NonNullable<MemoryFile['build']['capability']>['report']['verification']>;

function verificationLine(v: Verification): string {
  const c = v.counts;
  const p = v.precision === null ? 'no entry could be tested' : `precision ${v.precision.toFixed(2)} (${c.holds + c.weaker} of ${v.tested} tested entries held their direction)`;
  return `Checked on the held-out tasks: ${p}; ${c.holds} hold, ${c.weaker} weaker, ${c.contradicted} contradicted, ${c.untested} untested.`;
}

async function build(opts: ParsedArgs, io: Io): Promise<number> {
  const { dataset, experiences } = await loadData(opts);
  const spec = parseEngineSpec(opts.llm);
  const apiKey = process.env.TOOLMEM_LLM_API_KEY;
  const engine = createEngine(spec, apiKey ? { apiKey } : {});
  const embedder = createTransformersEmbedder();
  const now = Date.now();
  let plan;
  try {
    plan = planBuild(dataset, experiences, {
      split: { ...(opts.train !== undefined ? { train: opts.train } : {}), seed: opts.seed },
      ...(opts.tools ? { tools: opts.tools } : {}),
      engine: engine.id,
      embeddingModel: embedder.id,
      k: opts.k,
      critiques: opts.critiques,
      statistics: opts.clusters,
      memoryId: `mem-${now.toString(36)}`,
      runId: `build-${now.toString(36)}`,
      now,
    });
  } catch (err) {
    if (err instanceof ValidationError) throw new UsageError(`--tools: ${err.message}`);
    throw err;
  }
  const repo = new InMemoryMemoryRepository();
  await startBuild(repo, plan);
  let lastReport = 0;
  const run = await runBuild(
    plan.run,
    { repo, engine, embedder, experiences: plan.data, unseen: plan.unseen, ...scaleMeaningOption(dataset.preset) },
    {
      onProgress: (r) => {
        const m = buildMetrics(r);
        if (opts.json || Date.now() - lastReport < 2000) return;
        lastReport = Date.now();
        io.err(`build-memory: ${m.done}/${m.total} steps, ${m.promptTokens + m.completionTokens} tokens${m.etaMs !== null ? `, about ${Math.ceil(m.etaMs / 1000)} s left` : ''}`);
      },
    },
  );
  const metrics = buildMetrics(run);
  if (run.state !== 'completed') {
    io.err(`toolmem build-memory: the build ${run.state}${run.error ? `: ${run.error}` : ''}`);
    return EXIT.unreadable;
  }
  const file = await exportBuiltMemory(repo, (await repo.get(plan.memory.id))!, run, plan.truth, plan.split);
  await writeFile(opts.out, serializeMemoryFile(file), 'utf8');
  const cap = file.build.capability;
  const summary = {
    out: opts.out,
    dataset: dataset.id,
    trainTasks: plan.split.train.length,
    engine: engine.id,
    embeddingModel: embedder.id,
    tools: dictFrom(file.tools.map((t) => [t.id, t.counts] as const)),
    facets: cap?.report.facetsTested ?? 0,
    belowMinN: cap?.report.belowMinN ?? 0,
    note: cap?.note?.text ?? null,
    verification: cap?.report.verification ?? null,
    llmCalls: metrics.llmCalls,
    promptTokens: metrics.promptTokens,
    completionTokens: metrics.completionTokens,
    skipped: metrics.skipped.length,
  };
  if (opts.json) io.out(JSON.stringify(summary, null, 2));
  else {
    const lines = file.tools.map((t) => `  ${t.id.padEnd(24)} ${LEVELS.map((l) => `${l} ${t.counts[l]}`).join('  ')}`);
    io.out(
      [
        `Memory written to ${opts.out} (${plan.split.train.length} training tasks, engine ${engine.id}, embeddings ${embedder.id}).`,
        ...(cap ? [`Capability analysis: ${cap.report.facetsTested} facets tested on ${cap.tools.length} tools, ${cap.report.entries} entries; ${cap.report.belowMinN} facets below the minimum number of tasks (no entry).`, ...cap.report.notes.map((n) => `  ${n}`)] : []),
        ...(cap?.report.verification ? [verificationLine(cap.report.verification)] : []),
        ...(cap?.note ? [cap.note.text] : []),
        ...lines,
        metrics.llmCalls ? `LLM: ${metrics.llmCalls} calls, ${metrics.promptTokens} prompt + ${metrics.completionTokens} completion tokens, ${metrics.skipped.length} experiences skipped (invalid replies).` : 'No LLM used: the capability analysis only.',
      ].join('\n'),
    );
  }
  return EXIT.ok;
}

async function run(args: string[], io: Io): Promise<number> {
  const opts = parseOrExit('build-memory', USAGE, args, parse, io);
  if (typeof opts === 'number') return opts;
  try {
    return await build(opts, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`toolmem build-memory: ${err.message}`);
      return EXIT.usage;
    }
    if (!(err instanceof ToolMemError) && !(err instanceof FileReadError) && (err as NodeJS.ErrnoException).code === undefined) throw err;
    io.err(`toolmem build-memory: ${(err as Error).message}`);
    return EXIT.unreadable;
  }
}

export const buildMemoryCommand: Command = {
  name: 'build-memory',
  summary: 'learn a capability memory (what each tool is good and bad at) and write it as JSON',
  usage: USAGE,
  run,
};
