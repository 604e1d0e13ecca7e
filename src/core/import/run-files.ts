/**
 * Which of several chosen files is the data and which belong to it (the dialog's multi-file and
 * folder pick; the CLI does the same from the folder, src/cli/run-files.ts): a HELM run's
 * per_instance_stats.json with its scenario_state.json and run_spec.json; an lm-evaluation-harness
 * samples file with its run's results_<date>.json (the same date, else the only one). Names only:
 * works on File objects and paths alike.
 */
export interface RunPick<T> {
  data: T;
  results?: T;
  scenarioState?: T;
  runSpec?: T;
  /** Files chosen but not used (a folder holds more than one run's files). */
  unused: T[];
}

const baseName = (name: string): string => name.split(/[\\/]/).pop() ?? name;
const SAMPLES = /^samples_.+_(\d{4}-\d{2}-\d{2}T[\d-]+(?:\.\d+)?)\.jsonl$/;

export function pickRunFiles<T>(files: readonly T[], nameOf: (file: T) => string): RunPick<T> | undefined {
  if (files.length === 0) return undefined;
  const named = files.map((file) => ({ file, name: baseName(nameOf(file)) }));
  const find = (name: string) => named.find((f) => f.name === name)?.file;
  const stats = find('per_instance_stats.json');
  let pick: Omit<RunPick<T>, 'unused'>;
  if (stats !== undefined) {
    const scenarioState = find('scenario_state.json');
    const runSpec = find('run_spec.json');
    pick = { data: stats, ...(scenarioState !== undefined ? { scenarioState } : {}), ...(runSpec !== undefined ? { runSpec } : {}) };
  } else {
    const samples = named.find((f) => SAMPLES.test(f.name));
    const first = samples ?? named.find((f) => !/^results_.*\.json$/.test(f.name)) ?? (named[0] as { file: T; name: string });
    const date = samples ? SAMPLES.exec(samples.name)?.[1] : undefined;
    const results = named.filter((f) => /^results_.*\.json$/.test(f.name));
    const result = samples ? (results.find((f) => f.name === `results_${date}.json`) ?? (results.length === 1 ? results[0] : undefined)) : undefined;
    pick = { data: first.file, ...(result ? { results: result.file } : {}) };
  }
  const used = new Set<T>([pick.data, pick.results, pick.scenarioState, pick.runSpec].filter((f): f is T => f !== undefined));
  return { ...pick, unused: files.filter((f) => !used.has(f)) };
}
