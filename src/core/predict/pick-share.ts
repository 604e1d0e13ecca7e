/**
 * How often the pick beats the runner-up on tasks like this one: the Predict page's statement about
 * the pick. The 80% ranges of one task's outcome nearly always overlap (one task varies far more
 * than two tools' predicted means differ), so "the ranges overlap" says nothing; the share does.
 *
 * From the held-out errors the ranges use (residuals.ts): each tool's outcome on a calibration task
 * is its prediction plus its out-of-fold error there, clamped to the scale, and the share is
 * P(outcome of the pick > outcome of the runner-up) counted over those tasks. Paired per task — both
 * tools' errors on the SAME held-out task — where the two tools share tasks, so a task that is hard
 * for both stays hard for both (the errors' correlation is kept); only when they share none is every
 * combination of their errors counted. Ties (both clamped to the top of the scale, say) count half.
 * Compared in utility terms: higher is better after the scale's direction, minus the same cost term
 * the selection charged each tool.
 */
import type { ScoreScale } from '../types';
import { calibrationRows, rowsWithResidual, type RangeOptions, type ResidualBank } from './residuals';
import { clampToScale } from './types';

export interface PickShare {
  /** Share (0–1) of the counted tasks on which the pick's outcome beats the runner-up's; ties count half. */
  share: number;
  /** Held-out tasks counted (paired), or pairs of errors (unpaired). */
  n: number;
  /** The most similar held-out tasks, or all of them (too few similar ones): the ranges' rule. */
  source: 'similar' | 'overall';
  /** Both tools' errors on the same tasks (true), or every combination of their errors (no shared task). */
  paired: boolean;
}

export interface PickMargin {
  runnerUp: string;
  /** Best utility minus the runner-up's (score points when costs do not count). */
  margin: number;
  /** How often the pick beats the runner-up on similar held-out tasks; null without residuals for both. */
  share: PickShare | null;
}

/**
 * A share this close to a half (0.4–0.6) makes the pick uncertain. Why 0.1: the share is read from
 * about 50 similar tasks (RANGE_DEFAULTS.k), and a share of ½ over 50 tasks has a sampling error of
 * √(½·½/50) ≈ 0.07; within 0.1 of a half the data cannot tell the pick from a coin toss, and a tool
 * that wins 55 tasks in 100 is, for the person choosing, a toss-up anyway.
 */
export const UNCERTAIN_WITHIN = 0.1;

export function isUncertain(share: number): boolean {
  return Math.abs(share - 0.5) <= UNCERTAIN_WITHIN + 1e-12;
}

interface Ranked {
  toolId: string;
  score: number;
  utility: number;
}

/** Outcomes this close are a tie (float noise after clamping and the cost term). */
const TIE = 1e-9;

/**
 * The share of similar held-out tasks on which `a` (the pick) beats `b` (the runner-up). `sign` is
 * +1 when higher scores are better, −1 when lower are; utility = sign·score − cost term, as in the
 * selection. Null when either tool has no residual in the bank.
 */
export function pickShare(
  bank: ResidualBank,
  sims: Float64Array,
  a: Ranked,
  b: Ranked,
  sign: 1 | -1,
  scale: ScoreScale,
  opts: RangeOptions = {},
): PickShare | null {
  const ja = bank.tools.indexOf(a.toolId);
  const jb = bank.tools.indexOf(b.toolId);
  if (ja < 0 || jb < 0) return null;
  const T = bank.tools.length;
  const utility = (p: Ranked, residual: number) => sign * clampToScale(p.score + residual, scale).score + (p.utility - sign * p.score);
  const ownA = rowsWithResidual(bank, ja);
  const ownB = rowsWithResidual(bank, jb);
  if (!ownA.length || !ownB.length) return null;
  const inB = new Set(ownB);
  const shared = ownA.filter((i) => inB.has(i));
  let wins = 0;
  let n = 0;
  const count = (ua: number, ub: number) => {
    n++;
    wins += ua > ub + TIE ? 1 : Math.abs(ua - ub) <= TIE ? 0.5 : 0;
  };
  if (shared.length) {
    const { rows, source } = calibrationRows(shared, sims, opts);
    for (const i of rows) count(utility(a, bank.residuals[i * T + ja]!), utility(b, bank.residuals[i * T + jb]!));
    return { share: wins / n, n, source, paired: true };
  }
  const rowsA = calibrationRows(ownA, sims, opts);
  const rowsB = calibrationRows(ownB, sims, opts);
  for (const i of rowsA.rows) for (const h of rowsB.rows) count(utility(a, bank.residuals[i * T + ja]!), utility(b, bank.residuals[h * T + jb]!));
  return { share: wins / n, n, source: rowsA.source === 'similar' && rowsB.source === 'similar' ? 'similar' : 'overall', paired: false };
}

/**
 * The pick's margin over the runner-up and how often it beats it. `ranked` is the selection's
 * order (best utility first); without a bank (LLM methods, too few tasks) the share is null.
 */
export function pickMargin(
  ranked: readonly Ranked[],
  sign: 1 | -1,
  scale: ScoreScale,
  bank: { bank: ResidualBank; sims: Float64Array } | null,
  opts: RangeOptions = {},
): PickMargin | null {
  const [a, b] = ranked;
  if (!a || !b) return null;
  return { runnerUp: b.toolId, margin: a.utility - b.utility, share: bank ? pickShare(bank.bank, bank.sims, a, b, sign, scale, opts) : null };
}
