/**
 * `toolmem build-memory`: learns a capability memory from a data file and writes it as JSON
 * (format version 2, docs/memory-format.md). The build is the app's use case (src/app/memory/build.ts)
 * over an in-memory repository: without an LLM (`--llm none`, the default) the capability analysis
 * (facets, effects, entries, the fitted predictor); with `--llm openai:URL#MODEL` every training
 * experience also goes through the retrieval-refined LLM update (and critiques for low scores).
 * Exit codes: 0 memory written, 1 usage error, 2 the data could not be read or the build failed
 * (LLM server unreachable, HTTP errors; the message says which).
 */
import { writeFile } from 'node:fs/promises';
import { buildMemoryFile, planBuild } from '../../app/memory/build';
import { ToolMemError, ValidationError } from '../../core/errors';
import { resolveEngine } from '../../core/llm';
import { buildMetrics } from '../../core/memory';
import { serializeMemoryFile } from '../../core/memory-format';
import { createTransformersEmbedder } from '../../model-host/transformers-embedder';
import { EXIT, parseOrExit, UsageError, type Command, type Io } from '../io';
import { loadData } from '../load-data';
import { FileReadError } from '../node-files';
import { parse, USAGE, type ParsedArgs } from '../build-memory-args';
import { buildSummaryJson, buildSummaryText } from '../build-memory-report';
import { CLI_ENGINES } from '../llm-arg';

async function build(opts: ParsedArgs, io: Io): Promise<number> {
  const { dataset, experiences } = await loadData(opts);
  const engine = await resolveEngine(opts.llm, CLI_ENGINES);
  const embedder = createTransformersEmbedder();
  const now = Date.now();
  let plan;
  try {
    plan = planBuild(dataset, experiences, {
      split: { ...(opts.train !== undefined ? { train: opts.train } : {}), seed: opts.seed },
      ...(opts.tools ? { tools: opts.tools } : {}),
      engine: opts.llm,
      embeddingModel: embedder.id,
      k: opts.k,
      critiques: opts.critiques,
      ...(opts.maxLfsr !== undefined ? { maxLfsr: opts.maxLfsr } : {}),
      statistics: opts.clusters,
      memoryId: `mem-${now.toString(36)}`,
      runId: `build-${now.toString(36)}`,
      now,
    });
  } catch (err) {
    if (err instanceof ValidationError) throw new UsageError(`--tools: ${err.message}`);
    throw err;
  }
  let lastReport = 0;
  const { run, file } = await buildMemoryFile(
    plan,
    { dataset, experiences, engine, embedder },
    {
      onProgress: (r) => {
        const m = buildMetrics(r);
        if (opts.json || Date.now() - lastReport < 2000) return;
        lastReport = Date.now();
        io.err(
          `build-memory: ${m.done}/${m.total} steps, ${m.promptTokens + m.completionTokens} ` +
            `tokens${m.etaMs !== null ? `, about ${Math.ceil(m.etaMs / 1000)} s left` : ''}`,
        );
      },
    },
  );
  if (!file) {
    io.err(`toolmem build-memory: the build ${run.state}${run.error ? `: ${run.error}` : ''}`);
    return EXIT.unreadable;
  }
  await writeFile(opts.out, serializeMemoryFile(file), 'utf8');
  const summary = {
    out: opts.out,
    datasetId: dataset.id,
    trainTasks: plan.split.train.length,
    engine: engine.id,
    embeddingModel: embedder.id,
    file,
    metrics: buildMetrics(run),
  };
  io.out(opts.json ? JSON.stringify(buildSummaryJson(summary), null, 2) : buildSummaryText(summary));
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
