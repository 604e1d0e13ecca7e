/**
 * Tool selection from predicted scores: the candidate with the best utility, or a tie (no choice)
 * when the best candidates are within the user's margin.
 *
 *   utility = s·score − costWeight·cost        (s = −1 on lower-is-better scales)
 *   tied    = every candidate with utility ≥ best − margin;  a choice only when it holds one tool
 */
import { dict } from '../data-keys';
import type { ScoreDirection } from '../types';
import type { Predictor, PredictTask, ScorePrediction } from './types';

export interface Candidate {
  toolId: string;
  /** Predicted score. */
  score: number;
  /** Cost of one use, in any unit (only used with costWeight > 0). */
  cost?: number;
}

export interface SelectOptions {
  /** Predictions closer than this count as a tie (default 0: only exact ties). */
  margin?: number;
  /** Score units given up per unit of cost (default 0: cost ignored). */
  costWeight?: number;
  direction?: ScoreDirection;
}

export interface RankedCandidate extends Required<Candidate> {
  utility: number;
}

export interface Selection {
  /** The selected tool; null on a tie within the margin or without candidates. */
  choice: string | null;
  /** Candidates within the margin of the best (the best first). */
  tied: string[];
  /** Every candidate, best utility first (ties: tool id order). */
  ranked: RankedCandidate[];
}

export function selectTool(candidates: readonly Candidate[], opts: SelectOptions = {}): Selection {
  const margin = Math.max(0, opts.margin ?? 0);
  const weight = opts.costWeight ?? 0;
  const sign = opts.direction === 'lower-better' ? -1 : 1;
  const ranked = candidates
    .map((c) => {
      const cost = c.cost ?? 0;
      return { toolId: c.toolId, score: c.score, cost, utility: sign * c.score - weight * cost };
    })
    .sort((a, b) => b.utility - a.utility || (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0));
  if (ranked.length === 0) return { choice: null, tied: [], ranked };
  const best = ranked[0]!.utility;
  const tied = ranked.filter((c) => c.utility >= best - margin).map((c) => c.toolId);
  return { choice: tied.length === 1 ? tied[0]! : null, tied, ranked };
}

export interface TaskSelection extends Selection {
  /** Each candidate's prediction (with its evidence), by tool id. */
  predictions: Record<string, ScorePrediction>;
}

/** Predicts every candidate tool's score on the task with `predictor`, then `selectTool`. */
export function selectForTask(
  predictor: Predictor,
  task: PredictTask,
  candidates: readonly (string | { toolId: string; cost?: number })[],
  opts: SelectOptions = {},
): TaskSelection {
  // Keyed by candidate tool ids (data): null prototype, see core/data-keys.
  const predictions = dict<ScorePrediction>();
  const scored = candidates.map((c) => {
    const { toolId, cost } = typeof c === 'string' ? { toolId: c, cost: undefined } : c;
    const p = predictor.predict(task, toolId);
    predictions[toolId] = p;
    return cost === undefined ? { toolId, score: p.score } : { toolId, score: p.score, cost };
  });
  return { ...selectTool(scored, opts), predictions };
}
