/**
 * What an evaluation Run stores: its configuration (`Run.config` of kind `eval`) and its result
 * (`Run.metrics`). Defined in core so `Run` can be typed here without core importing the services
 * that produce them (app/evaluate/api.ts re-exports these names for the worker protocol).
 */
import type { AblationRow } from './ablation';
import type { EvalIntervals } from './bootstrap';
import type { JsonReport } from './report';
import type { LlmPredictStats } from '../predict/types';
import type { ScoreDirection } from '../types';

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
 * seeded), computed in the predictors worker after the run: defined with the computation in
 * bootstrap.ts (`Interval`, `IntervalMetric`, `Verdict`, `MethodIntervals`, `EvalIntervals`).
 */
export type { EvalIntervals, Interval, IntervalMetric, MethodIntervals, Verdict } from './bootstrap';

/** One point of the cost–quality plane: defined with its computation in core/eval/cost-plane.ts. */
export type { PlanePoint as CostQualityPoint } from './cost-plane';
import type { PlanePoint as CostQualityPoint } from './cost-plane';

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
