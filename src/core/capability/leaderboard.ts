/**
 * Per-facet leaderboards (issue #34): for each facet, every tool's level on its tasks, its rank
 * with a 95% interval, and the probability that it is the best tool there — what people compare
 * models by per category (Chatbot Arena's category leaderboards).
 *
 * Level: the tool's mean on the facet's training tasks (scale units). Ranking and uncertainty use
 * the same tasks paired: c_jt = v_jt − mean over the tools scored on t (oriented scores), so the
 * difficulty every tool shares drops out. Each tool's paired level is ℓ_j = mean of c_jt over the
 * facet's tasks it has, with standard error s_j = sd / √n; the posterior of the levels under a flat
 * prior is taken as independent normals N(ℓ_j, s_j²). From it, exactly (quadrature over tool j's
 * level, and at each point the Poisson-binomial distribution of how many other tools lie above):
 *   P(best) = ∫ φ_j(x) Π_{k≠j} Φ_k(x) dx,   P(rank = r) = ∫ φ_j(x) PB_{r−1}(x) dx,
 * the rank interval being the 2.5% and 97.5% quantiles of that rank distribution.
 *
 * A facet's chance of being best reads its tasks together with each tool's standing on all tasks
 * (`boardPrior`; the level, rank and rank interval stay the facet's tasks alone, what they describe):
 * the facet's paired level ℓ_jf is the tool's overall level L_j plus a facet deviation δ_jf, and the
 * deviations of every (tool, facet) cell of the table share one adaptive-shrinkage prior (ash.ts: a
 * point mass at 0 and zero-mean normals, weights fitted by maximum likelihood). A deviation seen on
 * a few tasks is pulled toward the tool's overall level; a large one seen on many keeps its size (a
 * tool that really falls behind on a facet still does), and a table whose tools rank the same on
 * every facet says so. The posterior level is L_j + E[δ], its variance Var[δ] + s_L². Why: measured
 * on the tuning seeds' builds (101–112, 2,039 facets with ≥ 15 unseen tasks), the likely best tool
 * of the facet-alone boards was the best on the facet's unseen tasks 75% of the time, of these
 * boards 82%; their chances, with the unseen sample's own noise added, came out as stated (0.82
 * stated, 0.82 best) — docs/memory.md.
 * Pure and deterministic.
 */
import { normalCdf } from './gauss';
import { ashPosterior, fitAsh, type AshFit } from './ash';
import type { LeaderRow } from './types';

export type { LeaderRow };

export interface LevelPosterior {
  mean: number;
  sd: number;
}

export interface RankPosterior {
  pBest: number[];
  /** dist[j][r]: P(tool j has rank r + 1). */
  dist: number[][];
}

// Quadrature over z = (x − ℓ_j)/s_j on [−7, 7]: the trapezoid rule is spectrally accurate for
// smooth integrands under a Gaussian weight.
const Z_STEP = 0.0625;
const Z_NODES = Array.from({ length: Math.round(14 / Z_STEP) + 1 }, (_, i) => -7 + i * Z_STEP);
const PHI = Z_NODES.map((z) => (Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI)) * Z_STEP);

/** P(best) and the rank distribution of independent normal levels (higher is better). */
export function rankPosterior(levels: readonly LevelPosterior[]): RankPosterior {
  const J = levels.length;
  const pBest: number[] = [];
  const dist: number[][] = [];
  const pb = new Float64Array(J);
  for (let j = 0; j < J; j++) {
    const me = levels[j]!;
    const row = new Array<number>(J).fill(0);
    if (!(me.sd > 0)) {
      // A known level: the others' chances of lying above it, at one point.
      addRanks(row, pb, levels, j, me.mean, 1);
    } else {
      for (let i = 0; i < Z_NODES.length; i++) addRanks(row, pb, levels, j, me.mean + me.sd * Z_NODES[i]!, PHI[i]!);
    }
    const total = row.reduce((a, b) => a + b, 0);
    dist.push(row.map((p) => (total > 0 ? p / total : 0)));
    pBest.push(dist[j]![0]!);
  }
  return { pBest, dist };
}

/**
 * Adds weight × the Poisson-binomial distribution of "other tools above x" to row[r]. `pb` is scratch
 * (length ≥ J), updated in place from the top down: pb'[r] = pb[r−1]·above + pb[r]·(1 − above).
 */
function addRanks(row: number[], pb: Float64Array, levels: readonly LevelPosterior[], j: number, x: number, weight: number): void {
  pb[0] = 1;
  let len = 1;
  for (let k = 0; k < levels.length; k++) {
    if (k === j) continue;
    const o = levels[k]!;
    const above = o.sd > 0 ? 1 - normalCdf((x - o.mean) / o.sd) : o.mean > x ? 1 : 0;
    const below = 1 - above;
    pb[len] = pb[len - 1]! * above;
    for (let r = len - 1; r >= 1; r--) pb[r] = pb[r - 1]! * above + pb[r]! * below;
    pb[0] = pb[0]! * below;
    len++;
  }
  for (let r = 0; r < len; r++) row[r] = row[r]! + weight * pb[r]!;
}

/** The 2.5% and 97.5% quantiles of a rank distribution (ranks 1-based). */
export function rankInterval(dist: readonly number[]): [number, number] {
  let acc = 0;
  let lo = 1;
  let hi = dist.length;
  let loSet = false;
  for (let r = 0; r < dist.length; r++) {
    acc += dist[r]!;
    if (!loSet && acc > 0.025) {
      lo = r + 1;
      loSet = true;
    }
    if (acc >= 0.975 - 1e-12) {
      hi = r + 1;
      break;
    }
  }
  return [lo, Math.max(lo, hi)];
}

/** A tool's paired level on some tasks: the mean of c_jt, its standard error (Infinity below 2 tasks), and the tasks. */
export interface PairedLevel {
  mean: number;
  se: number;
  n: number;
}

/** Every tool's paired level on the tasks `member` selects (null where the tool has none), and its mean in scale units. */
export function pairedLevels(
  v: readonly ArrayLike<number>[],
  scores: readonly ArrayLike<number>[],
  member: ArrayLike<number>,
): { levels: (PairedLevel | null)[]; means: number[] } {
  const J = v.length;
  const n = member.length;
  const sums = new Float64Array(J);
  const squares = new Float64Array(J);
  const raw = new Float64Array(J);
  const counts = new Int32Array(J);
  for (let t = 0; t < n; t++) {
    if (!member[t]) continue;
    let s = 0;
    let c = 0;
    for (let j = 0; j < J; j++) {
      if (!Number.isNaN(v[j]![t]!)) {
        s += v[j]![t]!;
        c++;
      }
    }
    if (c === 0) continue;
    const m = s / c;
    for (let j = 0; j < J; j++) {
      const x = v[j]![t]!;
      if (Number.isNaN(x)) continue;
      counts[j] = counts[j]! + 1;
      sums[j] = sums[j]! + (x - m);
      squares[j] = squares[j]! + (x - m) ** 2;
      raw[j] = raw[j]! + scores[j]![t]!;
    }
  }
  const levels = Array.from({ length: J }, (_, j): PairedLevel | null => {
    const k = counts[j]!;
    if (k === 0) return null;
    const mean = sums[j]! / k;
    const variance = k > 1 ? Math.max(0, (squares[j]! - k * mean * mean) / (k - 1)) : 0;
    return { mean, se: k > 1 ? Math.sqrt(variance / k) : Infinity, n: k };
  });
  return { levels, means: Array.from(raw, (r, j) => (counts[j]! > 0 ? r / counts[j]! : NaN)) };
}

/** What a facet's board is read together with: each tool's level on all tasks, and the prior of facet deviations. */
export interface BoardPrior {
  overall: (PairedLevel | null)[];
  fit: AshFit;
}

/** The prior of a table's facet boards: overall paired levels, and one adaptive-shrinkage fit over every cell with ≥ 2 tasks. */
export function boardPrior(v: readonly ArrayLike<number>[], scores: readonly ArrayLike<number>[], x: readonly ArrayLike<number>[]): BoardPrior {
  return priorOf(
    overallLevels(v, scores),
    x.map((member) => pairedLevels(v, scores, member).levels),
  );
}

function overallLevels(v: readonly ArrayLike<number>[], scores: readonly ArrayLike<number>[]): (PairedLevel | null)[] {
  return pairedLevels(v, scores, new Uint8Array(v[0]?.length ?? 0).fill(1)).levels;
}

/** The prior from the overall levels and every facet's levels (the deviations ℓ − L of the cells with a finite, positive se). */
function priorOf(overall: (PairedLevel | null)[], facets: readonly (PairedLevel | null)[][]): BoardPrior {
  const b: number[] = [];
  const s: number[] = [];
  for (const levels of facets) {
    levels.forEach((l, j) => {
      const o = overall[j];
      if (!l || !o || !(l.se > 0) || !Number.isFinite(l.se)) return;
      b.push(l.mean - o.mean);
      s.push(l.se);
    });
  }
  // No cell to learn from: every facet reads the tool's overall level.
  return { overall, fit: b.length ? fitAsh(b, s) : { sd: [0], weight: [1] } };
}

/**
 * Every facet's board of a table, read with one prior fitted over all of them (`boardPrior`); each
 * facet's paired levels are computed once, for the prior and its board alike.
 */
export function facetBoards(
  toolIds: readonly string[],
  v: readonly ArrayLike<number>[],
  scores: readonly ArrayLike<number>[],
  x: readonly ArrayLike<number>[],
): { boards: LeaderRow[][]; prior: BoardPrior } {
  const paired = x.map((member) => pairedLevels(v, scores, member));
  const prior = priorOf(
    overallLevels(v, scores),
    paired.map((p) => p.levels),
  );
  return { boards: paired.map((p) => boardOf(toolIds, p, prior)), prior };
}

/**
 * A facet level read with the tool's overall level: L + E[δ | ℓ − L], variance Var[δ | ℓ − L] + s_L²
 * under the prior `fit` (a level from one task, s = ∞, is the overall level with the prior's variance).
 */
export function shrunkLevel(raw: PairedLevel, overall: PairedLevel, fit: AshFit): LevelPosterior {
  const sL2 = Number.isFinite(overall.se) ? overall.se * overall.se : 0;
  if (!Number.isFinite(raw.se)) {
    const spread = fit.sd.reduce((a, sd, k) => a + fit.weight[k]! * sd * sd, 0);
    return { mean: overall.mean, sd: Math.sqrt(spread + sL2) };
  }
  const parts = ashPosterior(fit, raw.mean - overall.mean, raw.se);
  const m = parts.reduce((a, p) => a + p.weight * p.mean, 0);
  const variance = parts.reduce((a, p) => a + p.weight * (p.variance + p.mean * p.mean), 0) - m * m;
  return { mean: overall.mean + m, sd: Math.sqrt(Math.max(0, variance) + sL2) };
}

/**
 * The leaderboard of one facet: `v` oriented scores (NaN missing), `scores` in scale units, `member`
 * the facet's tasks. Level, rank and rank interval are the facet's tasks alone; with `prior`, the chance
 * of being best reads them together with each tool's overall level (`boardPrior`), without it (the
 * all-tasks board) the tasks alone. Tools without a task on the facet are left out. Rows sorted by
 * rank, then id.
 */
export function facetLeaderboard(
  toolIds: readonly string[],
  v: readonly ArrayLike<number>[],
  scores: readonly ArrayLike<number>[],
  member: ArrayLike<number>,
  prior?: BoardPrior,
): LeaderRow[] {
  return boardOf(toolIds, pairedLevels(v, scores, member), prior);
}

function boardOf(toolIds: readonly string[], paired: ReturnType<typeof pairedLevels>, prior?: BoardPrior): LeaderRow[] {
  const { present, raw, levels, means } = readLevels(paired, prior);
  // Rank and its interval describe these tasks (the facet alone, as a claim's "5th of 6" does); the
  // chance of being best looks ahead to tasks like these, so it reads the prior when there is one.
  const alone = rankPosterior(widen(raw.map((l) => ({ mean: l.mean, sd: l.se }))));
  const ahead = prior ? rankPosterior(widen(levels)) : alone;
  const rows = present.map((j, i) => ({
    toolId: toolIds[j]!,
    n: raw[i]!.n,
    mean: means[j]!,
    rank: 1 + raw.filter((o) => o.mean > raw[i]!.mean).length,
    rankCi95: rankInterval(alone.dist[i]!),
    pBest: ahead.pBest[i]!,
  }));
  return rows.sort((a, b) => a.rank - b.rank || (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0));
}

/** A level from one task (sd ∞) has no spread of its own: ten times the widest finite one, rather than a certain level. */
function widen(levels: readonly LevelPosterior[]): LevelPosterior[] {
  const width = Math.max(1e-9, ...levels.filter((l) => Number.isFinite(l.sd)).map((l) => l.sd));
  return levels.map((l) => ({ mean: l.mean, sd: Number.isFinite(l.sd) ? l.sd : 10 * width }));
}

/**
 * The posterior levels behind a board: the tools with a task on `member` (indices), their raw paired
 * levels, their posteriors (read with `prior` when given) and their means in scale units (all tools).
 */
export function boardLevels(
  v: readonly ArrayLike<number>[],
  scores: readonly ArrayLike<number>[],
  member: ArrayLike<number>,
  prior?: BoardPrior,
): { present: number[]; raw: PairedLevel[]; levels: LevelPosterior[]; means: number[] } {
  return readLevels(pairedLevels(v, scores, member), prior);
}

function readLevels(
  { levels: all, means }: ReturnType<typeof pairedLevels>,
  prior?: BoardPrior,
): { present: number[]; raw: PairedLevel[]; levels: LevelPosterior[]; means: number[] } {
  const present = all.flatMap((l, j) => (l ? [j] : []));
  const raw = present.map((j) => all[j]!);
  const levels = present.map((j, i): LevelPosterior => {
    const o = prior?.overall[j];
    return prior && o ? shrunkLevel(raw[i]!, o, prior.fit) : { mean: raw[i]!.mean, sd: raw[i]!.se };
  });
  return { present, raw, levels, means };
}
