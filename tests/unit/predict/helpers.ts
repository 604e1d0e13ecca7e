import type { TrainingExample, TrainingSet } from '../../../src/core/predict';
import type { ScoreScale } from '../../../src/core/types';

export const SCALE: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: true };

export const v = (...xs: number[]) => Float32Array.from(xs);

export function ex(taskId: string, toolId: string, score: number, extra: Partial<TrainingExample> = {}): TrainingExample {
  return { taskId, prompt: `prompt ${taskId}`, toolId, score, ...extra };
}

export function set(examples: TrainingExample[], scale = SCALE): TrainingSet {
  return { scale, examples };
}
