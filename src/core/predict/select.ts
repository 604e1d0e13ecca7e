/**
 * Tool selection from predicted scores: the candidate with the best utility, or a tie (no choice)
 * when the best candidates are within the user's margin.
 *
 *   utility = s·score − costWeight·cost        (s = −1 on lower-is-better scales)
 *   tied    = every candidate with utility ≥ best − margin;  a choice only when it holds one tool
 *
 * Limits come first: with `maxCost` a candidate costing more — or whose cost is unknown — is
 * excluded (listed with the reason), so a limit is never broken by a missing figure; the same for
 * `maxLatencyMs` and latency. Excluded candidates take no part in the ranking or the tie.
 */
import type { ScoreDirection } from '../types';
import type { ScorePrediction } from './types';

export interface Candidate {
  toolId: string;
  /** Predicted score. */
  score: number;
  /** Cost of one use, in any unit (only used with costWeight > 0 or maxCost). */
  cost?: number;
  /** Typical latency of one use in ms (only used with maxLatencyMs). */
  latencyMs?: number;
}

export interface SelectOptions {
  /** Predictions closer than this count as a tie (default 0: only exact ties). */
  margin?: number;
  /** Score units given up per unit of cost (default 0: cost ignored). */
  costWeight?: number;
  direction?: ScoreDirection;
  /** Candidates costing more than this (or of unknown cost) are excluded. */
  maxCost?: number;
  /** Candidates slower than this in ms (or of unknown latency) are excluded. */
  maxLatencyMs?: number;
}

export interface RankedCandidate {
  toolId: string;
  score: number;
  /** The candidate's cost (0 when it has none). */
  cost: number;
  latencyMs?: number;
  utility: number;
}

/** A candidate a limit ruled out, and why (`over`: above the limit; `unknown`: no figure to check). */
export interface ExcludedCandidate {
  toolId: string;
  reason: 'cost-over' | 'cost-unknown' | 'latency-over' | 'latency-unknown';
  /** The candidate's figure (absent when unknown) and the limit it was held to. */
  value?: number;
  limit: number;
}

export interface Selection {
  /** The selected tool; null on a tie within the margin or without candidates. */
  choice: string | null;
  /** Candidates within the margin of the best (the best first). */
  tied: string[];
  /** Every candidate within the limits, best utility first (ties: tool id order). */
  ranked: RankedCandidate[];
  /** Candidates the limits ruled out (only present when a limit was given). */
  excluded?: ExcludedCandidate[];
}

/** Why `c` is outside the limits, or null when it is within them. */
function exclusion(c: Candidate, opts: SelectOptions): ExcludedCandidate | null {
  const check = (limit: number | undefined, value: number | undefined, kind: 'cost' | 'latency'): ExcludedCandidate | null => {
    if (limit === undefined) return null;
    if (value === undefined || !Number.isFinite(value)) return { toolId: c.toolId, reason: `${kind}-unknown`, limit };
    return value > limit ? { toolId: c.toolId, reason: `${kind}-over`, value, limit } : null;
  };
  return check(opts.maxCost, c.cost, 'cost') ?? check(opts.maxLatencyMs, c.latencyMs, 'latency');
}

export function selectTool(candidates: readonly Candidate[], opts: SelectOptions = {}): Selection {
  const margin = Math.max(0, opts.margin ?? 0);
  const weight = opts.costWeight ?? 0;
  const sign = opts.direction === 'lower-better' ? -1 : 1;
  const limited = opts.maxCost !== undefined || opts.maxLatencyMs !== undefined;
  const excluded: ExcludedCandidate[] = [];
  const ranked = candidates
    .filter((c) => {
      const out = limited ? exclusion(c, opts) : null;
      if (out) excluded.push(out);
      return !out;
    })
    .map((c) => {
      const cost = c.cost ?? 0;
      return {
        toolId: c.toolId,
        score: c.score,
        cost,
        ...(c.latencyMs !== undefined ? { latencyMs: c.latencyMs } : {}),
        utility: sign * c.score - weight * cost,
      };
    })
    .sort((a, b) => b.utility - a.utility || (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0));
  const limits = limited ? { excluded: excluded.sort((a, b) => (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0)) } : {};
  if (ranked.length === 0) return { choice: null, tied: [], ranked, ...limits };
  const best = ranked[0]!.utility;
  const tied = ranked.filter((c) => c.utility >= best - margin).map((c) => c.toolId);
  return { choice: tied.length === 1 ? tied[0]! : null, tied, ranked, ...limits };
}

/** A selection with each candidate's prediction (src/app/predict/select.ts `predictAndSelect`). */
export interface TaskSelection extends Selection {
  /** Each candidate's prediction (with its evidence), by tool id. */
  predictions: Record<string, ScorePrediction>;
}
