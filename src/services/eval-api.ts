/** The evaluation worker's protocol: runs evaluations (stored as Runs) and answers predictions. */
import type { AblationRow } from '../core/eval/ablation';
import type { JsonReport } from '../core/eval/report';
import type { Selection } from '../core/predict/select';
import type { Run } from '../core/types';

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
}

/** What an evaluation Run stores in `metrics`. */
export interface EvalResult {
  report: JsonReport;
  /** mean ± sd over seeds, per method, of the tool-averaged metrics. */
  spread: Record<string, { mae: number; rmse: number; pearson: number; maeSd: number; rmseSd: number; pearsonSd: number }>;
  /** Per tool × method mean and sd over seeds (for error bars). */
  toolSpread: Record<string, Record<string, { mae: [number, number]; rmse: [number, number]; pearson: [number, number] }>>;
  /** First seed's predicted and true scores per method (for the predicted-vs-true chart). */
  points: Record<string, { predicted: number; actual: number; toolId: string }[]>;
  selection: Record<string, number>;
  alwaysStrongerSelection: number;
  ablation?: AblationRow[];
  sizes: { train: number; test: number };
  scale: { min: number; max: number; integer: boolean };
}

export interface PredictRequest {
  datasetId: string;
  method: string;
  prompt: string;
  /** Tools to compare (default: every tool of the dataset). */
  candidates?: string[];
  margin?: number;
}

export interface ToolPrediction {
  toolId: string;
  score: number;
  evidence: { kind: 'experience' | 'entry'; id: string; similarity: number; text: string; score?: number }[];
}

export interface PredictResponse {
  method: string;
  predictions: ToolPrediction[];
  selection: Selection;
  /** Training examples the predictor was fitted on. */
  trainedOn: number;
}

export interface EvalApi {
  evaluate: { req: EvalConfig; res: Run; progress: { done: number; total: number; label: string } };
  predict: { req: PredictRequest; res: PredictResponse; progress: never };
}
