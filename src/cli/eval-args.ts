/**
 * The arguments of `toolmem eval`: its usage text and the parser that checks them (which methods,
 * seeds, split sizes and options), before any data is read. src/cli/commands/eval.ts runs them.
 */
import { DEFAULT_LLM_MAX_TEST } from '../app/evaluate/methods';
import {
  isLlmMethod,
  isMethodId,
  LLM_METHODS,
  MEMORY_METHODS,
  methodNeeds,
  NUMERIC_METHODS,
  OFFLINE_METHODS,
  SIMILARITY_KINDS,
  type MethodId,
  type NeighbourCut,
  type SimilarityKind,
} from '../core/predict';
import type { EngineSpec } from '../core/llm/spec';
import { quote } from '../core/text/quote';
import { checkLlmSpec, parseLlmTasks } from './eval-llm';
import { strictArgs, UsageError, wholeNumberArg } from './io';
import { DATA_OPTIONS, DATA_USAGE, dataArgs, type DataArgs } from './load-data';

/** Methods the CLI evaluates without a model: everything that needs no LLM (the registry's order). */
const CLI_METHODS = NUMERIC_METHODS;
/** Default methods with --llm: the paper's three LLM predictors. */
const PAPER_LLM_METHODS: readonly MethodId[] = ['generic-llm', 'fewshot-llm', 'toolmem-llm'];

export const USAGE = `Usage: toolmem eval --data FILE [options]

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
  --methods M,...      without a model: ${CLI_METHODS.join(', ')}
                       (default: all of them); with --llm also ${LLM_METHODS.join(', ')}
                       (default with --llm: ${PAPER_LLM_METHODS.join(', ')}). memory and toolmem-llm
                       read the capability analysis (facets, their effects per tool, the
                       entries) built from each seed's training split alone
  --llm SPEC           run the LLM methods with this model: openai:URL#MODEL, an OpenAI-compatible
                       server (llama.cpp, Ollama, LM Studio, vLLM); an API key is read from
                       TOOLMEM_LLM_API_KEY when set. Progress (calls/s, time left) goes to stderr;
                       Ctrl-C stops and prints what was finished, marked partial (exit code 130)
  --memory FILE        evaluate this memory file (toolmem build-memory --out, or exported from
                       the app) with memory / toolmem-llm / hybrid: one seed, its own split (its
                       training tasks; the test tasks are those it never saw), its entries and
                       fitted model
  --llm-tasks N|all    test tasks per split the LLM methods score (default ${DEFAULT_LLM_MAX_TEST}; the first N
                       of each seeded split, the app's rule); all = every test task
  --pairs A:B,...      tool pairs for the pair metrics (default: every pair of tools)
  --k N                neighbours for knn and knn-difficulty (default 24); examples (fewshot-llm)
                       and entries per level (toolmem-llm, hybrid) in the LLM prompts (default 12).
                       The capability memory has no k: every facet that applies to a task counts
  --cut fixed|knee     neighbours: the k nearest, or cut at the knee of the similarity curve
  --similarity KIND    neighbour similarity: ${SIMILARITY_KINDS.join(' | ')} (default tfidf)
  --no-vectors         do not embed prompts (ensemble then uses lexical features only; memory,
                       whose theme facets need them, leaves the default methods; toolmem-llm,
                       hybrid and --memory refuse it)
  --ablation           also print the top-k ablation (k = 0…24, fixed vs knee) of the kNN methods
  --json OUT           write the summary as JSON to OUT ('-' for stdout instead of the tables)
  -h, --help           show this help

Exit codes: 0 done, 1 usage error, 2 the data could not be read or has nothing to evaluate (or the
model server failed), 130 stopped by Ctrl-C (the finished part printed, marked partial).`;

export interface ParsedArgs extends DataArgs {
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
  llm?: EngineSpec;
  llmTasks: number;
  memory?: string;
  help: boolean;
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

export function parse(args: string[]): ParsedArgs {
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
    llm: { type: 'string' },
    'llm-tasks': { type: 'string' },
    memory: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const help = values.help === true;
  const noVectors = values['no-vectors'] === true;
  // memory needs prompt vectors: without them it leaves the defaults, and naming it is an error.
  const llm = values.llm !== undefined ? checkLlmSpec(values.llm) : undefined;
  const memoryDefaults = llm ? MEMORY_METHODS : MEMORY_METHODS.filter((m) => !isLlmMethod(m));
  const defaults = values.memory !== undefined ? memoryDefaults : llm ? PAPER_LLM_METHODS : noVectors ? OFFLINE_METHODS : CLI_METHODS;
  const methods = parseMethods(values.methods ?? defaults.join(','), {
    llm: !!llm,
    memory: values.memory !== undefined,
    noVectors,
    seedsOrTrain: values.seeds !== undefined || values.train !== undefined,
  });
  if (values['llm-tasks'] !== undefined && !methods.some(isLlmMethod)) throw new UsageError('--llm-tasks applies to the LLM methods; none is selected.');
  if (methods.length === 0) throw new UsageError('--methods: give at least one method.');
  if (noVectors && methods.includes('memory')) throw new UsageError("Method 'memory' needs prompt vectors; drop --no-vectors.");
  // The LLM methods that always retrieve by prompt vectors (toolmem-llm, hybrid).
  const vectorLlm = methods.filter((m) => isLlmMethod(m) && methodNeeds(m).vectors === true);
  if (noVectors && vectorLlm.length) throw new UsageError(`Method '${vectorLlm[0]}' needs prompt vectors; drop --no-vectors.`);
  const pairs = values.pairs !== undefined ? parsePairs(values.pairs) : undefined;
  const cut = values.cut ?? 'fixed';
  if (cut !== 'fixed' && cut !== 'knee') throw new UsageError(`--cut must be 'fixed' or 'knee', got ${quote(cut)}.`);
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
    llmTasks: parseLlmTasks(values['llm-tasks'], DEFAULT_LLM_MAX_TEST),
    help,
  };
  if (llm) out.llm = llm;
  if (values.memory !== undefined) out.memory = values.memory;
  const train = wholeNumberArg('train', values.train);
  const test = wholeNumberArg('test', values.test);
  const k = wholeNumberArg('k', values.k, 0);
  if (train !== undefined) out.train = train;
  if (test !== undefined) out.test = test;
  if (k !== undefined) out.k = k;
  if (pairs) out.pairs = pairs;
  if (values.similarity !== undefined) out.similarity = values.similarity as SimilarityKind;
  if (values.json !== undefined) out.json = values.json;
  return out;
}

/** `--methods` (or the defaults) checked against the other options. */
function parseMethods(text: string, opts: { llm: boolean; memory: boolean; noVectors: boolean; seedsOrTrain: boolean }): string[] {
  const methods = text
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  for (const m of methods) {
    if (!isMethodId(m)) throw new UsageError(`Unknown method ${quote(m)}. Methods: ${[...CLI_METHODS, ...LLM_METHODS].join(', ')}.`);
    if (isLlmMethod(m) && !opts.llm)
      throw new UsageError(`Method ${quote(m)} needs a language model: add --llm openai:URL#MODEL (e.g. openai:http://localhost:11434/v1#qwen2.5:7b).`);
  }
  if (opts.memory) {
    if (!methods.some((m) => isMethodId(m) && MEMORY_METHODS.includes(m)))
      throw new UsageError(`--memory is read by ${MEMORY_METHODS.join(', ')}; none is selected.`);
    if (opts.seedsOrTrain) throw new UsageError('--memory: a memory has one split, its own (its training tasks, one seed); leave out --seeds and --train.');
    if (opts.noVectors) throw new UsageError('--memory: its entries are found by prompt vectors; drop --no-vectors.');
  }
  return methods;
}

/** `--pairs A:B,C:D`. */
function parsePairs(text: string): [string, string][] {
  const pairs = text
    .split(',')
    .filter((p) => p.trim() !== '')
    .map((p) => {
      const parts = p.split(':').map((s) => s.trim());
      if (parts.length !== 2 || !parts[0] || !parts[1] || parts[0] === parts[1])
        throw new UsageError(`--pairs: ${quote(p)} is not A:B with two different tools.`);
      return [parts[0], parts[1]] as [string, string];
    });
  if (pairs.length === 0) throw new UsageError('--pairs: give at least one pair A:B.');
  return pairs;
}
