/**
 * The files of one evaluation run that belong together, found beside the data file (issue #27):
 * a HELM run folder (or its per_instance_stats.json) brings scenario_state.json and run_spec.json;
 * an lm-evaluation-harness samples file brings the run's results_<date>.json (the same date, else
 * the only results file in the folder), which names the model.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { FileReadError } from './node-files';

export interface RunFiles {
  data: string;
  results?: string;
  scenarioState?: string;
  runSpec?: string;
}

const SAMPLES = /^samples_.+_(\d{4}-\d{2}-\d{2}T[\d-]+(?:\.\d+)?)\.jsonl$/;

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function siblings(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

export async function runFiles(path: string): Promise<RunFiles> {
  if (await isDirectory(path)) {
    const names = await siblings(path);
    if (!names.includes('per_instance_stats.json')) {
      throw new FileReadError(`cannot read ${path}: it is a folder, and not a HELM run folder (it has no per_instance_stats.json). Give a file with --data.`);
    }
    return helmRun(path, names);
  }
  const dir = dirname(path);
  const name = basename(path);
  if (name === 'per_instance_stats.json') return helmRun(dir, await siblings(dir));
  const date = SAMPLES.exec(name)?.[1];
  if (SAMPLES.test(name)) {
    const results = (await siblings(dir)).filter((n) => /^results_.*\.json$/.test(n));
    const match = results.find((n) => n === `results_${date}.json`) ?? (results.length === 1 ? results[0] : undefined);
    if (match) return { data: path, results: join(dir, match) };
  }
  return { data: path };
}

function helmRun(dir: string, names: string[]): RunFiles {
  return {
    data: join(dir, 'per_instance_stats.json'),
    ...(names.includes('scenario_state.json') ? { scenarioState: join(dir, 'scenario_state.json') } : {}),
    ...(names.includes('run_spec.json') ? { runSpec: join(dir, 'run_spec.json') } : {}),
  };
}
