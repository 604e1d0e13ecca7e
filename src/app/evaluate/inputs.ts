/**
 * What an evaluation and a prediction read before they fit anything: the method ids asked for
 * (checked: they crossed the worker boundary) and a dataset's ground truth.
 */
import { ValidationError } from '../../core/errors';
import { GroundTruthBuilder } from '../../core/eval/ground-truth';
import { isMethodId, type MethodId } from '../../core/predict/registry';
import type { Repositories } from '../../core/repositories';
import type { Experience } from '../../core/types';
import { CostRows } from './cost-plane';

export function methodIds(methods: string[]): MethodId[] {
  const bad = methods.filter((m) => !isMethodId(m));
  if (bad.length) throw new ValidationError(`Unknown method(s): ${bad.join(', ')}.`);
  return methods as MethodId[];
}

/**
 * The dataset's ground truth, read in pages: of each row only what the evaluation uses is kept
 * (its ground truth, and the cost fields of the cost plane), so a dataset is never held whole (a
 * million rows with their responses were ~0.5 GB in the worker, bench:scale). `withRows`: keep the
 * rows too, which a stored memory's evaluation needs (its evidence names them).
 */
export async function loadTruth(repos: Repositories, datasetId: string, withRows = false) {
  const dataset = await repos.datasets.get(datasetId);
  if (!dataset) throw new ValidationError(`The dataset ${datasetId} does not exist.`);
  const truth = new GroundTruthBuilder();
  const costs = new CostRows();
  const rows: Experience[] = [];
  await repos.experiences.scanDataset(datasetId, (page) => {
    for (const e of page) {
      truth.add(e);
      costs.add(e);
      if (withRows) rows.push(e);
    }
  });
  return { dataset, data: truth.finish(dataset.raterPolicy), costs: costs.rows, rows };
}
