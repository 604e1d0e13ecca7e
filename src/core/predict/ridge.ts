/**
 * `ridge`: ridge regression on a bag of words and bigrams (TF-IDF, function words kept), solved
 * as kernel ridge (one n×n factorisation for thousands of features). Each tool's target is its
 * standardised score blended with the all-tool difficulty of the task:
 *   target = (1 − β)·zⱼ + β·D        pred = μⱼ + σⱼ·f̂ⱼ(prompt)
 * so a word that makes prompts hard for every tool informs every tool's model.
 */
import { KernelRidge, subMatrix } from './kernel-ridge';
import { PromptKernel } from './prompt-kernel';
import { presenceGroups, subsetTargets } from './targets';
import { buildTable, type TrainingTable } from './training-table';
import { toPrediction, type Predictor, type PredictTask, type ScorePrediction, type TrainingSet } from './types';

export interface RidgeOptions {
  /** Penalty (default 1). */
  lambda?: number;
  /** Weight β of the all-tool difficulty in each tool's target (default 0.5). */
  blend?: number;
  ngrams?: number;
  useAllRaters?: boolean;
}

const WORDS_ONLY = { shape: 0, dense: 0, poly: 0 };

interface GroupModel {
  tools: number[];
  rows: number[];
  model: KernelRidge;
}

export class RidgePredictor implements Predictor {
  readonly kind = 'sync' as const;
  readonly id = 'ridge';
  readonly needs = {};
  private table: TrainingTable | null = null;
  private readonly kernel: PromptKernel;
  private groups: GroupModel[] = [];
  private readonly byTool = new Map<number, { group: GroupModel; slot: number }>();

  constructor(private readonly opts: RidgeOptions = {}) {
    this.kernel = new PromptKernel({ ngrams: opts.ngrams ?? 2 });
  }

  fit(train: TrainingSet): void {
    const table = buildTable(train, { useAllRaters: this.opts.useAllRaters ?? true });
    this.table = table;
    this.kernel.fit(table.tasks);
    const gramMatrix = this.kernel.gram(WORDS_ONLY);
    const n = table.tasks.length;
    const all = Array.from({ length: n }, (_, i) => i);
    const { z, difficulty } = subsetTargets(table, all);
    const beta = this.opts.blend ?? 0.5;
    this.byTool.clear();
    this.groups = presenceGroups(z).map(({ tools, rows }) => {
      const k = subMatrix(gramMatrix, n, rows);
      const targets = tools.map((j) => rows.map((a) => (1 - beta) * z[j]![a]! + beta * difficulty[a]!));
      const group = { tools, rows, model: new KernelRidge(this.opts.lambda ?? 1).fit(k, rows.length, targets) };
      tools.forEach((j, slot) => this.byTool.set(j, { group, slot }));
      return group;
    });
  }

  predict(task: PredictTask, toolId: string): ScorePrediction {
    const table = this.table;
    if (!table) throw new Error('ridge: predict before fit');
    const j = table.toolIndex.get(toolId);
    const at = j === undefined ? undefined : this.byTool.get(j);
    if (j === undefined || !at) return toPrediction(table.globalMean, table.scale);
    const row = this.kernel.row(task, WORDS_ONLY);
    const f = at.group.model.predict(at.group.rows.map((a) => row[a]!))[at.slot]!;
    return toPrediction(table.mean[j]! + table.sd[j]! * f, table.scale);
  }
}
