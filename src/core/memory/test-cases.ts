/**
 * A tool's regression set ("test cases"): tasks a person pinned, whose stored scores the memory
 * must keep predicting. A test-case run predicts each pinned task with the memory and compares
 * with the stored ground truth; a case passes when |predicted − actual| ≤ tolerance.
 * Run states: `blocked` (no memory for the tool, or nothing pinned — the caller decides),
 * `not-run` (no pinned task has a stored score any more), `failed` (a case missed, or the run
 * itself failed), `completed` (every case with a score passed).
 */
import type { RunState, ScoreScale } from '../types';

export interface TestCaseRef {
  datasetId: string;
  taskId: string;
}

export interface TestCaseResult extends TestCaseRef {
  prompt: string;
  /** Stored ground truth; null when the task has no score for the tool (the case is not run). */
  actual: number | null;
  predicted: number | null;
  pass: boolean | null;
}

/** What a test-case Run stores in `config`: the tool, the memory used (null: none had entries) and the cases. */
export interface TestCaseConfig {
  toolId: string;
  memoryId: string | null;
  memoryName: string | null;
  cases: TestCaseRef[];
}

export interface TestCaseMetrics {
  cases: TestCaseResult[];
  n: number;
  evaluated: number;
  passed: number;
  failed: number;
  notRun: number;
  /** Over the evaluated cases; null when none was evaluated. */
  mae: number | null;
  rmse: number | null;
  tolerance: number;
}

/** Default tolerance: a quarter of the scale range (1 point on 1–5). */
export const defaultTolerance = (scale: Pick<ScoreScale, 'min' | 'max'>) => (scale.max - scale.min) / 4;

export function sameCase(a: TestCaseRef, b: TestCaseRef): boolean {
  return a.datasetId === b.datasetId && a.taskId === b.taskId;
}

/** Adds or removes a case (the set stays free of duplicates, in pinning order). */
export function toggleCase(set: readonly TestCaseRef[], c: TestCaseRef): TestCaseRef[] {
  return set.some((x) => sameCase(x, c)) ? set.filter((x) => !sameCase(x, c)) : [...set, { datasetId: c.datasetId, taskId: c.taskId }];
}

export function summariseTestCases(results: readonly Omit<TestCaseResult, 'pass'>[], tolerance: number): { state: RunState; metrics: TestCaseMetrics } {
  const cases: TestCaseResult[] = results.map((r) => ({
    ...r,
    pass: r.actual === null || r.predicted === null ? null : Math.abs(r.predicted - r.actual) <= tolerance + 1e-9,
  }));
  const done = cases.filter((c) => c.pass !== null);
  const errors = done.map((c) => c.predicted! - c.actual!);
  const passed = done.filter((c) => c.pass).length;
  const metrics: TestCaseMetrics = {
    cases,
    n: cases.length,
    evaluated: done.length,
    passed,
    failed: done.length - passed,
    notRun: cases.length - done.length,
    mae: done.length ? errors.reduce((s, x) => s + Math.abs(x), 0) / done.length : null,
    rmse: done.length ? Math.sqrt(errors.reduce((s, x) => s + x * x, 0) / done.length) : null,
    tolerance,
  };
  const state: RunState = done.length === 0 ? 'not-run' : passed < done.length ? 'failed' : 'completed';
  return { state, metrics };
}
