/** Which chosen files are the data and which belong to its run (the dialog's multi-file and folder pick). */
import { describe, expect, it } from 'vitest';
import { pickRunFiles } from '../../../src/core/import/run-files';

const pick = (names: string[]) => pickRunFiles(names, (n) => n);

describe('pickRunFiles', () => {
  it('a HELM run folder: per_instance_stats.json with scenario_state.json and run_spec.json; the rest unused', () => {
    expect(pick(['run/stats.json', 'run/scenario_state.json', 'run/per_instance_stats.json', 'run/run_spec.json'])).toEqual({
      data: 'run/per_instance_stats.json',
      scenarioState: 'run/scenario_state.json',
      runSpec: 'run/run_spec.json',
      unused: ['run/stats.json'],
    });
  });

  it('an lm-eval folder: the samples file with the results file of its date', () => {
    const d = '2026-07-08T18-15-33.115417';
    expect(pick([`m/results_2026-01-01T00-00-00.1.json`, `m/results_${d}.json`, `m/samples_task_${d}.jsonl`])).toEqual({
      data: `m/samples_task_${d}.jsonl`,
      results: `m/results_${d}.json`,
      unused: ['m/results_2026-01-01T00-00-00.1.json'],
    });
  });

  it('any other file is the data itself; nothing chosen, nothing picked', () => {
    expect(pick(['a.eval'])).toEqual({ data: 'a.eval', unused: [] });
    expect(pick([])).toBeUndefined();
  });
});
