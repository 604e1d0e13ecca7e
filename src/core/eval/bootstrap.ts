/**
 * Paired bootstrap by task: 95% percentile intervals for MAE, RMSE, Pearson (per tool, and their
 * mean over tools as the report's `mean`), pair accuracy (mean over tool pairs) and oracle gap
 * captured, per method, and every method's difference to a baseline method with a verdict.
 *
 *  - Paired: each resample draws test-task indices with replacement ONCE per seed and every method
 *    is scored on those same tasks, so the differences keep the tasks' shared difficulty out.
 *  - Several seeds: each seed's test tasks are resampled independently and a resample's metric is
 *    the mean over seeds (NaN skipped, as the report averages seeds).
 *  - A method scored on fewer tasks (LLM methods: the first N of each split) is compared with the
 *    baseline on those same tasks, so its difference is like for like.
 *  - Fast: a resample is a vector of multinomial counts; metrics are weighted sums over the
 *    distinct drawn tasks of typed arrays (no arrays are copied per resample).
 *  - Bounds are the 2.5% / 97.5% percentiles (linear interpolation, R type 7) of the finite
 *    resampled values; null when fewer than half the resamples give a finite value (e.g. the
 *    Pearson r of a constant predictor).
 */
import { dict } from '../data-keys';
import type { EvalReport } from './evaluate';
import { createRng } from './rng';
import { accumulate, metricsFrom, scoreTables, METRICS, type IntervalMetric, type SeedTables } from './bootstrap-metrics';

export type { IntervalMetric } from './bootstrap-metrics';

/** A 95% paired-bootstrap interval (percentile) around the point estimate; null bounds where undefined. */
export interface Interval {
  /** The point estimate on the full test set (mean over seeds). */
  mean: number | null;
  lo: number | null;
  hi: number | null;
}

/** "clearly better / no clear difference / clearly worse" than the baseline (the interval of the difference excludes 0 or not). */
export type Verdict = 'better' | 'same' | 'worse';

/** One method's intervals, and its difference to the baseline method (method − baseline) with a verdict. */
export interface MethodIntervals {
  metrics: Record<IntervalMetric, Interval>;
  /** Absent for the baseline itself. */
  vsBaseline?: Record<IntervalMetric, { diff: Interval; verdict: Verdict }>;
  /** Per tool (ids are data: null-prototype dictionaries): MAE, RMSE, Pearson intervals. */
  tools: Record<string, Record<'mae' | 'rmse' | 'pearson', Interval>>;
}

/** Paired bootstrap by task (the same resampled test tasks for every method, per seed, seeded). */
export interface EvalIntervals {
  /** The method the differences are taken against ('tool-mean' when it ran, else the first method). */
  baseline: string;
  resamples: number;
  /** The bootstrap's RNG seed. */
  seed: number;
  level: 0.95;
  methods: Record<string, MethodIntervals>;
}

export interface BootstrapOptions {
  /** Resamples (default 1,000; at least 1). */
  resamples?: number;
  /** RNG seed (default 1); each evaluation seed gets its own stream mixed from it. */
  seed?: number;
  /** Default: 'tool-mean' when it ran, else the first method. */
  baseline?: string;
  /**
   * Test hook: the task indices (0…n−1, with repeats) of resample `b` on the `s`-th seed.
   * Default: n uniform draws from the seeded RNG.
   */
  draw?(s: number, b: number, n: number): ArrayLike<number>;
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
  /** Awaited every few resamples, so a worker can take a cancel message meanwhile. */
  pause?(): Promise<void>;
}

export const DEFAULT_RESAMPLES = 1000;
const LOWER_IS_BETTER: ReadonlySet<IntervalMetric> = new Set(['mae', 'rmse']);
const TOOL_METRICS = ['mae', 'rmse', 'pearson'] as const;
const CHUNK = 25;

/** Percentile (R type 7) of ascending `sorted`. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

const nul = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Interval from the point estimate and the resampled values (NaN = undefined in that resample). */
export function percentileInterval(point: number, values: ArrayLike<number>, level = 0.95): Interval {
  const finite: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!)) finite.push(values[i]!);
  if (finite.length * 2 < values.length || finite.length === 0) return { mean: nul(point), lo: null, hi: null };
  finite.sort((a, b) => a - b);
  const a = (1 - level) / 2;
  return { mean: nul(point), lo: percentile(finite, a), hi: percentile(finite, 1 - a) };
}

/** better / same / worse from the interval of (method − baseline); lower is better for MAE and RMSE. */
export function verdictOf(metric: IntervalMetric, diff: Interval): Verdict {
  if (diff.lo === null || diff.hi === null) return 'same';
  const higher = diff.lo > 0;
  const lower = diff.hi < 0;
  if (!higher && !lower) return 'same';
  return higher !== LOWER_IS_BETTER.has(metric) ? 'better' : 'worse';
}

/** Mean over seeds with NaN skipped: sums and counts per slot. */
class SeedMean {
  readonly sum: Float64Array;
  readonly count: Uint16Array;
  constructor(slots: number) {
    this.sum = new Float64Array(slots);
    this.count = new Uint16Array(slots);
  }
  add(slot: number, v: number): void {
    if (!Number.isFinite(v)) return;
    this.sum[slot]! += v;
    this.count[slot]!++;
  }
  value(slot: number): number {
    return this.count[slot]! > 0 ? this.sum[slot]! / this.count[slot]! : NaN;
  }
  values(slots: number): Float64Array {
    const out = new Float64Array(slots);
    for (let b = 0; b < slots; b++) out[b] = this.value(b);
    return out;
  }
}

/** Multinomial counts of `n` draws as (distinct index ascending, count) — only tasks drawn at least once. */
function countsOf(indices: ArrayLike<number>, n: number, counts: Uint32Array, idx: Int32Array, cnt: Float64Array): number {
  counts.fill(0);
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k]!;
    if (!Number.isInteger(i) || i < 0 || i >= n) throw new RangeError(`bootstrap: task index ${i} outside 0…${n - 1}`);
    counts[i]!++;
  }
  let d = 0;
  for (let i = 0; i < n; i++) {
    if (counts[i]! > 0) {
      idx[d] = i;
      cnt[d] = counts[i]!;
      d++;
    }
  }
  return d;
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/**
 * The intervals of a report (its seeds' `matrix`). Slot B (after the B resamples) holds the point
 * estimate: every test task once.
 */
export async function bootstrapIntervals(report: EvalReport, opts: BootstrapOptions = {}): Promise<EvalIntervals> {
  const B = opts.resamples ?? DEFAULT_RESAMPLES;
  if (!Number.isInteger(B) || B < 1) throw new RangeError(`bootstrap: resamples must be a whole number ≥ 1, got ${B}`);
  const bootSeed = opts.seed ?? 1;
  const methods = report.methods;
  const baseline = opts.baseline ?? (methods.includes('tool-mean') ? 'tool-mean' : methods[0]);
  if (baseline === undefined || !methods.includes(baseline)) throw new RangeError(`bootstrap: baseline ${String(baseline)} is not one of the methods`);
  const T = report.tools.length;
  const slots = B + 1;
  const own = methods.map(() => METRICS.map(() => new SeedMean(slots)));
  // For the differences: the method and the baseline on the tasks both were scored on.
  const mine = methods.map(() => METRICS.map(() => new SeedMean(slots)));
  const base = methods.map(() => METRICS.map(() => new SeedMean(slots)));
  const tool = methods.map(() => report.tools.map(() => TOOL_METRICS.map(() => new SeedMean(slots))));
  const bi = methods.indexOf(baseline);
  const total = report.seeds.length * B;
  let done = 0;

  for (const [s, seed] of report.seeds.entries()) {
    const tables: SeedTables = scoreTables(seed.matrix, methods, report.toolPairs);
    const { n, F, limits } = tables;
    const rng = createRng((bootSeed * 0x9e3779b1) ^ Math.imul(seed.seed + 1, 0x85ebca6b));
    const counts = new Uint32Array(n);
    const idx = new Int32Array(n);
    const cnt = new Float64Array(n);
    const draws = new Int32Array(n);
    const acc = new Float64Array(F);
    const sums = new Float64Array(F * limits.length);
    const at = (limit: number) => F * limits.indexOf(limit);
    const scratch = new Float64Array(3 * T + METRICS.length);
    const common = methods.map((_, m) => Math.min(tables.scored[m]!, tables.scored[bi]!));
    for (let b = 0; b <= B; b++) {
      let distinct: number;
      if (b === B) {
        for (let i = 0; i < n; i++) {
          idx[i] = i;
          cnt[i] = 1;
        }
        distinct = n;
      } else {
        let indices: ArrayLike<number> = draws;
        if (opts.draw) indices = opts.draw(s, b, n);
        else for (let k = 0; k < n; k++) draws[k] = rng.int(n);
        distinct = countsOf(indices, n, counts, idx, cnt);
      }
      accumulate(tables, idx, cnt, distinct, acc, sums);
      for (let m = 0; m < methods.length; m++) {
        const limit = tables.scored[m]!;
        metricsFrom(tables, sums, at(limit), m, scratch);
        for (let k = 0; k < METRICS.length; k++) own[m]![k]!.add(b, scratch[3 * T + k]!);
        for (let j = 0; j < T; j++) for (let k = 0; k < 3; k++) tool[m]![j]![k]!.add(b, scratch[3 * j + k]!);
        if (m === bi) continue;
        // The difference on the tasks both were scored on.
        if (common[m]! < limit) metricsFrom(tables, sums, at(common[m]!), m, scratch);
        for (let k = 0; k < METRICS.length; k++) mine[m]![k]!.add(b, scratch[3 * T + k]!);
        metricsFrom(tables, sums, at(common[m]!), bi, scratch);
        for (let k = 0; k < METRICS.length; k++) base[m]![k]!.add(b, scratch[3 * T + k]!);
      }
      if (b < B && ++done % CHUNK === 0) {
        throwIfAborted(opts.signal);
        opts.onProgress?.(done, total);
        await opts.pause?.();
      }
    }
  }
  throwIfAborted(opts.signal);

  const out = methodIntervals(report, B, bi, { own, mine, base, tool });
  return { baseline, resamples: B, seed: bootSeed, level: 0.95, methods: out };
}

/** The seed means after the resamples: each method's metrics, per tool, and its difference from the baseline's. */
interface Accumulated {
  own: SeedMean[][];
  mine: SeedMean[][];
  base: SeedMean[][];
  tool: SeedMean[][][];
}

/** Percentile intervals from the accumulated resamples (slot B: the point estimate). */
function methodIntervals(report: EvalReport, B: number, bi: number, { own, mine, base, tool }: Accumulated): Record<string, MethodIntervals> {
  const out = dict<MethodIntervals>(); // method ids come from the caller: null prototype
  for (const [m, id] of report.methods.entries()) {
    const interval = (sm: SeedMean) => percentileInterval(sm.value(B), sm.values(B));
    const metrics = Object.fromEntries(METRICS.map((k, ki) => [k, interval(own[m]![ki]!)])) as Record<IntervalMetric, Interval>;
    const tools = dict<Record<'mae' | 'rmse' | 'pearson', Interval>>();
    for (const [j, t] of report.tools.entries()) {
      // A tool this method never predicted (no finite point estimate anywhere) is left out.
      if (tool[m]![j]!.every((sm) => sm.count.every((c) => c === 0))) continue;
      tools[t] = Object.fromEntries(TOOL_METRICS.map((k, ki) => [k, interval(tool[m]![j]![ki]!)])) as Record<'mae' | 'rmse' | 'pearson', Interval>;
    }
    const entry: MethodIntervals = { metrics, tools };
    if (m !== bi) {
      const vs = METRICS.map((k, ki) => {
        const a = mine[m]![ki]!;
        const c = base[m]![ki]!;
        const diffs = new Float64Array(B);
        for (let b = 0; b < B; b++) diffs[b] = a.value(b) - c.value(b);
        const diff = percentileInterval(a.value(B) - c.value(B), diffs);
        return [k, { diff, verdict: verdictOf(k, diff) }] as const;
      });
      entry.vsBaseline = Object.fromEntries(vs) as Record<IntervalMetric, { diff: Interval; verdict: Verdict }>;
    }
    out[id] = entry;
  }
  return out;
}

/** A pause that lets a worker's event loop run (messages such as a cancel) between chunks. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
