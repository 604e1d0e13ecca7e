/** `tool-mean` and `tool-median`: the tool's training score, whatever the task (no evidence). */
import { buildTable, type TrainingTable } from './training-table';
import { toPrediction, type Predictor, type PredictTask, type ScorePrediction, type TrainingSet } from './types';

abstract class ConstantPerTool implements Predictor {
  readonly kind = 'sync' as const;
  abstract readonly id: string;
  readonly needs = {};
  protected table: TrainingTable | null = null;

  fit(train: TrainingSet): void {
    this.table = buildTable(train, { useAllRaters: false });
  }

  protected abstract valueOf(table: TrainingTable, tool: number): number;

  predict(_task: PredictTask, toolId: string): ScorePrediction {
    const table = this.table;
    if (!table) throw new Error(`${this.id}: predict before fit`);
    const j = table.toolIndex.get(toolId);
    return toPrediction(j === undefined ? table.globalMean : this.valueOf(table, j), table.scale);
  }
}

export class ToolMeanPredictor extends ConstantPerTool {
  readonly id = 'tool-mean';
  protected valueOf(table: TrainingTable, j: number): number {
    return table.mean[j]!;
  }
}

export class ToolMedianPredictor extends ConstantPerTool {
  readonly id = 'tool-median';
  protected valueOf(table: TrainingTable, j: number): number {
    return table.median[j]!;
  }
}
