/**
 * `toolmem eval`: reads a data file, splits its tasks with seeded shuffles (all tools of a task on
 * the same side), fits each offline method on the training tasks and scores its predictions on the
 * test tasks. Prints tables; `--json OUT` writes the summary (means over seeds) in a fixed shape.
 * With `--llm openai:URL#MODEL` the LLM methods run too, through the same use case as the app's
 * predictors worker (src/app/evaluate-methods.ts): same split, seeds and engine give the same numbers.
 * Exit codes: 0 done, 1 usage error, 2 the data file could not be read or has nothing to evaluate,
 * 130 stopped by Ctrl-C (what was finished is printed, marked partial).
 */
import { writeFile } from 'node:fs/promises';
import { evalIntervals, neighbourAblation, promptVectors } from '../../app/eval-run';
import { ToolMemError } from '../../core/errors';
import { allToolPairs, groundTruth, splitSizes, type ScoredPair } from '../../core/eval';
import { isLlmMethod, methodNeeds, NEIGHBOUR_METHODS, type MethodOptions } from '../../core/predict';
import { scaleMeaningOption } from '../../core/import/presets/scale-meanings';
import { EXIT, parseOrExit, type Command, type Io } from '../io';
import { loadData } from '../load-data';
import { FileReadError } from '../node-files';
import { evaluateOrStop, promptToolsOf } from '../eval-llm';
import { EXIT_INTERRUPTED, sigintInterrupt } from '../llm-progress';
import { loadMemoryEval } from '../eval-memory-arg';
import { parse, USAGE } from '../eval-args';
import { ablationText, evalJson, printEvalText } from '../eval-report';

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
  const taskCount = new Set(data.map((p) => p.taskId)).size;
  if (taskCount < 2 || tools.length === 0) {
    io.err(`toolmem eval: ${opts.data} has ${taskCount} task(s) with a ground-truth score under the rater policy; at least 2 are needed.`);
    return EXIT.unreadable;
  }

  const stored = opts.memory ? await loadMemoryEval(opts.memory, data, io, opts.test !== undefined ? { maxTest: opts.test } : {}) : null;
  if (typeof stored === 'number') return stored;
  if (stored) io.err(`toolmem eval: ${stored.summary}`);
  let sizes;
  try {
    sizes = stored ? { train: stored.split.train.length, test: stored.split.test.length } : splitSizes(taskCount, { preset: dataset.preset, train: opts.train, test: opts.test });
  } catch (err) {
    io.err(`toolmem eval: ${(err as Error).message} (the data has ${taskCount} tasks).\n\n${USAGE}`);
    return EXIT.usage;
  }
  const unknown = (opts.pairs ?? []).flat().filter((t) => !tools.includes(t));
  if (unknown.length > 0) {
    io.err(`toolmem eval: --pairs: unknown tool(s) ${[...new Set(unknown)].join(', ')}. Tools in the data: ${tools.join(', ')}.`);
    return EXIT.usage;
  }
  const toolPairs = opts.pairs ?? allToolPairs(tools);

  const methodOptions: MethodOptions = { cut: opts.cut };
  if (opts.k !== undefined) methodOptions.k = opts.k;
  if (opts.similarity) methodOptions.similarity = opts.similarity;
  const needs = opts.methods.map((m) => methodNeeds(m, methodOptions).vectors);
  let vectors: Map<string, Float32Array> | undefined;
  if (needs.includes(true) || (opts.vectors && needs.includes('optional'))) {
    try {
      // The offline Node embedder is loaded only when needed; a stored memory's own model embeds the prompts too.
      vectors = await promptVectors(stored?.embedder ?? (await import('../../model-host/transformers-embedder')).createTransformersEmbedder(), data);
    } catch (err) {
      if (needs.includes(true)) {
        io.err(`toolmem eval: cannot embed the prompts: ${(err as Error).message}`);
        return EXIT.unreadable;
      }
      io.err(`toolmem eval: note: prompts not embedded (${(err as Error).message}); continuing with lexical features.`);
    }
  }

  const seeds = stored ? [stored.split.seed] : opts.seeds;
  const fixed = stored ? { fixedSplit: stored.split, memory: stored.memory } : {};
  const outcome = await evaluateOrStop(opts, io, {
    ...fixed,
    data, scale: dataset.scale, sizes, seeds, toolPairs, methods: opts.methods, options: methodOptions, llmMaxTest: opts.llmTasks,
    tools: promptToolsOf(tools, loaded.summary.datasetDefaults.modality),
    ...(vectors ? { vectors } : {}),
    ...scaleMeaningOption(dataset.preset),
  }, stop);
  if (typeof outcome === 'number') return outcome;
  const { report, partial } = outcome;
  // Paired-bootstrap 95% intervals, the same function as the app's predictors worker (not on partial
  // results); with an LLM run a Ctrl-C while they are computed skips them.
  const signal = opts.methods.some(isLlmMethod) ? stop.signal : undefined;
  const intervals = partial ? null : await evalIntervals(report, { ...(signal ? { signal } : {}), skipOnStop: true });
  if (!partial && !intervals) io.err('toolmem eval: Ctrl-C during the bootstrap intervals: printing the complete results without them.');
  const json = evalJson(report, intervals, partial);
  if (opts.json && opts.json !== '-') {
    try {
      await writeFile(opts.json, `${JSON.stringify(json, null, 2)}\n`);
    } catch (err) {
      io.err(`toolmem eval: cannot write ${opts.json}: ${(err as Error).message}`);
      return EXIT.unreadable;
    }
  }
  const exit = partial ? EXIT_INTERRUPTED : EXIT.ok;
  if (opts.json === '-') {
    io.out(JSON.stringify(json, null, 2));
    return exit;
  }
  printEvalText(io, { dataset, report, intervals, partial, memorySummary: stored?.summary });
  if (partial) {
    if (opts.json) io.out(`\nPartial JSON summary written to ${opts.json}`);
    return exit;
  }
  if (opts.ablation) {
    const knnMethods = opts.methods.filter((m) => NEIGHBOUR_METHODS.includes(m));
    if (knnMethods.length === 0) io.out('\n(no neighbour method selected: no top-k ablation)');
    else io.out(ablationText(await neighbourAblation({ data, scale: dataset.scale, sizes, seeds, toolPairs, vectors, ...(stored ? { fixedSplit: stored.split } : {}), methods: knnMethods, options: methodOptions })));
  }
  if (opts.json) io.out(`\nJSON summary written to ${opts.json}`);
  return EXIT.ok;
}

export const evalCommand: Command = {
  name: 'eval',
  summary: 'evaluate score predictors and tool selection on a data file',
  usage: USAGE,
  run: (args, io) => runEval(args, io),
};
