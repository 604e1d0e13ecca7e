/**
 * The one evaluation use case. The predictors worker (`evaluate`, src/app/evaluate/evaluate.ts) and
 * `toolmem eval` (src/cli/commands/eval.ts) each call `runEvaluation` once and then only store or
 * print what it returns: the task minimum, the split sizes, the prompt vectors, the stored memory's
 * snapshot, the evaluation itself, the bootstrap intervals and the top-k ablation happen here, in
 * this order, so the two hosts cannot drift apart again.
 *
 * What differs between hosts comes in as data or functions: where the data, the embedding model
 * and the language model come from, whether optional vectors are wanted, and what a stop means
 * (`whenStopped`: the app marks the run cancelled and keeps nothing, the CLI reports what finished).
 */
import type { Embedder } from '../../core/embed';
import { ValidationError } from '../../core/errors';
import type { AblationRow } from '../../core/eval/ablation';
import type { EvalIntervals } from '../../core/eval/bootstrap';
import { allToolPairs, type EvalReport } from '../../core/eval/evaluate';
import type { ScoredPair } from '../../core/eval/ground-truth';
import { splitSizes, type SplitSizes, type TaskSplit } from '../../core/eval/split';
import type { LlmEngine } from '../../core/llm/engine';
import { scaleMeaningOption } from '../../core/import/presets/scale-meanings';
import type { MemorySnapshot } from '../../core/predict/memory';
import { isLlmMethod, MEMORY_METHODS, methodNeeds, TOPK_ABLATION_METHODS, type MethodId, type MethodOptions } from '../../core/predict/registry';
import type { PromptTool } from '../../core/prompts/shared';
import type { AnyPredictor } from '../../core/predict/types';
import type { ScoreScale } from '../../core/types';
import { evalIntervals, evaluateStoppable, neighbourAblation, promptVectors } from './eval-run';
import { evaluateMethods, type EvalProgress } from './methods';

/** The data has fewer than 2 tasks with a ground-truth score (nothing to split). */
export class TooFewTasksError extends ValidationError {
  override name = 'TooFewTasksError';
}

/** The asked train / test sizes do not fit the data's tasks. */
export class SplitSizeError extends ValidationError {
  override name = 'SplitSizeError';
}

export interface EvaluationRequest {
  /** Names the data in messages: the dataset's name, the data file's path. */
  label: string;
  /** Ground truth, one row per (task, tool) (core/eval/ground-truth). */
  data: readonly ScoredPair[];
  scale: ScoreScale;
  /** The import preset: its protocol split and the scale's words for the LLM prompts. */
  preset: string;
  methods: readonly MethodId[];
  /** Seeds of the seeded splits; a stored memory's one split replaces them. */
  seeds: readonly number[];
  train?: number;
  test?: number;
  /** Tool pairs scored for pair accuracy (default: every pair of the data's tools). */
  toolPairs?: readonly (readonly [string, string])[];
  options?: MethodOptions;
  /** A stored memory: its own split, and its entries (embedded on demand) for the memory methods. */
  stored?: { split: TaskSplit; snapshot(): Promise<MemorySnapshot> };
  /** The embedding model for prompt vectors; null when none can be loaded. Called only when needed. */
  embedder(): Promise<Embedder | null>;
  /** Embed prompts for methods that merely can use vectors (ensemble, memory), not only for those that need them. */
  optionalVectors: boolean;
  /** Given: optional vectors that failed to embed are left out (told here) instead of failing the run. */
  onVectorsSkipped?(err: Error): void;
  /** Opens the language model; called only when an LLM method is asked for. */
  engine?(): Promise<LlmEngine>;
  /** The tools as the LLM prompts show them; called only when an LLM method is asked for. */
  tools?(): Promise<ReadonlyMap<string, PromptTool>>;
  llmMaxTest?: number;
  keepPredictions?: boolean;
  signal: AbortSignal;
  /** 'partial': a stop returns the finished part (intervals skipped when stopped in them); 'throw': a stop throws. */
  whenStopped: 'partial' | 'throw';
  /** Run the top-k ablation of the neighbour methods (after a complete run only). */
  ablation: boolean;
  /** Called once everything is ready, just before the methods are fitted (the app stores its Run here). */
  beforeRun?(): Promise<void>;
  wrap?(id: MethodId, predictor: AnyPredictor): AnyPredictor;
  onProgress?(p: EvalProgress): void;
}

export interface EvaluationOutcome {
  /** Null: stopped before any method finished (whenStopped 'partial' only). */
  report: EvalReport | null;
  /** Stopped part-way: which part `report` is. */
  partial?: string;
  sizes: SplitSizes;
  seeds: readonly number[];
  /** Null on a partial report, or when a stop came during the intervals. */
  intervals: EvalIntervals | null;
  /** The methods the ablation sweeps (empty: none of the asked methods has a meaningful k). */
  ablationMethods: readonly MethodId[];
  /** Rows of the top-k ablation, when asked for, complete and some method has a meaningful k. */
  ablation?: AblationRow[];
}

/** The asked methods the top-k ablation sweeps (the registry's: those whose k changes their predictions). */
export function ablationMethodsOf(methods: readonly MethodId[]): MethodId[] {
  return methods.filter((m) => TOPK_ABLATION_METHODS.includes(m));
}

function sizesOf(req: EvaluationRequest, taskCount: number): SplitSizes {
  if (req.stored) return { train: req.stored.split.train.length, test: req.stored.split.test.length };
  try {
    return splitSizes(taskCount, {
      preset: req.preset,
      ...(req.train !== undefined ? { train: req.train } : {}),
      ...(req.test !== undefined ? { test: req.test } : {}),
    });
  } catch (err) {
    throw new SplitSizeError(`${(err as Error).message} (the data has ${taskCount} tasks)`);
  }
}

async function vectorsOf(req: EvaluationRequest, opts: MethodOptions): Promise<Map<string, Float32Array> | undefined> {
  const needs = req.methods.map((m) => methodNeeds(m, opts).vectors);
  const required = needs.includes(true);
  if (!required && !(req.optionalVectors && needs.includes('optional'))) return undefined;
  try {
    const embedder = await req.embedder();
    return embedder ? await promptVectors(embedder, req.data) : undefined;
  } catch (err) {
    if (required || !req.onVectorsSkipped) throw err;
    req.onVectorsSkipped(err as Error);
    return undefined;
  }
}

export async function runEvaluation(req: EvaluationRequest): Promise<EvaluationOutcome> {
  const { data, methods, signal } = req;
  const tools = [...new Set(data.map((p) => p.toolId))].sort();
  const taskCount = new Set(data.map((p) => p.taskId)).size;
  if (taskCount < 2 || tools.length === 0) {
    throw new TooFewTasksError(`${req.label} has ${taskCount} task(s) with a ground-truth score under the rater policy; an evaluation needs at least 2.`);
  }
  const sizes = sizesOf(req, taskCount);
  const options = req.options ?? {};
  const llm = methods.some(isLlmMethod);
  const engine = llm && req.engine ? await req.engine() : null;
  const promptTools = llm && req.tools ? await req.tools() : undefined;
  req.onProgress?.({ done: 0, total: 1, label: methods.some((m) => methodNeeds(m, options).vectors !== false) ? 'Embedding prompts' : 'Preparing' });
  const vectors = await vectorsOf(req, options);
  const memory = req.stored && methods.some((m) => MEMORY_METHODS.includes(m)) ? await req.stored.snapshot() : undefined;
  const seeds = req.stored ? [req.stored.split.seed] : req.seeds;
  const toolPairs = req.toolPairs ?? allToolPairs(tools);
  const fixed = req.stored ? { fixedSplit: req.stored.split } : {};
  await req.beforeRun?.();

  const input = {
    data,
    scale: req.scale,
    sizes,
    seeds,
    methods,
    toolPairs,
    options,
    engine,
    signal,
    ...fixed,
    ...(req.llmMaxTest !== undefined ? { llmMaxTest: req.llmMaxTest } : {}),
    ...(req.keepPredictions ? { keepPredictions: true } : {}),
    ...(promptTools ? { tools: promptTools } : {}),
    ...scaleMeaningOption(req.preset),
    ...(vectors ? { vectors } : {}),
    ...(memory ? { memory } : {}),
    ...(req.wrap ? { wrap: req.wrap } : {}),
    ...(req.onProgress ? { onProgress: req.onProgress } : {}),
  };
  const stoppable = req.whenStopped === 'partial';
  const outcome = stoppable ? await evaluateStoppable(input) : { report: await evaluateMethods(input) };
  const ablationMethods = ablationMethodsOf(methods);
  const { report } = outcome;
  const partial = 'partial' in outcome ? outcome.partial : undefined;
  if (!report || partial) return { report, ...(partial ? { partial } : {}), sizes, seeds, intervals: null, ablationMethods };

  // Paired bootstrap by task; it yields between chunks so a stop gets through.
  req.onProgress?.({ done: 0, total: 1, label: 'Intervals' });
  const intervals = await evalIntervals(report, {
    signal,
    skipOnStop: stoppable,
    onProgress: (done, total) => req.onProgress?.({ done, total, label: 'Intervals' }),
  });
  const result: EvaluationOutcome = { report, sizes, seeds, intervals, ablationMethods };
  if (req.ablation && ablationMethods.length) {
    const total = seeds.length * methods.length;
    req.onProgress?.({ done: total, total: total + 1, label: 'Top-k ablation' });
    // A run that reports what it finished computes the ablation whole: a stop during the intervals only skips those.
    result.ablation = await neighbourAblation({
      data,
      scale: req.scale,
      sizes,
      seeds,
      toolPairs,
      methods: ablationMethods,
      options,
      ...fixed,
      ...(stoppable ? {} : { signal }),
      ...(vectors ? { vectors } : {}),
    });
  }
  return result;
}
