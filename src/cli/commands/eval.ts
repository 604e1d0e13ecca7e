/**
 * `toolmem eval`: reads a data file, splits its tasks with seeded shuffles (all tools of a task on
 * the same side), fits each offline method on the training tasks and scores its predictions on the
 * test tasks. Prints tables; `--json OUT` writes the summary (means over seeds) in a fixed shape.
 * Exit codes: 0 done, 1 usage error, 2 the data file could not be read or has nothing to evaluate.
 */
import { writeFile } from 'node:fs/promises';
import { ToolMemError } from '../../core/errors';
import {
  allToolPairs,
  evaluate,
  formatReport,
  groundTruth,
  splitSizes,
  table,
  toJsonReport,
  topKAblation,
  type EvalReport,
  type ScoredPair,
} from '../../core/eval';
import {
  createPredictor,
  isMethodId,
  methodNeeds,
  NEIGHBOUR_METHODS,
  OFFLINE_METHODS,
  SIMILARITY_KINDS,
  type MethodId,
  type MethodOptions,
  type NeighbourCut,
  type SimilarityKind,
} from '../../core/predict';
import { EXIT, parseOrExit, strictArgs, UsageError, type Command, type Io } from '../io';
import { DATA_OPTIONS, DATA_USAGE, dataArgs, loadData, type DataArgs } from '../load-data';
import { FileReadError } from '../node-files';
import { quote } from '../../core/text/quote';

/** Methods the CLI evaluates: everything that needs no LLM. */
const CLI_METHODS: readonly MethodId[] = [...OFFLINE_METHODS, 'memory'];

const USAGE = `Usage: toolmem eval --data FILE [options]

Evaluates score predictors on a data file: seeded train/test splits by task, MAE / RMSE /
Pearson per tool, pair accuracy (a predicted tie counts as wrong), the always-stronger,
random and oracle baselines, and the share of the oracle's gain each method captures.

Options:
${DATA_USAGE}
  --train N            training tasks (default: the preset's protocol split —
                       genai-bench 200/800, biggen 211/485 — else half of the tasks)
  --test N             test tasks (default: the preset's split, else the rest)
  --seeds K|A-B        number of seeds, 1…K (default 5), or a range A-B (e.g. 6-15, the held-out
                       seeds of the benchmarks); results are mean ± sd over seeds
  --methods M,...      ${CLI_METHODS.join(', ')}
                       (default: all of them — every method that needs no LLM; memory
                       induces an evidence-cluster memory on each seed's training split)
  --pairs A:B,...      tool pairs for the pair metrics (default: every pair of tools)
  --k N                neighbours for knn and knn-difficulty (default 24), entries per
                       level for memory (default 12)
  --cut fixed|knee     neighbours: the k nearest, or cut at the knee of the similarity curve
  --similarity KIND    neighbour similarity: ${SIMILARITY_KINDS.join(' | ')} (default tfidf)
  --no-vectors         do not embed prompts (ensemble then uses lexical features only;
                       memory, which needs them, leaves the default methods)
  --ablation           also print the top-k ablation (k = 0…24, fixed vs knee) of the kNN methods
  --json OUT           write the summary as JSON to OUT ('-' for stdout instead of the tables)
  -h, --help           show this help

Exit codes: 0 done, 1 usage error, 2 the data could not be read or has nothing to evaluate.`;

interface ParsedArgs extends DataArgs {
  train?: number;
  test?: number;
  seeds: number[];
  methods: MethodId[];
  pairs?: [string, string][];
  k?: number;
  cut: NeighbourCut;
  similarity?: SimilarityKind;
  vectors: boolean;
  ablation: boolean;
  json?: string;
  help: boolean;
}

function positiveInt(name: string, text: string | undefined, min = 1): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}, got '${text}'.`);
  return n;
}

/** `K` → seeds 1…K; `A-B` → seeds A…B (A ≤ B, whole numbers ≥ 1, at most 1,000 seeds). */
export function parseSeeds(text: string | undefined): number[] {
  if (text === undefined) return [1, 2, 3, 4, 5];
  const t = text.trim();
  const range = /^(\d+)-(\d+)$/.exec(t);
  const [from, to] = range ? [Number(range[1]), Number(range[2])] : /^\d+$/.test(t) ? [1, Number(t)] : [NaN, NaN];
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 1 || to < from || to - from >= 1000) {
    throw new UsageError(`--seeds must be a count K (seeds 1…K) or a range A-B with 1 ≤ A ≤ B (e.g. 6-15), at most 1,000 seeds; got ${quote(text)}.`);
  }
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function parse(args: string[]): ParsedArgs {
  const values = strictArgs(args, {
    ...DATA_OPTIONS,
    train: { type: 'string' },
    test: { type: 'string' },
    seeds: { type: 'string' },
    methods: { type: 'string' },
    pairs: { type: 'string' },
    k: { type: 'string' },
    cut: { type: 'string' },
    similarity: { type: 'string' },
    'no-vectors': { type: 'boolean', default: false },
    ablation: { type: 'boolean', default: false },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const help = values.help === true;
  const noVectors = values['no-vectors'] === true;
  // memory needs prompt vectors: without them it leaves the defaults, and naming it is an error.
  const defaults = noVectors ? OFFLINE_METHODS : CLI_METHODS;
  const methods = (values.methods ?? defaults.join(','))
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  for (const m of methods) {
    if (!isMethodId(m)) throw new UsageError(`Unknown method '${m}'. Methods: ${CLI_METHODS.join(', ')}.`);
    if (!CLI_METHODS.includes(m)) throw new UsageError(`Method '${m}' needs an LLM; the CLI evaluates the methods that need none (${CLI_METHODS.join(', ')}).`);
  }
  if (methods.length === 0) throw new UsageError('--methods: give at least one method.');
  if (noVectors && methods.includes('memory')) throw new UsageError("Method 'memory' needs prompt vectors; drop --no-vectors.");
  let pairs: [string, string][] | undefined;
  if (values.pairs !== undefined) {
    pairs = values.pairs
      .split(',')
      .filter((p) => p.trim() !== '')
      .map((p) => {
        const parts = p.split(':').map((s) => s.trim());
        if (parts.length !== 2 || !parts[0] || !parts[1] || parts[0] === parts[1]) throw new UsageError(`--pairs: '${p}' is not A:B with two different tools.`);
        return [parts[0], parts[1]] as [string, string];
      });
    if (pairs.length === 0) throw new UsageError('--pairs: give at least one pair A:B.');
  }
  const cut = values.cut ?? 'fixed';
  if (cut !== 'fixed' && cut !== 'knee') throw new UsageError(`--cut must be 'fixed' or 'knee', got '${cut}'.`);
  if (values.similarity !== undefined && !(SIMILARITY_KINDS as readonly string[]).includes(values.similarity)) {
    throw new UsageError(`--similarity must be one of ${SIMILARITY_KINDS.join(', ')}.`);
  }
  const out: ParsedArgs = {
    ...dataArgs(values, !help),
    seeds: parseSeeds(values.seeds),
    methods: [...new Set(methods)] as MethodId[],
    cut,
    vectors: !noVectors,
    ablation: values.ablation === true,
    help,
  };
  const train = positiveInt('train', values.train);
  const test = positiveInt('test', values.test);
  const k = positiveInt('k', values.k, 0);
  if (train !== undefined) out.train = train;
  if (test !== undefined) out.test = test;
  if (k !== undefined) out.k = k;
  if (pairs) out.pairs = pairs;
  if (values.similarity !== undefined) out.similarity = values.similarity as SimilarityKind;
  if (values.json !== undefined) out.json = values.json;
  return out;
}

/** Unit prompt vectors by task id, from the offline Node embedder (loaded only when needed). */
async function embedPrompts(data: readonly ScoredPair[]): Promise<Map<string, Float32Array>> {
  const { createTransformersEmbedder } = await import('../../node/transformers-embedder');
  const embedder = createTransformersEmbedder();
  const prompts = new Map<string, string>();
  for (const p of data) if (!prompts.has(p.taskId)) prompts.set(p.taskId, p.prompt);
  const ids = [...prompts.keys()];
  const batch = await embedder.embed(ids.map((id) => prompts.get(id)!));
  return new Map(ids.map((id, i) => [id, batch.data.slice(i * batch.dim, (i + 1) * batch.dim)]));
}

async function run(args: string[], io: Io): Promise<number> {
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

  let sizes;
  try {
    sizes = splitSizes(taskCount, { preset: dataset.preset, train: opts.train, test: opts.test });
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
      vectors = await embedPrompts(data);
    } catch (err) {
      if (needs.includes(true)) {
        io.err(`toolmem eval: cannot embed the prompts: ${(err as Error).message}`);
        return EXIT.unreadable;
      }
      io.err(`toolmem eval: note: prompts not embedded (${(err as Error).message}); continuing with lexical features.`);
    }
  }

  const seeds = opts.seeds;
  const report: EvalReport = await evaluate({
    data,
    scale: dataset.scale,
    sizes,
    seeds,
    toolPairs,
    vectors,
    methods: opts.methods.map((id) => ({ id, create: () => createPredictor(id, methodOptions) })),
  });
  const json = toJsonReport(report);
  if (opts.json && opts.json !== '-') {
    try {
      await writeFile(opts.json, `${JSON.stringify(json, null, 2)}\n`);
    } catch (err) {
      io.err(`toolmem eval: cannot write ${opts.json}: ${(err as Error).message}`);
      return EXIT.unreadable;
    }
  }
  if (opts.json === '-') {
    io.out(JSON.stringify(json, null, 2));
    return EXIT.ok;
  }
  io.out(`Dataset ${dataset.name} (${dataset.preset}), scale ${dataset.scale.min}–${dataset.scale.max}, ground truth: ${policyText(dataset.raterPolicy)}`);
  io.out(formatReport(report));
  if (opts.ablation) {
    const knnMethods = opts.methods.filter((m) => NEIGHBOUR_METHODS.includes(m));
    if (knnMethods.length === 0) io.out('\n(no neighbour method selected: no top-k ablation)');
    else {
      const rows = await topKAblation({
        data,
        scale: dataset.scale,
        sizes,
        seeds,
        toolPairs,
        vectors,
        methods: knnMethods,
        ks: Array.from({ length: 25 }, (_, k) => k),
        make: (m, k, cut) => createPredictor(m as MethodId, { ...methodOptions, k, cut }),
      });
      io.out('\nTop-k ablation (mean over seeds)');
      io.out(
        table(
          ['method', 'cut', 'k', 'MAE', 'RMSE', 'Pearson', 'pair acc'],
          rows.map((r) => [r.method, r.cut, String(r.k), r.mae.toFixed(3), r.rmse.toFixed(3), Number.isFinite(r.pearson) ? r.pearson.toFixed(3) : '—', r.pairAcc.toFixed(3)]),
        ),
      );
    }
  }
  if (opts.json) io.out(`\nJSON summary written to ${opts.json}`);
  return EXIT.ok;
}

function policyText(p: { kind: string; rater?: string }): string {
  return p.kind === 'rater' ? `rater ${p.rater}` : `${p.kind} of the raters`;
}

export const evalCommand: Command = {
  name: 'eval',
  summary: 'evaluate score predictors and tool selection on a data file',
  usage: USAGE,
  run,
};
