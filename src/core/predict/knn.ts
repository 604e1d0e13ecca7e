/**
 * Neighbour methods over the training tasks most similar to the new task.
 *
 * `knn`: the similarity-weighted mean score of the tool on its k nearest training tasks,
 *   pred = (Σ sᵢ·yᵢ + m·μ) / (Σ sᵢ + m)        (m = `shrink`, default 0; no neighbour → μ)
 *
 * `knn-difficulty`: also learns how hard the task is for EVERY tool. With zᵢⱼ = (yᵢⱼ − μⱼ)/σⱼ
 * (tool-standardised training targets) and Dᵢ = mean over tools of zᵢⱼ (shared difficulty):
 *   d    = Σ sᵢ·Dᵢ / (Σ sᵢ + m_d)                      over the k nearest tasks
 *   ownⱼ = Σ sᵢ·(zᵢⱼ − Dᵢ) / (Σ sᵢ + m_o)              over those of them tool j scored
 *   pred = μⱼ + σⱼ·(d + ownⱼ)
 * The shrink terms m_d, m_o pull both parts toward the tool mean when neighbours are few or
 * dissimilar.
 *
 * Neighbours: the k best by similarity (ties: smaller task id first), positive similarity only;
 * with `cut: 'knee'` the list is cut further at the knee of its similarity curve (MemToolAgent).
 */
import { kneeCut } from '../retrieval/knee';
import { topKIndices } from '../retrieval/top-k';
import type { Evidence } from '../types';
import { TaskSimilarity, type SimilarityKind } from './similarity';
import { buildTable, taskKey, type TrainingTable } from './training-table';
import { toPrediction, type Predictor, type PredictorNeeds, type PredictTask, type ScorePrediction, type TrainingSet } from './types';

export type NeighbourCut = 'fixed' | 'knee';

export interface KnnOptions {
  /** Neighbours to use (default 24; 0 = the tool mean). With `cut: 'knee'` the most to keep. */
  k?: number;
  similarity?: SimilarityKind;
  /** Dense weight for hybrid similarity. */
  alpha?: number;
  cut?: NeighbourCut;
  /** Prior weight of the tool mean, in similarity units (knn default 0). */
  shrink?: number;
  /** Average all raters for targets (default true). */
  useAllRaters?: boolean;
  /** Evidence items returned per prediction (default 5). */
  evidence?: number;
}

interface Neighbour {
  task: number;
  sim: number;
}

abstract class NeighbourPredictor implements Predictor {
  readonly kind = 'sync' as const;
  abstract readonly id: string;
  readonly needs: PredictorNeeds;
  readonly k: number;
  readonly cut: NeighbourCut;
  protected readonly similarity: TaskSimilarity;
  protected table: TrainingTable | null = null;
  private cacheKey = '';
  private cached: Neighbour[] = [];

  constructor(protected readonly opts: KnnOptions = {}) {
    this.k = Math.max(0, Math.floor(opts.k ?? 24));
    this.cut = opts.cut ?? 'fixed';
    this.similarity = new TaskSimilarity({ kind: opts.similarity ?? 'tfidf', alpha: opts.alpha });
    this.needs = { vectors: this.similarity.needsVectors };
  }

  fit(train: TrainingSet): void {
    this.table = buildTable(train, { useAllRaters: this.opts.useAllRaters ?? true });
    this.similarity.fit(this.table.tasks);
    this.cacheKey = '';
  }

  protected fitted(): TrainingTable {
    if (!this.table) throw new Error(`${this.id}: predict before fit`);
    return this.table;
  }

  /** Nearest training tasks (restricted to those `tool` scored when given), best first. */
  protected neighbours(task: PredictTask, tool?: number): Neighbour[] {
    const table = this.fitted();
    const key = taskKey(task);
    if (key !== this.cacheKey) {
      const sims = this.similarity.scores(task);
      const order = topKIndices(
        sims.length,
        sims.length,
        (i) => sims[i]!,
        (i) => table.tasks[i]!.taskId,
      );
      this.cached = order.filter((i) => sims[i]! > 0).map((i) => ({ task: i, sim: sims[i]! }));
      this.cacheKey = key;
    }
    const pool = tool === undefined ? this.cached : this.cached.filter((nb) => !Number.isNaN(table.truth[tool]![nb.task]!));
    const top = pool.slice(0, this.k);
    if (this.cut === 'knee' && top.length > 0)
      return top.slice(
        0,
        kneeCut(
          top.map((nb) => nb.sim),
          { min: 1, max: this.k },
        ),
      );
    return top;
  }

  protected evidence(nbs: readonly Neighbour[], tool: number): Evidence[] {
    const table = this.fitted();
    const max = this.opts.evidence ?? 5;
    return nbs
      .filter((nb) => table.exampleId[tool]![nb.task] !== '')
      .slice(0, max)
      .map((nb) => ({ kind: 'experience' as const, id: table.exampleId[tool]![nb.task]!, similarity: nb.sim }));
  }

  abstract predict(task: PredictTask, toolId: string): ScorePrediction;
}

export class KnnPredictor extends NeighbourPredictor {
  readonly id = 'knn';

  predict(task: PredictTask, toolId: string): ScorePrediction {
    const table = this.fitted();
    const j = table.toolIndex.get(toolId);
    if (j === undefined) return toPrediction(table.globalMean, table.scale);
    const mu = table.mean[j]!;
    const nbs = this.k === 0 ? [] : this.neighbours(task, j);
    const m = this.opts.shrink ?? 0;
    let num = m * mu;
    let den = m;
    for (const nb of nbs) {
      num += nb.sim * table.truth[j]![nb.task]!;
      den += nb.sim;
    }
    return toPrediction(den > 0 ? num / den : mu, table.scale, this.evidence(nbs, j));
  }
}

export interface KnnDifficultyOptions extends KnnOptions {
  /** Shrink of the shared-difficulty part (default 1). */
  shrinkDifficulty?: number;
  /** Shrink of the tool's own part (default 3). */
  shrinkOwn?: number;
}

export class KnnDifficultyPredictor extends NeighbourPredictor {
  readonly id = 'knn-difficulty';

  constructor(protected override readonly opts: KnnDifficultyOptions = {}) {
    super(opts);
  }

  predict(task: PredictTask, toolId: string): ScorePrediction {
    const table = this.fitted();
    const j = table.toolIndex.get(toolId);
    if (j === undefined) return toPrediction(table.globalMean, table.scale);
    const nbs = this.k === 0 ? [] : this.neighbours(task);
    const md = this.opts.shrinkDifficulty ?? 1;
    const mo = this.opts.shrinkOwn ?? 3;
    let dNum = 0;
    let dDen = md;
    let oNum = 0;
    let oDen = mo;
    const target = table.target[j]!;
    for (const nb of nbs) {
      const dt = table.difficulty[nb.task]!;
      dNum += nb.sim * dt;
      dDen += nb.sim;
      const y = target[nb.task]!;
      if (Number.isNaN(y)) continue;
      oNum += nb.sim * ((y - table.targetMean[j]!) / table.sd[j]! - dt);
      oDen += nb.sim;
    }
    const d = dDen > 0 ? dNum / dDen : 0;
    const own = oDen > 0 ? oNum / oDen : 0;
    return toPrediction(table.mean[j]! + table.sd[j]! * (d + own), table.scale, this.evidence(nbs, j));
  }
}
