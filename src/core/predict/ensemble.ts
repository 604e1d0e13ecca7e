/**
 * `ensemble`: the best offline method — stacked kernel ridge on prompt features, with every
 * choice made by cross-validation INSIDE the training split (test scores are never seen).
 *
 * 1. Features: the shared prompt kernel (TF-IDF words + bigrams, prompt-shape cues, the caller's
 *    dense vectors when given, plus a squared term) — prompt-kernel.ts.
 * 2. Targets (training tasks): each tool's standardised score zⱼ (all raters averaged when the
 *    examples carry several) and the shared difficulty D = mean over tools of zⱼ.
 * 3. Base models (kernel ridge): D; each tool's own deviation zⱼ − D (heavier penalty); and a
 *    second shared factor u — the tasks' scores on the first principal direction of the
 *    deviations (on GenAI-Bench: DALLE 3 against the SDXL family, tools that gain or lose
 *    together). The penalty of the D model and whether the prompt-shape cues enter the kernel
 *    are chosen by K-fold CV error of the held-out D (GenAI-Bench keeps the cues, AlpacaEval
 *    drops them).
 * 4. Stacking: out-of-fold base predictions feed, per tool, a small ridge regression of the tool's
 *    ground truth (standardised) on a feature set — [d̂, ĝⱼ], [d̂, d̂², ĝⱼ] or [d̂, d̂², ĝⱼ, û]
 *    (d̂² lets scores saturate near the top of the scale) — with slopes shrunk halfway toward the
 *    slopes pooled over all tools.
 * 5. Order guard (order-guard.ts): optionally the tools of a task keep the order of their
 *    training means.
 * Optionally (`stackGrid`, `orderGuard: 'cv'`) the feature set and the guard are chosen together
 * by a second CV over the out-of-fold rows (mean over tools of the standardised squared error);
 * by default they are fixed: 'factor' features, guard on. Deterministic: folds follow task order.
 */
import type { Evidence } from '../types';
import { BaseModels, type Bases } from './ensemble-bases';
import { ridgeFit } from './linalg';
import { guardOrder } from './order-guard';
import { PromptKernel, type KernelWeights } from './prompt-kernel';
import { subsetTargets } from './targets';
import { buildTable, taskKey, type TrainingTable } from './training-table';
import { clampToScale, type Predictor, type PredictorNeeds, type PredictTask, type ScorePrediction, type TrainingSet } from './types';

export type StackFeatures = 'linear' | 'quadratic' | 'factor';
export const STACK_FEATURES: readonly StackFeatures[] = ['linear', 'quadratic', 'factor'];

export interface EnsembleOptions {
  /** Penalties tried for the difficulty model (default 1, 2, 4, 8). */
  lambdaGrid?: readonly number[];
  /** Penalty of each tool's own-deviation model (default 30). */
  lambdaOwn?: number;
  /** Penalty of the second-factor model (default 30). */
  lambdaFactor?: number;
  ngrams?: number;
  /** Prompt-shape weights tried (default 0 and 0.3). */
  shapeGrid?: readonly number[];
  denseWeight?: number;
  poly?: number;
  /** Cross-validation folds inside the training split (default 5). */
  folds?: number;
  /** Penalty of the stacking regressions (default 1). */
  stackLambda?: number;
  /** Share of the pooled slopes in each tool's slopes (default 0.5). */
  pool?: number;
  /**
   * Stacking feature sets to choose from by CV (default only 'factor': with 200 training tasks the
   * CV choice among sets was noisier than the differences it chose between).
   */
  stackGrid?: readonly StackFeatures[];
  /** Order guard on (default), off, or chosen by CV ('cv'). */
  orderGuard?: boolean | 'cv';
  useAllRaters?: boolean;
  /** Evidence items per prediction (default 5). */
  evidence?: number;
}

/** What cross-validation chose at the last fit (for reports). */
export interface EnsembleChoice {
  lambda: number;
  shape: number;
  features: StackFeatures;
  orderGuard: boolean;
  /** CV error of the chosen stacker (mean standardised squared error). */
  cvError: number;
}

function features(b: Bases, j: number, set: StackFeatures): number[] {
  if (set === 'linear') return [b.d, b.g[j]!];
  if (set === 'quadratic') return [b.d, b.d * b.d, b.g[j]!];
  return [b.d, b.d * b.d, b.g[j]!, b.u];
}

/** Stacker coefficients that reproduce the plain base prediction d̂ + ĝ. */
function plainCoef(set: StackFeatures): number[] {
  return set === 'linear' ? [0, 1, 1] : set === 'quadratic' ? [0, 1, 0, 1] : [0, 1, 0, 1, 0];
}

interface StackRows {
  /** Training task index of each row, per tool. */
  tasks: number[][];
  x: number[][][];
  /** Standardised ground truth. */
  y: number[][];
}

export class EnsemblePredictor implements Predictor {
  readonly kind = 'sync' as const;
  readonly id = 'ensemble';
  readonly needs: PredictorNeeds = { vectors: 'optional' };
  private table: TrainingTable | null = null;
  private readonly kernel: PromptKernel;
  private weights: KernelWeights = { shape: 0, dense: 0, poly: 0 };
  private final: BaseModels | null = null;
  /** Per tool: [b0, slopes…] in standardised units. */
  private coef: number[][] = [];
  /** Ascending training-mean order of tool indices. */
  private order: number[] = [];
  private cacheKey = '';
  private cache: { scores: number[]; clamped: boolean[]; row: Float64Array; self: number } | null = null;
  /** What cross-validation chose at the last fit. */
  choice: EnsembleChoice | null = null;

  constructor(private readonly opts: EnsembleOptions = {}) {
    this.kernel = new PromptKernel({ ngrams: opts.ngrams ?? 2 });
  }

  fit(train: TrainingSet): void {
    const table = buildTable(train, { useAllRaters: this.opts.useAllRaters ?? true });
    this.table = table;
    this.cacheKey = '';
    this.cache = null;
    this.kernel.fit(table.tasks);
    const n = table.tasks.length;
    const folds = Math.min(this.opts.folds ?? 5, n);
    // Deterministic folds: task i (table order) is held out in fold i mod folds.
    const foldOf = (i: number) => i % folds;
    // Equal training means (common with a few hundred whole-number scores) are broken by the
    // all-rater mean, then by tool id.
    this.order = table.tools
      .map((_, j) => j)
      .sort((a, b) => table.mean[a]! - table.mean[b]! || table.targetMean[a]! - table.targetMean[b]! || (table.tools[a]! < table.tools[b]! ? -1 : 1));
    const { best, oof } = this.chooseKernel(table, folds, foldOf);
    this.weights = { shape: best.shape, dense: this.opts.denseWeight ?? 1, poly: this.opts.poly ?? 1 };
    const all = Array.from({ length: n }, (_, i) => i);
    this.final = new BaseModels(table, best.gram, all, best.lambda, this.opts.lambdaOwn ?? 30, this.opts.lambdaFactor ?? 30);
    this.choice = this.chooseStacker(table, best, oof, folds, foldOf);
  }

  /**
   * Step 1: the kernel's prompt-shape weight and the difficulty penalty with the least out-of-fold
   * error of the held-out difficulty, and the out-of-fold base predictions of that choice (null when
   * there are fewer than 3 folds: then the first of each grid, and no stacking).
   */
  private chooseKernel(
    table: TrainingTable,
    folds: number,
    foldOf: (i: number) => number,
  ): { best: { lambda: number; shape: number; gram: Float64Array }; oof: Bases[] | null } {
    const n = table.tasks.length;
    const nt = table.tools.length;
    const lambdaG = this.opts.lambdaOwn ?? 30;
    const lambdaU = this.opts.lambdaFactor ?? 30;
    const lambdaGrid = this.opts.lambdaGrid ?? [1, 2, 4, 8];
    const shapeGrid = this.opts.shapeGrid ?? [0, 0.3];
    const dense = this.opts.denseWeight ?? 1;
    const poly = this.opts.poly ?? 1;
    const all = Array.from({ length: n }, (_, i) => i);
    let oof: Bases[] | null = null;
    let best: { err: number; lambda: number; shape: number; gram: Float64Array } = {
      err: Infinity,
      lambda: lambdaGrid[0]!,
      shape: shapeGrid[0]!,
      gram: new Float64Array(0),
    };
    if (folds < 3) return { best: { ...best, gram: this.kernel.gram({ shape: best.shape, dense, poly }) }, oof };
    const fullD = subsetTargets(table, all).difficulty;
    for (const shape of shapeGrid) {
      const K = this.kernel.gram({ shape, dense, poly });
      for (const lambda of lambdaGrid) {
        const pred = new Array<Bases>(n);
        for (let f = 0; f < folds; f++) {
          const models = new BaseModels(
            table,
            K,
            all.filter((i) => foldOf(i) !== f),
            lambda,
            lambdaG,
            lambdaU,
          );
          for (const i of all) if (foldOf(i) === f) pred[i] = models.predict(K.subarray(i * n, (i + 1) * n), nt);
        }
        let err = 0;
        for (let i = 0; i < n; i++) err += (pred[i]!.d - fullD[i]!) ** 2;
        // A later grid point must beat the best by more than rounding noise (ties keep the earlier, smaller choice).
        if (err < best.err - 1e-12) {
          best = { err, lambda, shape, gram: K };
          oof = pred;
        }
      }
    }
    return { best, oof };
  }

  /** Step 2: the stacker's feature set and the order guard, by CV over the out-of-fold rows; sets `coef`. */
  private chooseStacker(
    table: TrainingTable,
    best: { lambda: number; shape: number },
    oof: readonly Bases[] | null,
    folds: number,
    foldOf: (i: number) => number,
  ): EnsembleChoice {
    const stackGrid = this.opts.stackGrid ?? ['factor'];
    const guardGrid = this.opts.orderGuard === 'cv' ? [false, true] : [this.opts.orderGuard ?? true];
    let choice: EnsembleChoice = {
      lambda: best.lambda,
      shape: best.shape,
      features: stackGrid[stackGrid.length - 1]!,
      orderGuard: guardGrid[0]!,
      cvError: NaN,
    };
    if (!oof) {
      this.coef = table.tools.map(() => plainCoef(choice.features));
      return choice;
    }
    let bestErr = Infinity;
    for (const set of stackGrid) {
      const rows = this.stackRows(table, oof, set);
      const cvPred = this.crossStacked(table, rows, folds, foldOf);
      for (const guard of guardGrid) {
        const err = this.stackError(table, cvPred, guard);
        if (err < bestErr - 1e-12) {
          bestErr = err;
          choice = { lambda: best.lambda, shape: best.shape, features: set, orderGuard: guard, cvError: err };
        }
      }
    }
    this.coef = this.fitStack(this.stackRows(table, oof, choice.features));
    return choice;
  }

  private stackRows(table: TrainingTable, oof: readonly Bases[], set: StackFeatures): StackRows {
    const rows: StackRows = { tasks: [], x: [], y: [] };
    table.tools.forEach((_, j) => {
      const tasks: number[] = [];
      const x: number[][] = [];
      const y: number[] = [];
      table.truth[j]!.forEach((v, i) => {
        if (Number.isNaN(v)) return;
        tasks.push(i);
        x.push(features(oof[i]!, j, set));
        y.push((v - table.mean[j]!) / table.sd[j]!);
      });
      rows.tasks.push(tasks);
      rows.x.push(x);
      rows.y.push(y);
    });
    return rows;
  }

  /** Per-tool ridge, slopes shrunk toward the pooled slopes; [b0, slopes…] per tool. */
  private fitStack(rows: StackRows, keep: (j: number, r: number) => boolean = () => true): number[][] {
    const lambda = this.opts.stackLambda ?? 1;
    const w = this.opts.pool ?? 0.5;
    const sel = rows.x.map((x, j) => {
      const xs: number[][] = [];
      const ys: number[] = [];
      x.forEach((r, k) => {
        if (keep(j, k)) {
          xs.push(r);
          ys.push(rows.y[j]![k]!);
        }
      });
      return { x: xs, y: ys };
    });
    const p = rows.x.find((x) => x.length > 0)?.[0]?.length ?? 0;
    const colMean = (x: number[][], c: number) => x.reduce((a, r) => a + r[c]!, 0) / Math.max(1, x.length);
    const pooledX: number[][] = [];
    const pooledY: number[] = [];
    for (const { x, y } of sel) {
      const mx = Array.from({ length: p }, (_, c) => colMean(x, c));
      const my = y.reduce((a, b) => a + b, 0) / Math.max(1, y.length);
      x.forEach((r, i) => {
        pooledX.push(r.map((v, c) => v - mx[c]!));
        pooledY.push(y[i]! - my);
      });
    }
    const pooled = pooledX.length > 0 ? ridgeFit(pooledX, pooledY, lambda) : new Float64Array(p + 1);
    return sel.map(({ x, y }) => {
      if (x.length < 3) return [0, ...Array.from({ length: p }, (_, c) => pooled[c + 1]!)];
      const own = ridgeFit(x, y, lambda);
      const slopes = Array.from({ length: p }, (_, c) => w * pooled[c + 1]! + (1 - w) * own[c + 1]!);
      const my = y.reduce((a, b) => a + b, 0) / y.length;
      return [my - slopes.reduce((a, s, c) => a + s * colMean(x, c), 0), ...slopes];
    });
  }

  /** Stacked predictions (score units) of every training (tool, task), each from a stacker fitted without its fold. */
  private crossStacked(table: TrainingTable, rows: StackRows, folds: number, foldOf: (i: number) => number): Float64Array[] {
    const out = table.tools.map(() => new Float64Array(table.tasks.length).fill(NaN));
    for (let f = 0; f < folds; f++) {
      const coef = this.fitStack(rows, (j, k) => foldOf(rows.tasks[j]![k]!) !== f);
      rows.x.forEach((x, j) =>
        x.forEach((r, k) => {
          const i = rows.tasks[j]![k]!;
          if (foldOf(i) === f) out[j]![i] = table.mean[j]! + table.sd[j]! * apply(coef[j]!, r);
        }),
      );
    }
    return out;
  }

  /** Mean over tools of the squared error in sd units, after clamping and (optionally) the guard. */
  private stackError(table: TrainingTable, pred: readonly Float64Array[], guard: boolean): number {
    const { min, max } = table.scale;
    const sums = table.tools.map(() => 0);
    const counts = table.tools.map(() => 0);
    for (let i = 0; i < table.tasks.length; i++) {
      const tools = this.order.filter((j) => !Number.isNaN(pred[j]![i]!));
      let vals = tools.map((j) => Math.min(max, Math.max(min, pred[j]![i]!)));
      if (guard) vals = guardOrder(vals, min, max);
      tools.forEach((j, r) => {
        sums[j] = sums[j]! + ((vals[r]! - table.truth[j]![i]!) / table.sd[j]!) ** 2;
        counts[j] = counts[j]! + 1;
      });
    }
    const per = sums.map((s, j) => s / Math.max(1, counts[j]!));
    return per.reduce((a, b) => a + b, 0) / Math.max(1, per.length);
  }

  private scoresFor(task: PredictTask): NonNullable<EnsemblePredictor['cache']> {
    const table = this.table!;
    const key = taskKey(task);
    if (this.cache && key === this.cacheKey) return this.cache;
    const views = this.kernel.viewRows(task);
    const row = this.kernel.combine(views, this.weights);
    const b = this.final!.predict(row, table.tools.length);
    const set = this.choice!.features;
    const raw = table.tools.map((_, j) => table.mean[j]! + table.sd[j]! * apply(this.coef[j]!, features(b, j, set)));
    const clamped = raw.map((v) => clampToScale(v, table.scale).clamped);
    const scores = raw.map((v) => clampToScale(v, table.scale).score);
    if (this.choice!.orderGuard) {
      const guarded = guardOrder(
        this.order.map((j) => scores[j]!),
        table.scale.min,
        table.scale.max,
      );
      this.order.forEach((j, r) => (scores[j] = guarded[r]!));
    }
    this.cache = { scores, clamped, row, self: this.kernel.combineSelf(views, this.weights) };
    this.cacheKey = key;
    return this.cache;
  }

  predict(task: PredictTask, toolId: string): ScorePrediction {
    const table = this.table;
    if (!table || !this.final) throw new Error('ensemble: predict before fit');
    const j = table.toolIndex.get(toolId);
    if (j === undefined) return { ...clampToScale(table.globalMean, table.scale), evidence: [] };
    const c = this.scoresFor(task);
    return { score: c.scores[j]!, clamped: c.clamped[j]!, evidence: this.evidence(c.row, c.self, j) };
  }

  /** The tool's training experiences on the most similar training tasks (cosine of the kernel). */
  private evidence(row: Float64Array, self: number, j: number): Evidence[] {
    const table = this.table!;
    const max = this.opts.evidence ?? 5;
    const items: Evidence[] = [];
    row.forEach((k, i) => {
      const id = table.exampleId[j]![i]!;
      const norm = Math.sqrt(self * this.kernel.selfAt(i, this.weights));
      if (id && norm > 0) items.push({ kind: 'experience', id, similarity: k / norm });
    });
    return items.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1)).slice(0, max);
  }
}

function apply(coef: readonly number[], x: readonly number[]): number {
  let s = coef[0]!;
  for (let c = 0; c < x.length; c++) s += coef[c + 1]! * x[c]!;
  return s;
}
