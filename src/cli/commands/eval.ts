/**
 * `toolmem eval`: reads a data file, splits its tasks with seeded shuffles (all tools of a task on the same side), fits each offline method on the
 * training tasks and scores its predictions on the test tasks. Prints tables; `--json OUT` writes the summary (means over seeds) in a fixed shape. The
 * evaluation is the one use case the app's predictors worker runs too (src/app/evaluate/run-evaluation.ts): same data, split, seeds and engine give the
 * same JSON. With `--llm openai:URL#MODEL` the LLM methods run too. Exit codes: 0 done, 1 usage error, 2 the data file could not be read or has nothing
 * to evaluate, 130 stopped by Ctrl-C (what was finished is printed, marked partial).
 */
import { runEvaluation, SplitSizeError, TooFewTasksError, type EvaluationOutcome } from '../../app/evaluate/run-evaluation';
import type { Embedder } from '../../core/embed';
import { ToolMemError } from '../../core/errors';
import { allToolPairs, groundTruth, type ScoredPair } from '../../core/eval';
import { formatEngineSpec, type LlmEngine } from '../../core/llm';
import { isLlmMethod, type MethodOptions } from '../../core/predict';
import { EXIT, parseOrExit, type Command, type Io } from '../io';
import { loadData } from '../load-data';
import { FileReadError } from '../node-files';
import { promptToolsOf } from '../eval-llm';
import { openCliEngine } from '../llm-arg';
import { llmProgress, sigintInterrupt } from '../llm-progress';
import { loadMemoryEval } from '../eval-memory-arg';
import { parse, USAGE, type ParsedArgs } from '../eval-args';
import { printOutcome } from '../eval-report';

export { parseSeeds } from '../eval-args';

/** `toolmem eval`; `signal` stands in for Ctrl-C (tests), otherwise SIGINT stops an LLM run. */
export async function runEval(args: string[], io: Io, signal?: AbortSignal): Promise<number> {
  const interrupt = signal ? null : sigintInterrupt(() => io.err('toolmem eval: Ctrl-C — stopping (press it again to quit at once)…'));
  try {
    return await evaluateCommand(args, io, interrupt ?? { signal: signal!, arm: () => undefined });
  } finally {
    interrupt?.dispose();
  }
}

/** Where a step of the evaluation failed, so the command can say which (the use case throws the step's own error). */
class StepError extends Error {
  constructor(
    readonly step: 'embed' | 'engine',
    cause: Error,
  ) {
    super(cause.message, { cause });
  }
}

/** The embedder, its failures marked as the embedding step's. */
function markedEmbedder(load: () => Promise<Embedder>): () => Promise<Embedder> {
  return async () => {
    const inner = await load().catch((err: Error) => Promise.reject(new StepError('embed', err)));
    return {
      id: inner.id,
      dim: inner.dim,
      embed: (texts, opts) => inner.embed(texts, opts).catch((err: Error) => Promise.reject(new StepError('embed', err))),
    };
  };
}

async function evaluateCommand(args: string[], io: Io, stop: { signal: AbortSignal; arm(): void }): Promise<number> {
  const opts = parseOrExit('eval', USAGE, args, parse, io);
  if (typeof opts === 'number') return opts;
  let data: ScoredPair[];
  let loaded;
  try {
    loaded = await loadData(opts);
    data = groundTruth(loaded.experiences, loaded.dataset.raterPolicy);
  } catch (err) {
    if (!(err instanceof ToolMemError) && !(err instanceof FileReadError)) throw err;
    io.err(`toolmem eval: ${err.message}`);
    return EXIT.unreadable;
  }
  const { dataset } = loaded;
  const tools = [...new Set(data.map((p) => p.toolId))].sort();
  const stored = opts.memory ? await loadMemoryEval(opts.memory, data, io, opts.test !== undefined ? { maxTest: opts.test } : {}) : null;
  if (typeof stored === 'number') return stored;
  if (stored) io.err(`toolmem eval: ${stored.summary}`);
  const unknown = (opts.pairs ?? []).flat().filter((t) => !tools.includes(t));
  if (unknown.length > 0) {
    io.err(`toolmem eval: --pairs: unknown tool(s) ${[...new Set(unknown)].join(', ')}. Tools in the data: ${tools.join(', ')}.`);
    return EXIT.usage;
  }
  const llm = opts.methods.some(isLlmMethod);
  // Ctrl-C stops a run only when a model is asked: the offline methods finish in seconds.
  if (llm) stop.arm();
  const methodOptions: MethodOptions = {
    cut: opts.cut,
    ...(opts.k !== undefined ? { k: opts.k } : {}),
    ...(opts.similarity ? { similarity: opts.similarity } : {}),
  };
  const progress = llmProgress((line) => io.err(line));
  let outcome: EvaluationOutcome;
  try {
    outcome = await runEvaluation({
      label: opts.data,
      data,
      scale: dataset.scale,
      preset: dataset.preset,
      methods: opts.methods,
      seeds: opts.seeds,
      train: opts.train,
      test: opts.test,
      toolPairs: opts.pairs ?? allToolPairs(tools),
      options: methodOptions,
      llmMaxTest: opts.llmTasks,
      ...(stored ? { stored: { split: stored.split, snapshot: async () => stored.memory } } : {}),
      // The offline Node embedder is loaded only when needed; a stored memory's own model embeds the prompts too.
      embedder: markedEmbedder(async () => stored?.embedder ?? (await import('../../model-host/transformers-embedder')).createTransformersEmbedder()),
      optionalVectors: opts.vectors,
      onVectorsSkipped: (err) => io.err(`toolmem eval: note: prompts not embedded (${err.message}); continuing with lexical features.`),
      engine: () => openCliEngine(opts.llm!, stop.signal).catch((err: Error) => Promise.reject(new StepError('engine', err))) as Promise<LlmEngine>,
      tools: async () => promptToolsOf(tools, loaded.summary.datasetDefaults.modality),
      signal: stop.signal,
      whenStopped: 'partial',
      ablation: opts.ablation,
      // Model-call progress only: the offline steps are quick and print nothing.
      ...(llm ? { onProgress: (p) => void (p.calls && progress(p)) } : {}),
    });
  } catch (err) {
    return failed(err, opts, io);
  }
  return printOutcome(outcome, opts, io, { dataset, memorySummary: stored?.summary });
}

/** The exit code and message of a failed evaluation; errors of no known step are thrown on. */
function failed(err: unknown, opts: ParsedArgs, io: Io): number {
  if (err instanceof TooFewTasksError) {
    io.err(`toolmem eval: ${err.message}`);
    return EXIT.unreadable;
  }
  if (err instanceof SplitSizeError) {
    io.err(`toolmem eval: ${err.message}.\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (err instanceof StepError) {
    const what = err.step === 'embed' ? 'cannot embed the prompts' : `cannot use the model ${formatEngineSpec(opts.llm!)}`;
    io.err(`toolmem eval: ${what}: ${err.message}`);
    return EXIT.unreadable;
  }
  if (err instanceof ToolMemError && opts.methods.some(isLlmMethod)) {
    io.err(`toolmem eval: the model server failed: ${err.message}`);
    return EXIT.unreadable;
  }
  throw err;
}

export const evalCommand: Command = {
  name: 'eval',
  summary: 'evaluate score predictors and tool selection on a data file',
  usage: USAGE,
  run: (args, io) => runEval(args, io),
};
