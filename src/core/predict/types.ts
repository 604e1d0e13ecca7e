/**
 * The contract every score predictor implements, offline or not.
 *
 * A predictor is fitted on scored training pairs (task, tool, score) and then predicts a tool's
 * score on a new task from the task alone (its prompt, and a dense vector when the caller embedded
 * it). Predictions are clamped to the dataset's scale and carry the evidence behind them
 * (training experiences or memory entries, with their similarity to the task).
 *
 * src/core stays pure: dense vectors come from the caller (the Node CLI or a browser worker embeds
 * the prompts); lexical features are built here from the training prompts.
 */
import type { Contribution } from '../capability/types';
import type { Evidence, ScoreScale } from '../types';

export interface TrainingExample {
  /** Experience id (evidence points to it); `taskId|toolId` when absent. */
  id?: string;
  taskId: string;
  prompt: string;
  toolId: string;
  /** The ground truth under the dataset's rater policy. */
  score: number;
  /**
   * Every rater's score of this (task, tool) when there were several. Training-side only: methods
   * may average them to denoise their targets; they are never read for test tasks.
   */
  ratings?: readonly number[];
  categories?: readonly string[];
  /** Dense embedding of the prompt (unit length), when the caller embedded it. */
  vector?: Float32Array;
}

export interface TrainingSet {
  scale: ScoreScale;
  examples: readonly TrainingExample[];
}

export interface PredictTask {
  taskId: string;
  prompt: string;
  /** Dense embedding of the prompt (same model as the training vectors). */
  vector?: Float32Array;
  categories?: readonly string[];
  /** The task's rubric when the data has one: the LLM prompts show it (what the score measures). */
  rubric?: string;
}

export interface ScorePrediction {
  /** Predicted score, clamped to the scale. */
  score: number;
  /** True when the raw estimate fell outside the scale and was clamped (evaluations count these). */
  clamped: boolean;
  /** What the prediction rests on, most similar first (may be empty, e.g. for tool-mean). */
  evidence: Evidence[];
  /**
   * The capability memory: the tool's mean and each applying entry's share in score points
   * (mean + Σ points = the unclamped score). Absent for methods that do not explain themselves.
   */
  explanation?: { mean: number; contributions: Contribution[] };
}

/** What a method needs from its host before it can run. */
export interface PredictorNeeds {
  /** Dense prompt vectors on training examples and tasks: required, or used when given. */
  vectors?: boolean | 'optional';
  /** A memory (retrieved entries) — see `memory.ts`. */
  memory?: boolean;
  /** A chat model (LlmEngine) — see llm.ts. */
  llm?: boolean;
}

/**
 * Synchronous, offline predictor (every method that needs no LLM). Kept apart from
 * `AsyncPredictor` on purpose: offline predictors are called synchronously inside other ones (the
 * ensemble's members, hybrid's numeric side, the residual bank's folds, tool selection over every
 * candidate), where a Promise per prediction would turn pure arithmetic asynchronous and allocate
 * one per call. The harnesses (evaluate, residualBank, the eval service) take `AnyPredictor` and
 * await it, which reads a synchronous value unchanged, so both kinds give the same numbers there.
 */
export interface Predictor {
  /** Tells the two kinds apart (AnyPredictor is a union tagged by it). */
  readonly kind: 'sync';
  readonly id: string;
  readonly needs: PredictorNeeds;
  fit(train: TrainingSet): void;
  predict(task: PredictTask, toolId: string): ScorePrediction;
}

/**
 * Predictors that call out (an LLM, a remote memory): same shape, but asynchronous and
 * cancellable. The evaluation harness awaits both kinds.
 */
export interface AsyncPredictor {
  readonly kind: 'async';
  readonly id: string;
  readonly needs: PredictorNeeds;
  fit(train: TrainingSet, opts?: { signal?: AbortSignal }): Promise<void>;
  predict(task: PredictTask, toolId: string, opts?: { signal?: AbortSignal }): Promise<ScorePrediction>;
  /** LLM predictors: calls made so far and how their replies parsed (the evaluation reports it). */
  llmStats?(): LlmPredictStats;
}

/** Either kind, told apart by `kind` (never by probing for a method). */
export type AnyPredictor = Predictor | AsyncPredictor;

/** An LLM predictor's call counts so far; undefined for every other predictor. */
export function llmStatsOf(p: AnyPredictor): LlmPredictStats | undefined {
  return p.kind === 'async' ? p.llmStats?.() : undefined;
}

/**
 * The LLM methods (llm.ts, hybrid.ts): `generic-llm` (tool name + description only),
 * `fewshot-llm` (the most similar training experiences in the prompt), `toolmem-llm` (memory
 * entries retrieved per level in the prompt) and `hybrid` (toolmem-llm blended with the ensemble).
 * Their list, labels and constructors are the registry's (registry.ts checks it names exactly these).
 */
export type LlmMethodId = 'generic-llm' | 'fewshot-llm' | 'toolmem-llm' | 'hybrid';

/** Counts of an LLM predictor's calls. */
export interface LlmPredictStats {
  calls: number;
  /** Replies with no usable number: the prediction fell back to the tool's training mean. */
  parseFailures: number;
  /** Numbers off the scale: clamped to it. */
  outOfRange: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * Clamps to [min, max]. Whole-number scales are NOT rounded: continuous predictions (almost) never
 * tie, and a predicted tie counts as wrong in the pair metrics. A non-finite value becomes the
 * middle of the scale and counts as clamped.
 */
export function clampToScale(value: number, scale: ScoreScale): { score: number; clamped: boolean } {
  if (!Number.isFinite(value)) return { score: (scale.min + scale.max) / 2, clamped: true };
  if (value < scale.min) return { score: scale.min, clamped: true };
  if (value > scale.max) return { score: scale.max, clamped: true };
  return { score: value, clamped: false };
}

/** A prediction from a raw estimate: clamped, with its evidence. */
export function toPrediction(raw: number, scale: ScoreScale, evidence: Evidence[] = []): ScorePrediction {
  return { ...clampToScale(raw, scale), evidence };
}
