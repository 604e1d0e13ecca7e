/**
 * The evaluation harness: seeded splits by task, every method fitted on the training tasks and
 * asked for every (test task, tool) with a true score; regression metrics per tool, pair metrics,
 * selection metrics and the baselines, per seed and as mean ± sd over seeds.
 *
 * Honesty rules enforced here: predictors see only training examples (with all their raters) and
 * the test tasks' prompts / vectors — never a test score; splits are by task id.
 */
import { dict } from '../data-keys';
import { llmStatsOf, type AnyPredictor, type LlmPredictStats, type PredictTask, type TrainingExample } from '../predict/types';
import { mean } from '../predict/stats';
import type { ScoreScale } from '../types';
import { trainingExample, type ScoredPair } from './ground-truth';
import { alwaysStrongerAccuracy, meanSd, pairMetrics, regressionMetrics, type PairMetrics, type RegressionMetrics } from './metrics';
import { selectionMetrics, type SelectionMetrics } from './selection';
import { splitByTask, type SplitSizes, type TaskSplit } from './split';

export interface EvalMethod {
  id: string;
  /** A fresh predictor (called once per seed). */
  create(): AnyPredictor;
  /**
   * Score this method on the first N test tasks of each split only (the split order is a seeded
   * shuffle, so a random subset) — for methods that cost a model call per (task, tool).
   */
  maxTestTasks?: number;
}

export interface EvaluateInput {
  /** Ground truth of every (task, tool), e.g. from `groundTruth`. */
  data: readonly ScoredPair[];
  scale: ScoreScale;
  sizes: SplitSizes;
  seeds: readonly number[];
  methods: readonly EvalMethod[];
  /** Tool pairs for the pair metrics (default: every pair of tools, in id order). */
  toolPairs?: readonly (readonly [string, string])[];
  /** Dense prompt vectors by task id (attached to training examples and test tasks). */
  vectors?: ReadonlyMap<string, Float32Array>;
  signal?: AbortSignal;
  onProgress?(p: { seed: number; method: string; done: number; total: number }): void;
  /** After each method of a seed, the seed's results so far (callers keep them as partial results when cancelled). */
  onMethodDone?(seed: SeedResult): void;
  /** Keep every (predicted, true) pair of the first seed, for predicted-vs-true charts. */
  keepPredictions?: boolean;
  /**
   * One given split instead of the seeded ones — a stored memory's own: its training tasks and
   * tasks it never saw (eval/memory-split.ts). Callers pass one seed; `sizes` should match it.
   */
  fixedSplit?: { readonly train: readonly string[]; readonly test: readonly string[] };
}

export interface NamedPairMetrics extends PairMetrics {
  a: string;
  b: string;
}

export interface MethodSeedResult {
  tools: Record<string, RegressionMetrics>;
  /** Mean over tools. */
  mean: { mae: number; rmse: number; pearson: number; spearman: number };
  pairs: NamedPairMetrics[];
  selection: SelectionMetrics;
  predictions: number;
  /** Predictions that fell outside the scale and were clamped. */
  clamped: number;
  fitMs: number;
  predictMs: number;
  /** Test tasks this method was scored on (fewer than the split's when `maxTestTasks` cut it). */
  testTasks: number;
  /** LLM methods: calls, parse failures (tool-mean fallbacks), off-scale answers. */
  llm?: LlmPredictStats;
  /** First seed only, when asked (`keepPredictions`). */
  points?: { taskId: string; toolId: string; predicted: number; actual: number }[];
}

/**
 * Every method's predictions on one seed's test tasks, compact for the bootstrap
 * (core/eval/bootstrap.ts): row-major task × tool typed arrays, NaN where there is no value.
 */
export interface PredictionMatrix {
  /** The split's test tasks, in scoring order (rows). */
  taskIds: string[];
  /** The report's tools (columns). */
  tools: string[];
  truth: Float64Array;
  /** Per method id. */
  predicted: Map<string, Float64Array>;
  /** Per method id: tasks it was scored on, a prefix of `taskIds` (`maxTestTasks`). */
  scored: Map<string, number>;
}

export interface SeedResult {
  seed: number;
  split: TaskSplit;
  tools: string[];
  methods: Record<string, MethodSeedResult>;
  matrix: PredictionMatrix;
  baselines: {
    alwaysStronger: { a: string; b: string; acc: number; nUnequal: number }[];
    /** Selecting the tool with the best training mean on every task. */
    alwaysStrongerSelection: SelectionMetrics;
    trainMean: Record<string, number>;
  };
}

export interface Summary {
  mean: number;
  sd: number;
}

export interface EvalReport {
  seeds: SeedResult[];
  tools: string[];
  toolPairs: [string, string][];
  methods: string[];
  sizes: SplitSizes;
}

interface TaskData {
  taskId: string;
  prompt: string;
  categories: string[];
  rubric?: string;
  truth: Map<string, number>;
}

export function allToolPairs(tools: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < tools.length; i++) for (let j = i + 1; j < tools.length; j++) out.push([tools[i]!, tools[j]!]);
  return out;
}

function groupTasks(data: readonly ScoredPair[]): Map<string, TaskData> {
  const tasks = new Map<string, TaskData>();
  for (const p of data) {
    let t = tasks.get(p.taskId);
    if (!t)
      tasks.set(p.taskId, (t = { taskId: p.taskId, prompt: p.prompt, categories: p.categories, ...(p.rubric ? { rubric: p.rubric } : {}), truth: new Map() }));
    t.truth.set(p.toolId, p.score);
  }
  return tasks;
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

export async function evaluate(input: EvaluateInput): Promise<EvalReport> {
  const tasks = groupTasks(input.data);
  const tools = [...new Set(input.data.map((p) => p.toolId))].sort();
  const toolPairs = (input.toolPairs ?? allToolPairs(tools)).map(([a, b]) => [a, b] as [string, string]);
  const seeds: SeedResult[] = [];
  for (const seed of input.seeds) {
    const split = seedSplit(input, tasks, seed);
    const examples = trainingExamples(input, new Set(split.train));
    const testTasks = split.test.map((id) => tasks.get(id)!);
    const baselines = seedBaselines(examples, testTasks, tools, toolPairs);
    const methods = dict<MethodSeedResult>(); // method ids come from the caller: null prototype
    const matrix = emptyMatrix(testTasks, tools);
    for (const method of input.methods) {
      throwIfAborted(input.signal);
      const { result, scored, pred } = await runMethod(input, method, seed, examples, testTasks);
      fillMatrix(matrix, method.id, scored, pred);
      methods[method.id] = { ...score(scored, pred, tools, toolPairs), ...result };
      if (input.keepPredictions && seed === input.seeds[0]) {
        methods[method.id]!.points = scored.flatMap((t) =>
          [...t.truth].map(([toolId, actual]) => ({ taskId: t.taskId, toolId, predicted: pred.get(t.taskId)!.get(toolId)!, actual })),
        );
      }
      input.onMethodDone?.({ seed, split, tools, methods: Object.assign(dict<MethodSeedResult>(), methods), matrix, baselines });
    }
    seeds.push({ seed, split, tools, methods, matrix, baselines });
  }
  return { seeds, tools, toolPairs, methods: input.methods.map((m) => m.id), sizes: input.sizes };
}

/** The seed's split by task, or the caller's fixed one restricted to the tasks the data holds. */
function seedSplit(input: EvaluateInput, tasks: ReadonlyMap<string, TaskData>, seed: number): TaskSplit {
  const fixed = input.fixedSplit;
  return fixed
    ? { seed, train: fixed.train.filter((id) => tasks.has(id)), test: fixed.test.filter((id) => tasks.has(id)) }
    : splitByTask(tasks.keys(), input.sizes, seed);
}

/** Every rated pair of a training task (with its raters and vector); nothing of a test task reaches a predictor's fit. */
function trainingExamples(input: EvaluateInput, trainSet: ReadonlySet<string>): TrainingExample[] {
  const examples: TrainingExample[] = [];
  for (const p of input.data) if (trainSet.has(p.taskId)) examples.push(trainingExample(p, input.vectors));
  return examples;
}

/** The baselines every method is compared with: each tool's training mean, used to pick a tool on every test task. */
function seedBaselines(
  examples: readonly TrainingExample[],
  testTasks: readonly TaskData[],
  tools: readonly string[],
  toolPairs: readonly [string, string][],
): SeedResult['baselines'] {
  // Keyed by tool ids (data): null prototype (core/data-keys); `trainMean[c]` of an absent tool is undefined.
  const trainMean = dict<number>();
  for (const tool of tools) {
    trainMean[tool] = mean(examples.filter((e) => e.toolId === tool).map((e) => e.score));
  }
  const alwaysStronger = toolPairs.map(([a, b]) => {
    const obs = testTasks.filter((t) => t.truth.has(a) && t.truth.has(b)).map((t) => ({ trueA: t.truth.get(a)!, trueB: t.truth.get(b)! }));
    return { a, b, ...alwaysStrongerAccuracy(trainMean[a] ?? NaN, trainMean[b] ?? NaN, obs) };
  });
  const alwaysStrongerSelection = selectionMetrics(
    testTasks.map((t) => {
      const cands = [...t.truth.keys()].sort();
      return { truth: cands.map((c) => t.truth.get(c)!), predicted: cands.map((c) => trainMean[c] ?? -Infinity) };
    }),
  );
  return { alwaysStronger, alwaysStrongerSelection, trainMean };
}

type RunFigures = Pick<MethodSeedResult, 'clamped' | 'predictions' | 'fitMs' | 'predictMs' | 'testTasks' | 'llm'>;

/**
 * Fits a fresh predictor of `method` on the training examples and asks it for every (test task, tool)
 * with a true score, tools in id order; the test tasks' scores never reach it.
 */
async function runMethod(
  input: EvaluateInput,
  method: EvalMethod,
  seed: number,
  examples: TrainingExample[],
  testTasks: readonly TaskData[],
): Promise<{ result: RunFigures; scored: readonly TaskData[]; pred: Map<string, Map<string, number>> }> {
  const predictor = method.create();
  const t0 = Date.now();
  await predictor.fit({ scale: input.scale, examples }, { signal: input.signal });
  const fitMs = Date.now() - t0;
  const pred = new Map<string, Map<string, number>>();
  let clamped = 0;
  let count = 0;
  const t1 = Date.now();
  const scored = method.maxTestTasks !== undefined ? testTasks.slice(0, method.maxTestTasks) : testTasks;
  for (const [i, t] of scored.entries()) {
    if (i % 50 === 0) {
      throwIfAborted(input.signal);
      input.onProgress?.({ seed, method: method.id, done: i, total: scored.length });
    }
    const task: PredictTask = { taskId: t.taskId, prompt: t.prompt, categories: t.categories, ...(t.rubric ? { rubric: t.rubric } : {}) };
    const v = input.vectors?.get(t.taskId);
    if (v) task.vector = v;
    const row = new Map<string, number>();
    for (const tool of [...t.truth.keys()].sort()) {
      const p = await predictor.predict(task, tool, { signal: input.signal });
      row.set(tool, p.score);
      if (p.clamped) clamped++;
      count++;
    }
    pred.set(t.taskId, row);
  }
  const predictMs = Date.now() - t1;
  const llm = llmStatsOf(predictor);
  const result: RunFigures = { clamped, predictions: count, fitMs, predictMs, testTasks: scored.length, ...(llm ? { llm } : {}) };
  return { result, scored, pred };
}

function emptyMatrix(testTasks: readonly TaskData[], tools: readonly string[]): PredictionMatrix {
  const T = tools.length;
  const truth = new Float64Array(testTasks.length * T).fill(NaN);
  for (const [i, t] of testTasks.entries()) for (const [j, tool] of tools.entries()) truth[i * T + j] = t.truth.get(tool) ?? NaN;
  return { taskIds: testTasks.map((t) => t.taskId), tools: [...tools], truth, predicted: new Map(), scored: new Map() };
}

function fillMatrix(matrix: PredictionMatrix, method: string, scored: readonly TaskData[], pred: Map<string, Map<string, number>>): void {
  const T = matrix.tools.length;
  const out = new Float64Array(matrix.taskIds.length * T).fill(NaN);
  for (const [i, t] of scored.entries()) {
    const row = pred.get(t.taskId);
    for (const [j, tool] of matrix.tools.entries()) out[i * T + j] = row?.get(tool) ?? NaN;
  }
  matrix.predicted.set(method, out);
  matrix.scored.set(method, scored.length);
}

function score(
  testTasks: readonly TaskData[],
  pred: Map<string, Map<string, number>>,
  tools: readonly string[],
  toolPairs: readonly [string, string][],
): Omit<MethodSeedResult, keyof RunFigures> {
  const perTool = dict<RegressionMetrics>(); // tool ids are data: null prototype (core/data-keys)
  for (const tool of tools) {
    const p: number[] = [];
    const y: number[] = [];
    for (const t of testTasks) {
      const v = pred.get(t.taskId)?.get(tool);
      if (v === undefined || !t.truth.has(tool)) continue;
      p.push(v);
      y.push(t.truth.get(tool)!);
    }
    if (p.length > 0) perTool[tool] = regressionMetrics(p, y);
  }
  const vals = Object.values(perTool);
  const avg = (k: keyof RegressionMetrics) => meanSd(vals.map((m) => m[k])).mean;
  const pairs = toolPairs.map(([a, b]) => ({
    a,
    b,
    ...pairMetrics(
      testTasks
        .filter((t) => t.truth.has(a) && t.truth.has(b))
        .map((t) => ({ trueA: t.truth.get(a)!, trueB: t.truth.get(b)!, predA: pred.get(t.taskId)!.get(a)!, predB: pred.get(t.taskId)!.get(b)! })),
    ),
  }));
  const selection = selectionMetrics(
    testTasks.map((t) => {
      const cands = [...t.truth.keys()].sort();
      return { truth: cands.map((c) => t.truth.get(c)!), predicted: cands.map((c) => pred.get(t.taskId)!.get(c)!) };
    }),
  );
  return { tools: perTool, mean: { mae: avg('mae'), rmse: avg('rmse'), pearson: avg('pearson'), spearman: avg('spearman') }, pairs, selection };
}

/** mean ± sd over seeds of one number picked from each seed's result. */
export function overSeeds(report: EvalReport, pick: (s: SeedResult) => number): Summary {
  const { mean: m, sd } = meanSd(report.seeds.map(pick));
  return { mean: m, sd };
}
