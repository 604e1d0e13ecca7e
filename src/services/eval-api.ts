/** The evaluation worker's protocol: runs evaluations (stored as Runs) and answers predictions. */
import type { AblationRow } from '../core/eval/ablation';
import type { EvalIntervals } from '../core/eval/bootstrap';
import type { JsonReport } from '../core/eval/report';
import type { Contribution } from '../core/capability/types';
import type { PickMargin, ScoreRange } from '../core/predict/residuals';
import type { Selection } from '../core/predict/select';
import type { LlmPredictStats } from '../core/predict/types';
import type { Run, ScoreDirection } from '../core/types';

export interface EvalConfig {
  datasetId: string;
  /** Training / test tasks; the dataset's protocol split (GenAI-Bench 200/800) or half/half when absent. */
  train?: number;
  test?: number;
  seeds: number;
  methods: string[];
  k?: number;
  /** Also run the top-k ablation (k = 0…24, fixed k and knee) for the neighbour methods. */
  ablation?: boolean;
  /**
   * The language model for the LLM methods, as an engine spec (core/llm/spec: `none`,
   * `openai:URL#MODEL`, `wllama:…`, `webllm:…`); the page sends the one chosen in Settings.
   */
  engine?: string;
  /**
   * LLM methods are scored on the first N test tasks of each split (a seeded random subset):
   * one model call per (task, tool) adds up (800 tasks × 6 tools = 4,800 calls per seed).
   * Default 50 (DEFAULT_LLM_MAX_TEST). Other methods always use the whole test split.
   */
  llmMaxTest?: number;
  /**
   * Evaluate this stored memory (a build's or an import's) instead of one induced per seed: the
   * split is the memory's own (its training tasks; test tasks = the tasks it never saw, capped by
   * `test`), so `seeds` must be 1 and `train` absent. `memory`, `toolmem-llm` and `hybrid` use its
   * valid entries; the other methods are fitted on the same training tasks.
   */
  memoryId?: string;
}

/** The stored memory an evaluation scored (EvalConfig.memoryId), as it was at the time. */
export interface EvalMemoryInfo {
  id: string;
  name: string;
  /** The engine it was built with (`none`, `openai:…`); an imported file's build engine. */
  engine: string;
  embeddingModel: string;
  /** Where its training tasks come from: the build Run's split, or the imported file's list. */
  source: 'build' | 'imported';
  /** The build's split seed (the shuffle of the test tasks); 1 for an imported memory. */
  seed: number;
  /** Valid entries it had. */
  entries: number;
  /** The tasks it learned from, and the ones it was tested on (none of which it saw), in scoring order. */
  trainTasks: string[];
  testTasks: string[];
  /** Per method that reads the memory: the distinct entries it cited as evidence. */
  cited: Record<string, string[]>;
}

/** An LLM method's calls summed over seeds. */
export interface LlmMethodStats extends LlmPredictStats {
  /** Test tasks it was scored on, per seed. */
  testTasks: number;
}

/**
 * Paired-bootstrap 95% intervals (by task, the same resampled test tasks for every method per seed,
 * seeded), computed in the eval worker after the run: defined with the computation in
 * core/eval/bootstrap.ts (`Interval`, `IntervalMetric`, `Verdict`, `MethodIntervals`, `EvalIntervals`).
 */
export type { EvalIntervals, Interval, IntervalMetric, MethodIntervals, Verdict } from '../core/eval/bootstrap';

/** One point of the cost–quality plane: defined with its computation in core/eval/cost-plane.ts. */
export type { PlanePoint as CostQualityPoint } from '../core/eval/cost-plane';
import type { PlanePoint as CostQualityPoint } from '../core/eval/cost-plane';

/** The cost–quality plane of a run: first seed's test tasks, with each tool's cost per call. */
export interface CostQualityPlane {
  /**
   * Cost per call per tool (data ids: null-prototype dictionary) and where it came from: `data` =
   * the median of `n` logged costs; `card` = set on the tool's card (`example`: the demo's
   * illustrative price, not the user's).
   */
  costs: Record<string, { cost: number; source: 'data' | 'card'; n?: number; example?: boolean }>;
  points: CostQualityPoint[];
  /** Test tasks every point is measured on (those every method predicted for every costed tool). */
  tasks?: number;
  /** Tools of the dataset left out of the plane for want of a cost. */
  missing?: string[];
  /** The scale's direction: on lower-better scales a lower quality number is better. */
  direction?: ScoreDirection;
}

/** What an evaluation Run stores in `metrics`. */
export interface EvalResult {
  report: JsonReport;
  /** mean ± sd over seeds, per method, of the tool-averaged metrics. */
  spread: Record<string, { mae: number; rmse: number; pearson: number; maeSd: number; rmseSd: number; pearsonSd: number }>;
  /** Per tool × method mean and sd over seeds (for error bars). */
  toolSpread: Record<string, Record<string, { mae: [number, number]; rmse: [number, number]; pearson: [number, number] }>>;
  /** First seed's predicted and true scores per method (for the predicted-vs-true chart). */
  points: Record<string, { predicted: number; actual: number; toolId: string; taskId?: string }[]>;
  selection: Record<string, number>;
  alwaysStrongerSelection: number;
  ablation?: AblationRow[];
  /** LLM methods only: calls, parse failures (tool-mean fallbacks) and off-scale answers (clamped). */
  llm?: Record<string, LlmMethodStats>;
  sizes: { train: number; test: number };
  /** Runs of a stored memory (EvalConfig.memoryId). */
  memory?: EvalMemoryInfo;
  scale: { min: number; max: number; integer: boolean };
  /** Paired-bootstrap 95% intervals (runs made before intervals existed have none). */
  intervals?: EvalIntervals;
  /** The cost–quality plane, when the tools have a cost (from the data or their cards). */
  costPlane?: CostQualityPlane;
}

export interface PredictRequest {
  datasetId: string;
  method: string;
  prompt: string;
  /** Tools to compare (default: every tool of the dataset). */
  candidates?: string[];
  margin?: number;
  /** Engine spec for the LLM methods (see EvalConfig.engine). */
  engine?: string;
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
  /** Training examples the predictor was fitted on. */
  trainedOn: number;
  /** LLM methods: replies that held no score (the tool's mean was used) and off-scale answers. */
  llm?: { parseFailures: number; outOfRange: number };
  /** The pick's margin over the runner-up (utility) and whether their ranges overlap; absent with fewer than 2 candidates. */
  pick?: PickMargin;
  /** Where the ranges come from (K folds over `tasks` training tasks, each fold model fitted on ≤ maxTrain), or why there are none. */
  ranges?: { folds: number; tasks: number; maxTrain: number } | { unavailable: string };
}

export interface EvalApi {
  /** Progress: steps (seed × method); `calls` while LLM methods run (done / total model calls). */
  /** A channel to the llm worker, for in-browser engines (wllama, WebLLM); sent when the worker starts. */
  attachLlm: { req: { port: MessagePort }; res: null; progress: never };
  evaluate: { req: EvalConfig; res: Run; progress: { done: number; total: number; label: string; calls?: { done: number; total: number } } };
  predict: { req: PredictRequest; res: PredictResponse; progress: never };
}
