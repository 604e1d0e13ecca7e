/**
 * Effects: what a score table says about each tool on each facet (issue #15, part 2).
 *
 * Scores are first ORIENTED (negated on lower-better scales) so every delta reads "positive = better
 * for the tool"; `mean` and `toolMean` stay in the scale's own units.
 *
 * For tool j and facet f (members M; "in" = members the tool has a score on, "out" = the rest):
 *   deltaOwn      = mean_in(v) − mean_all(v)                       v = the tool's oriented score
 *   deltaVsOthers = mean_in(a) − mean_all(a)   a_t = v_jt − mean over the OTHER tools scored on t
 *                   (paired by task: only tasks where j and at least one other tool are scored)
 * Both are "facet mean minus overall mean" of one per-task quantity x, which is exactly
 *   (n_out / N)·(mean_in(x) − mean_out(x)),
 * so the interval and p come from Welch's two-sample t-test of in vs out, scaled by n_out / N.
 * ci95 is that t-interval (Welch–Satterthwaite df), not a bootstrap: deterministic, closed form and
 * cheap enough for every tool × facet of a build. The headline is deltaVsOthers when the table has
 * ≥ 2 tools, else deltaOwn. An effect is TESTED when in and out both have ≥ 2 tasks; untested
 * effects get p = q = 1 and a ci95 as wide as the scale (they are left out of the BH family).
 * q: Benjamini–Hochberg over all tested tool × facet headlines (qOwn: over the own deltas).
 * Shared effect of a facet (the dataset-level note): the same statistic on the task's mean oriented
 * deviation over the tools that scored it, d_t = mean_j (v_jt − μ_j); its own BH family.
 */
import { moments, tTestP, welch, type Moments } from '../memory/stat-tests';
import type { TrainingSet } from '../predict/types';
import type { ScoreScale } from '../types';
import { bhQValues } from './bh';
import type { DiscoveredFacet, Effect } from './types';
import { Z95 } from './gauss';

export interface ScoreTable {
  taskIds: readonly string[];
  toolIds: readonly string[];
  /** scores[tool][task] in scale units; NaN where the tool has no score on the task. */
  scores: readonly ArrayLike<number>[];
  scale: ScoreScale;
}

export interface ToolFacetEffect {
  toolId: string;
  /** Index into the facet list given to `computeEffects`. */
  facet: number;
  tested: boolean;
  effect: Effect;
}

export interface SharedEffect {
  facet: number;
  n: number;
  /** Facet mean minus overall mean of the task's mean deviation over tools (oriented). */
  delta: number;
  ci95: [number, number];
  p: number;
  q: number;
  tested: boolean;
}

export interface EffectTable {
  effects: ToolFacetEffect[];
  shared: SharedEffect[];
}

const T975 = new Map<number, number>();
/** Two-sided 95% Student t quantile, by bisection on the exact p (cached by df to 0.01). */
export function tQuantile975(df: number): number {
  if (!(df > 0)) return Infinity;
  if (df > 1e4) return Z95;
  const key = Math.round(df * 100) / 100;
  const hit = T975.get(key);
  if (hit !== undefined) return hit;
  let lo = 0;
  let hi = 1000;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (tTestP(mid, key) > 0.05) lo = mid;
    else hi = mid;
  }
  T975.set(key, (lo + hi) / 2);
  return (lo + hi) / 2;
}

interface Contrast {
  n: number;
  delta: number;
  ci: [number, number];
  p: number;
  tested: boolean;
}

/** Scratch rows for `splitMoments` (a build calls it thousands of times; reused instead of two arrays per call). */
const scratch = { inside: new Float64Array(0), outside: new Float64Array(0) };

/**
 * moments() of the numbers of x (NaN skipped) on the member tasks and on the others: the same as
 * collecting both sides into arrays first, without the arrays.
 */
export function splitMoments(x: ArrayLike<number>, member: ArrayLike<number>): { inside: Moments; outside: Moments } {
  if (scratch.inside.length < member.length) scratch.inside = new Float64Array(member.length);
  if (scratch.outside.length < member.length) scratch.outside = new Float64Array(member.length);
  const { inside, outside } = scratch;
  let ni = 0;
  let no = 0;
  for (let t = 0; t < member.length; t++) {
    const v = x[t]!;
    if (Number.isNaN(v)) continue;
    if (member[t]) inside[ni++] = v;
    else outside[no++] = v;
  }
  return { inside: moments(inside, ni), outside: moments(outside, no) };
}

/** Facet mean minus overall mean of x over the rows where x is a number, with its Welch interval. */
function contrast(x: ArrayLike<number>, member: Uint8Array, width: number): Contrast {
  const { inside: a, outside: b } = splitMoments(x, member);
  const total = a.n + b.n;
  if (a.n < 2 || b.n < 2) {
    const delta = a.n > 0 && b.n > 0 ? (b.n / total) * (a.mean - b.mean) : 0;
    return { n: a.n, delta, ci: [delta - width, delta + width], p: 1, tested: false };
  }
  const scale = b.n / total;
  const delta = scale * (a.mean - b.mean);
  const w = welch(a, b);
  const se = Math.sqrt(a.variance / a.n + b.variance / b.n) * scale;
  const half = se === 0 ? 0 : tQuantile975(w.df) * se;
  return { n: a.n, delta, ci: [delta - half, delta + half], p: w.p, tested: true };
}

/** Mean of row over the tasks in `member` where it is a number (NaN if none): moments(…).mean, same order. */
function meanWhere(row: Float64Array, member: Uint8Array): number {
  let s = 0;
  let c = 0;
  for (let t = 0; t < row.length; t++) {
    if (member[t] && !Number.isNaN(row[t]!)) {
      s += row[t]!;
      c++;
    }
  }
  return c === 0 ? NaN : s / c;
}

/** Membership of each facet as a 0/1 row over the table's tasks (unknown task ids are ignored). */
export function membership(table: ScoreTable, facets: readonly DiscoveredFacet[]): Uint8Array[] {
  const index = new Map(table.taskIds.map((id, t) => [id, t]));
  return facets.map((f) => {
    const row = new Uint8Array(table.taskIds.length);
    for (const id of f.taskIds) {
      const t = index.get(id);
      if (t !== undefined) row[t] = 1;
    }
    return row;
  });
}

/** Oriented scores (negated on lower-better scales), NaN where missing. */
export function oriented(table: ScoreTable): Float64Array[] {
  const sign = table.scale.direction === 'lower-better' ? -1 : 1;
  return table.scores.map((row) => Float64Array.from({ length: table.taskIds.length }, (_, t) => sign * row[t]!));
}

/**
 * a[j][t]: tool j's advantage over the other tools' mean on task t, from oriented scores `v`
 * (NaN where the tool has no score or no other tool has one). The one definition of the paired
 * contrast: effects, claims and profiles all read it.
 */
export function advantages(v: readonly Float64Array[]): Float64Array[] {
  return v.map((row, j) =>
    Float64Array.from({ length: row.length }, (_, t) => {
      if (Number.isNaN(row[t]!)) return NaN;
      let s = 0;
      let c = 0;
      for (let k = 0; k < v.length; k++) {
        if (k !== j && !Number.isNaN(v[k]![t]!)) {
          s += v[k]![t]!;
          c++;
        }
      }
      return c > 0 ? row[t]! - s / c : NaN;
    }),
  );
}

export function computeEffects(table: ScoreTable, facets: readonly DiscoveredFacet[]): EffectTable {
  const { scale } = table;
  const sign = scale.direction === 'lower-better' ? -1 : 1;
  const width = scale.max - scale.min;
  const nTasks = table.taskIds.length;
  const nTools = table.toolIds.length;
  const v = oriented(table);
  const toolMean = v.map((row) => moments([...row].filter((x) => !Number.isNaN(x))).mean);
  const adv = advantages(v);
  const members = membership(table, facets);
  const usual = adv.map((row) => moments([...row].filter((x) => !Number.isNaN(x))).mean);
  const effects: ToolFacetEffect[] = [];
  const pHead: number[] = [];
  const pOwn: number[] = [];
  members.forEach((member, f) => {
    const means = v.map((row) => meanWhere(row, member));
    const ranked = means.filter((m) => !Number.isNaN(m));
    for (let j = 0; j < nTools; j++) {
      const own = contrast(v[j]!, member, width);
      const rel = nTools > 1 ? contrast(adv[j]!, member, width) : null;
      const head = rel ?? own;
      const effect: Effect = {
        n: head.n,
        deltaOwn: own.delta,
        deltaVsOthers: rel ? rel.delta : null,
        ci95: head.ci,
        q: 1,
        ci95Own: own.ci,
        p: head.p,
        pOwn: own.p,
        qOwn: 1,
        nOwn: own.n,
        mean: sign * means[j]!,
        toolMean: sign * toolMean[j]!,
        of: ranked.length,
      };
      // The others' level on the same tasks, defined so that mean − othersMean is exactly the
      // tool's mean advantage over the other tools on the facet's paired tasks (what the text's
      // "above / below the other tools" is decided by).
      if (nTools > 1 && Number.isFinite(usual[j]!)) effect.usual = usual[j]!;
      if (nTools > 1 && !Number.isNaN(means[j]!)) {
        let s = 0;
        let c = 0;
        for (let t = 0; t < nTasks; t++)
          if (member[t] && !Number.isNaN(adv[j]![t]!)) {
            s += adv[j]![t]!;
            c++;
          }
        if (c > 0) effect.othersMean = sign * (means[j]! - s / c);
      }
      if (!Number.isNaN(means[j]!)) effect.rank = 1 + ranked.filter((m) => m > means[j]!).length;
      effects.push({ toolId: table.toolIds[j]!, facet: f, tested: head.tested, effect });
      pHead.push(head.tested ? head.p : NaN);
      pOwn.push(own.tested ? own.p : NaN);
    }
  });
  const qHead = bhQValues(pHead);
  const qOwn = bhQValues(pOwn);
  effects.forEach((e, i) => {
    e.effect.q = Number.isNaN(qHead[i]!) ? 1 : qHead[i]!;
    e.effect.qOwn = Number.isNaN(qOwn[i]!) ? 1 : qOwn[i]!;
  });
  return { effects, shared: sharedEffects(v, toolMean, members, width) };
}

/**
 * The dataset-level note's statistic per facet: facet minus overall of each task's mean oriented
 * deviation over the tools that scored it, d_t = mean_j (v_jt − μ_j); its own BH family.
 */
function sharedEffects(v: readonly Float64Array[], toolMean: readonly number[], members: readonly Uint8Array[], width: number): SharedEffect[] {
  const nTasks = v[0]?.length ?? 0;
  const difficulty = Float64Array.from({ length: nTasks }, (_, t) => {
    let s = 0;
    let c = 0;
    for (let j = 0; j < v.length; j++)
      if (!Number.isNaN(v[j]![t]!)) {
        s += v[j]![t]! - toolMean[j]!;
        c++;
      }
    return c > 0 ? s / c : NaN;
  });
  const shared: SharedEffect[] = members.map((member, f) => {
    const c = contrast(difficulty, member, width);
    return { facet: f, n: c.n, delta: c.delta, ci95: c.ci, p: c.p, q: 1, tested: c.tested };
  });
  const qShared = bhQValues(shared.map((s) => (s.tested ? s.p : NaN)));
  shared.forEach((s, f) => (s.q = Number.isNaN(qShared[f]!) ? 1 : qShared[f]!));
  return shared;
}

/** A training set as a score table (ground truth; tasks and tools in id order). */
export function scoreTableFromSet(set: TrainingSet): ScoreTable {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const taskIds = [...new Set(set.examples.map((e) => e.taskId))].sort(cmp);
  const toolIds = [...new Set(set.examples.map((e) => e.toolId))].sort(cmp);
  const ti = new Map(taskIds.map((id, t) => [id, t]));
  const ji = new Map(toolIds.map((id, j) => [id, j]));
  const scores = toolIds.map(() => new Float64Array(taskIds.length).fill(NaN));
  for (const e of set.examples) if (Number.isFinite(e.score)) scores[ji.get(e.toolId)!]![ti.get(e.taskId)!] = e.score;
  return { taskIds, toolIds, scores, scale: set.scale };
}
