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
 * Pure and deterministic.
 */
import { normalCdf } from './gauss';
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

/**
 * The leaderboard of one facet: `v` oriented scores (NaN missing), `scores` in scale units, `member`
 * the facet's tasks. Tools without a task on the facet are left out. Rows sorted by rank, then id.
 */
export function facetLeaderboard(
  toolIds: readonly string[],
  v: readonly ArrayLike<number>[],
  scores: readonly ArrayLike<number>[],
  member: ArrayLike<number>,
): LeaderRow[] {
  const J = toolIds.length;
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
  const present = toolIds.map((_, j) => j).filter((j) => counts[j]! > 0);
  const levels = present.map((j) => {
    const k = counts[j]!;
    const mean = sums[j]! / k;
    const variance = k > 1 ? Math.max(0, (squares[j]! - k * mean * mean) / (k - 1)) : 0;
    return { mean, sd: k > 1 ? Math.sqrt(variance / k) : Infinity };
  });
  // A tool with one task has no spread: a wide posterior rather than a certain one.
  const width = Math.max(1e-9, ...levels.filter((l) => Number.isFinite(l.sd)).map((l) => l.sd));
  const posterior = rankPosterior(levels.map((l) => ({ mean: l.mean, sd: Number.isFinite(l.sd) ? l.sd : 10 * width })));
  const rows = present.map((j, i) => ({
    toolId: toolIds[j]!,
    n: counts[j]!,
    mean: raw[j]! / counts[j]!,
    rank: 1 + levels.filter((o) => o.mean > levels[i]!.mean).length,
    rankCi95: rankInterval(posterior.dist[i]!),
    pBest: posterior.pBest[i]!,
  }));
  return rows.sort((a, b) => a.rank - b.rank || (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0));
}
