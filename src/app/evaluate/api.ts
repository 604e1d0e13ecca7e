/** The evaluation worker's protocol: runs evaluations (stored as Runs) and answers predictions. */
import type { Contribution } from '../../core/capability/types';
import type { ScoreRange } from '../../core/predict/residuals';
import type { PickMargin } from '../../core/predict/pick-share';
import type { Selection } from '../../core/predict/select';
import type { EngineSpec } from '../../core/llm/spec';
import type { EvalRun } from '../../core/records';

/**
 * An evaluation's configuration and stored result, the bootstrap intervals and the cost–quality
 * plane: defined in core/eval/run-record.ts (the typed `Run` of kind `eval` holds them).
 */
export type {
  CostQualityPlane,
  CostQualityPoint,
  EvalConfig,
  EvalIntervals,
  EvalMemoryInfo,
  EvalResult,
  Interval,
  IntervalMetric,
  LlmMethodStats,
  MethodIntervals,
  Verdict,
} from '../../core/eval/run-record';
import type { EvalConfig } from '../../core/eval/run-record';

export interface PredictRequest {
  datasetId: string;
  method: string;
  prompt: string;
  /** Tools to compare (default: every tool of the dataset). */
  candidates?: string[];
  margin?: number;
  /** The language model for the LLM methods (parsed where it is read: Settings). */
  engine?: EngineSpec;
  /** Cost of one use per tool, in any unit the user likes (missing = 0). */
  costs?: Record<string, number>;
  /** Score points the user would give up per unit of cost (default 0: cost ignored). */
  costWeight?: number;
  /** Typical latency per tool in ms (for maxLatencyMs). */
  latencies?: Record<string, number>;
  /** Tools costing more than this, or of unknown cost, are excluded (Selection.excluded says which). */
  maxCost?: number;
  /** Tools slower than this in ms, or of unknown latency, are excluded. */
  maxLatencyMs?: number;
  /**
   * The `memory` method: predict with this stored capability memory as it was built (its claims,
   * its fit), instead of a memory fitted now on every scored output of the dataset.
   */
  memoryId?: string;
}

/** A stored capability memory the `memory` method can predict with (the Predict page's choice). */
export interface PredictMemory {
  id: string;
  name: string;
  /** When its build finished (or the memory was last written, for an imported one). */
  builtAt: number;
  /** Training tasks it learned from (null: every task of the dataset). */
  trainTasks: number | null;
  source: 'build' | 'imported';
}

export interface ToolPrediction {
  toolId: string;
  score: number;
  evidence: { kind: 'experience' | 'entry'; id: string; similarity: number; text: string; score?: number }[];
  /** The memory method: the tool's mean and each applying entry's share in score points. */
  explanation?: { mean: number; contributions: Contribution[] };
  /**
   * The range (80%) one task's outcome falls in: the prediction plus the quantiles of the method's
   * out-of-fold residuals on the most similar training tasks, or on all of them (core/predict/residuals.ts).
   * Absent for LLM methods and tools without residuals.
   */
  range?: ScoreRange;
  /** Only the tool's training mean (or median): no similar task or memory entry moved it. */
  onlyMean?: boolean;
}

export interface PredictResponse {
  method: string;
  predictions: ToolPrediction[];
  selection: Selection;
  /** Training examples the predictor was fitted on (scored outputs: a task × a tool). */
  trainedOn: number;
  /** The distinct tasks and tools of those examples ("9,600 scored outputs: 1,600 tasks × 6 tools"). */
  trainedTasks?: number;
  trainedTools?: number;
  /** The `memory` method with a stored memory: the memory it predicted with. */
  memory?: PredictMemory;
  /** LLM methods: replies that held no score (the tool's mean was used) and off-scale answers. */
  llm?: { parseFailures: number; outOfRange: number };
  /** The pick's margin over the runner-up (utility) and how often it beats it on similar held-out tasks; absent with fewer than 2 candidates. */
  pick?: PickMargin;
  /** Where the ranges come from (K folds over `tasks` training tasks, each fold model fitted on ≤ maxTrain), or why there are none. */
  ranges?: { folds: number; tasks: number; maxTrain: number; allTasks?: number } | { unavailable: string };
}

export interface EvalApi {
  /** Progress: steps (seed × method); `calls` while LLM methods run (done / total model calls). */
  /** A channel to the llm worker, for in-browser engines (wllama, WebLLM); sent when the worker starts. */
  attachLlm: { req: { port: MessagePort }; res: null; progress: never };
  evaluate: { req: EvalConfig; res: EvalRun; progress: { done: number; total: number; label: string; calls?: { done: number; total: number } } };
  predict: { req: PredictRequest; res: PredictResponse; progress: never };
}
