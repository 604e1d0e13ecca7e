/**
 * Pick claims (issue #34): "for tasks tagged negation, pick SDXL_2_1" — where a facet's likely best
 * tool is not the overall best, and the data says with probability ≥ MIN_PICK_PROBABILITY that it
 * does better than the overall best there.
 *
 * The overall best B is the tool with the highest mean (the profile's rank 1). For every other tool
 * k the per-task difference d_kt = v_kt − v_Bt (oriented; tasks both scored) gives, per facet f, the
 * raw facet-minus-overall contrast c_kf of that difference with its Welch standard error. All these
 * (k, f) contrasts feed one adaptive-shrinkage prior (ash.ts: a mixture of zero-mean normals fitted
 * by maximum likelihood), since most of them are null: a facet that looks large by luck is pulled
 * toward zero, one with a lot of evidence keeps its size. The difference on the facet's tasks is
 * D_k + θ_kf (D_k the overall mean difference, se(D_k)² added to every posterior component), and
 * P(k beats B on f) = Σ_m w_m Φ((D_k + μ_m) / √(v_m + se(D_k)²)) over the posterior's components.
 *
 * The scores are the claims' targets (predictor.ts): every rater's mean where a task has several, the
 * figure the unseen check reads. Chosen on the rater-policy score instead, a pick could rest on one
 * rater's noise: on GenAI-Bench's tuning seeds both of its picks (SDXL_2_1 over DALLE_3 on negation)
 * came from that and were behind on unseen tasks; on the raters' mean neither is made.
 *
 * A pick claim stands when the facet's most likely best tool (leaderboard.ts) is not B, that
 * probability is ≥ MIN_PICK_PROBABILITY, a new sample of the facet's size would show the pick ahead
 * with probability ≥ MIN_PICK_REPLICATION, the facet has MIN_PICK_TASKS paired tasks, and the pick
 * survives the selection bootstrap (pick-bootstrap.ts: reselected, and ahead by more than the
 * selection's bias, in ≥ MIN_PICK_SELECTION of resamples of the facet's tasks) and a test that
 * knows it was chosen as one of the largest leads (pick-selective.ts: conditioned on the order of
 * every tool × facet lead over B, at the same levels). It is
 * checked on unseen tasks like any claim: does the pick beat B on the facet's unseen tasks (mean
 * difference, t-interval)?
 */
import { moments } from '../memory/stat-tests';
import { tQuantile975 } from './effects';
import { ashAbove, ashPosterior, fitAsh } from './ash';
import { verdictOf, MIN_VERIFY_N } from './verify';
import { MIN_PICK_SELECTION, pickSeed, selectionBootstrap } from './pick-bootstrap';
import { leadCells, leadOver, stepDown } from './pick-selective';
import type { PickClaim, Verdict } from './types';
import { ci95Of } from './gauss';
import { oriented, splitMoments, type ScoreTable } from './effects';
import { facetBoards } from './leaderboard';

export const MIN_PICK_PROBABILITY = 0.9;
/** Chance that a new sample of the facet's size shows the pick ahead; tuned on seeds 101–110 (claims-bench). */
export const MIN_PICK_REPLICATION = 0.8;
const MIN_PICK_TASKS = 10;

export type { PickClaim };

export interface PickInput {
  toolIds: readonly string[];
  /** Oriented scores v[j][t] (NaN missing) and scores in scale units: the claims' targets (every rater's mean). */
  v: readonly ArrayLike<number>[];
  scores: readonly ArrayLike<number>[];
  /** Facet membership over the same tasks (every facet of the fit: overlaps are counted once). */
  x: readonly ArrayLike<number>[];
  /** Index of the overall best tool. */
  best: number;
  /** Per facet, the index of its most likely best tool and that probability (null: no pick on it). */
  likelyBest: readonly ({ tool: number; pBest: number } | null)[];
}

interface RawContrast {
  /** Facet-minus-overall mean of d and its Welch standard error (Infinity when a side has < 2 tasks). */
  b: number;
  s: number;
  /** Paired tasks inside the facet, and the variance of d there. */
  n: number;
  variance: number;
}

/** The raw facet-minus-overall contrast of the per-task differences d on one facet. */
function rawContrast(d: ArrayLike<number>, member: ArrayLike<number>): RawContrast {
  const { inside: a, outside: o } = splitMoments(d, member);
  const total = a.n + o.n;
  if (a.n < 2 || o.n < 2) return { b: 0, s: Infinity, n: a.n, variance: a.variance };
  const share = o.n / total;
  return { b: share * (a.mean - o.mean), s: share * Math.sqrt(a.variance / a.n + o.variance / o.n), n: a.n, variance: a.variance };
}

/** A facet whose likely best tool is not the overall best, before any threshold (what pickClaims filters). */
export interface PickCandidate {
  facet: number;
  /** Index of the likely best tool, and its pBest on the facet's leaderboard. */
  tool: number;
  pBest: number;
  /** The posterior's P(pick beats B on the facet), the chance a new sample of the facet's size shows it ahead. */
  probability: number;
  replication: number;
  /** Posterior mean lead and its sd (with se(D)²), paired facet tasks. */
  lead: number;
  sd: number;
  n: number;
}

/** Every candidate pick (likely best ≠ B, ≥ MIN_PICK_TASKS paired facet tasks), read through one adaptive-shrinkage prior. */
export function pickCandidates(input: PickInput): PickCandidate[] {
  const { v, x, best } = input;
  const J = v.length;
  const others = Array.from({ length: J }, (_, k) => k).filter((k) => k !== best);
  const diffs = others.map((k) => leadOver(v[k]!, v[best]!));
  if (!diffs.length) return [];
  // Every (other tool, facet) contrast of the difference feeds one adaptive-shrinkage prior: most
  // are null, so a facet that is large by luck is pulled toward zero, a real one keeps its size.
  const raw = diffs.map((d) => x.map((row) => rawContrast(d, row)));
  const usable = raw.flat().filter((c) => Number.isFinite(c.b) && c.s > 0 && Number.isFinite(c.s));
  if (!usable.length) return [];
  const prior = fitAsh(
    usable.map((c) => c.b),
    usable.map((c) => c.s),
  );
  const out: PickCandidate[] = [];
  input.likelyBest.forEach((lb, f) => {
    if (!lb || lb.tool === best) return;
    const i = others.indexOf(lb.tool);
    const c = raw[i]?.[f];
    if (!c || c.n < MIN_PICK_TASKS || !(c.s > 0) || !Number.isFinite(c.s)) return;
    const all = moments([...diffs[i]!].filter((y) => !Number.isNaN(y)));
    if (all.n < 2) return;
    // The lead on the facet is D (the overall mean difference, se²/n) plus the shrunk contrast.
    const seD2 = all.variance / all.n;
    const parts = ashPosterior(prior, c.b, c.s);
    const m = parts.reduce((a, p) => a + p.weight * p.mean, 0);
    const variance = parts.reduce((a, p) => a + p.weight * (p.variance + p.mean * p.mean), 0) - m * m + seD2;
    out.push({
      facet: f,
      tool: lb.tool,
      pBest: lb.pBest,
      probability: ashAbove(parts, all.mean, seD2),
      replication: ashAbove(parts, all.mean, seD2 + c.variance / c.n),
      lead: all.mean + m,
      sd: Math.sqrt(Math.max(0, variance)),
      n: c.n,
    });
  });
  return out;
}

/**
 * The (facet, tool) leads over B a selection-adjusted test admits, as "facet:tool" keys: at the
 * pick's own levels (a new sample of the facet's size shows it ahead with probability ≥
 * MIN_PICK_REPLICATION, tested at 1 − MIN_PICK_PROBABILITY), every other tool on every facet that
 * may carry a pick being a lead it was chosen among.
 */
export function selectiveAdmits(input: PickInput): Set<string> {
  const cells = leadCells(input.v, input.x, input.best, (f) => input.likelyBest[f] !== null, MIN_PICK_TASKS);
  return stepDown(cells, 1 - MIN_PICK_PROBABILITY, MIN_PICK_REPLICATION);
}

/** The candidates that pass the posterior's thresholds, the selection bootstrap and the selection-adjusted test, as claims. */
export function pickClaims(input: PickInput): PickClaim[] {
  const { v, x, best } = input;
  // Computed once, and only for a build with a candidate past the posterior's thresholds.
  let admitted: Set<string> | undefined;
  return (
    pickCandidates(input)
      .filter((c) => c.probability >= MIN_PICK_PROBABILITY && c.replication >= MIN_PICK_REPLICATION)
      // The posterior does not see that the lead was chosen as one of the largest of every tool × facet
      // lead over B: a test conditioned on that choice (pick-selective.ts).
      .filter((c) => (admitted ??= selectiveAdmits(input)).has(`${c.facet}:${c.tool}`))
      // Nor that it is the facet's largest: redo that choice on resamples of the facet's tasks and keep the
      // pick only where it survives (pick-bootstrap.ts; a lead stable within the training tasks survives it).
      .filter((c) => selectionBootstrap(v, x[c.facet]!, best, c.tool, { seed: pickSeed(c.facet, c.tool) }).share >= MIN_PICK_SELECTION)
      .map((c) => {
        const f = c.facet;
        const mean = (j: number) =>
          moments(Array.from(input.scores[j]!).filter((s, t) => x[f]![t] && !Number.isNaN(v[c.tool]![t]!) && !Number.isNaN(v[best]![t]!) && !Number.isNaN(s)))
            .mean;
        return {
          facet: f,
          toolId: input.toolIds[c.tool]!,
          over: input.toolIds[best]!,
          probability: c.probability,
          lead: c.lead,
          ci95: ci95Of(c.lead, c.sd),
          n: c.n,
          mean: mean(c.tool),
          overMean: mean(best),
          pBest: c.pBest,
        };
      })
  );
}

/**
 * A pick checked on unseen tasks: the mean of (pick − overall best) over the facet's unseen tasks
 * both are scored on, with its t-interval. holds: the interval lies above 0; contradicted: below.
 */
export function verifyPick(
  pick: Pick<PickClaim, 'toolId' | 'over'>,
  v: ReadonlyMap<string, ArrayLike<number>>,
  member: ArrayLike<number>,
  opts: { on: string; at: number; minN?: number },
): Verdict {
  const a = v.get(pick.toolId);
  const b = v.get(pick.over);
  const none: Verdict = { verdict: 'untested', n: 0, delta: null, ci95: null, on: opts.on, checkedAt: opts.at };
  if (!a || !b) return none;
  const m = splitMoments(leadOver(a, b), member).inside;
  if (m.n < 2) return { ...none, n: m.n };
  const se = Math.sqrt(m.variance / m.n);
  const half = se > 0 ? tQuantile975(m.n - 1) * se : 0;
  const ci95: [number, number] = [m.mean - half, m.mean + half];
  return { verdict: verdictOf(1, m.n, m.mean, ci95, opts.minN ?? MIN_VERIFY_N), n: m.n, delta: m.mean, ci95, on: opts.on, checkedAt: opts.at };
}

/**
 * A fit's picks: per facet its likely best tool on the claims' targets (every rater's mean where
 * there are several: what a pick is checked against), then `pickClaims`. Null with fewer than two
 * tools. `eligible`: facets that may carry a pick (not a twin, placeable in free text).
 */
export function picksOf(
  targets: ScoreTable,
  x: readonly ArrayLike<number>[],
  best: number,
  eligible: (f: number) => boolean,
): { input: PickInput; picks: PickClaim[] } | null {
  if (targets.toolIds.length < 2) return null;
  const toolIndex = new Map(targets.toolIds.map((id, j) => [id, j]));
  const vt = oriented(targets);
  // The likely best tool as the facet's board reads it: with each tool's standing on all tasks.
  const { boards } = facetBoards(targets.toolIds, vt, targets.scores, x);
  const likelyBest = boards.map((rows, f) => {
    if (!eligible(f) || !rows.length) return null;
    const top = rows.reduce((a, b) => (b.pBest > a.pBest ? b : a));
    return { tool: toolIndex.get(top.toolId)!, pBest: top.pBest };
  });
  const input: PickInput = { toolIds: targets.toolIds, v: vt, scores: targets.scores, x, best, likelyBest };
  return { input, picks: pickClaims(input) };
}
