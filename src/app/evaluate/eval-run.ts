/**
 * Use case pieces of an evaluation that the app's predictors worker (src/app/evaluate/evaluate.ts) and
 * `toolmem eval` (src/cli) share around `evaluateMethods`: the prompt vectors, the paired-bootstrap
 * intervals, the top-k ablation of the neighbour methods, and a run that a stop signal may cut
 * short with what was finished kept. One implementation, so both report the same numbers.
 */
import type { Embedder } from '../../core/embed';
import { topKAblation, type AblationInput, type AblationRow } from '../../core/eval/ablation';
import { bootstrapIntervals, yieldToEventLoop, type EvalIntervals } from '../../core/eval/bootstrap';
import type { EvalReport } from '../../core/eval/evaluate';
import type { ScoredPair } from '../../core/eval/ground-truth';
import { createPredictor, type MethodId, type MethodOptions } from '../../core/predict/registry';
import { evaluateMethods, type EvaluateMethodsInput } from './methods';
import { PartialResults } from './partial-results';

/** Unit prompt vectors by task id (each task's prompt embedded once, in data order). */
export async function promptVectors(embedder: Embedder, data: readonly ScoredPair[]): Promise<Map<string, Float32Array>> {
  const prompts = new Map<string, string>();
  for (const p of data) if (!prompts.has(p.taskId)) prompts.set(p.taskId, p.prompt);
  const ids = [...prompts.keys()];
  const batch = await embedder.embed(ids.map((id) => prompts.get(id)!));
  return new Map(ids.map((id, i) => [id, batch.data.slice(i * batch.dim, (i + 1) * batch.dim)]));
}

/** Neighbour counts the top-k ablation sweeps: k = 0…24. */
const ABLATION_KS = Array.from({ length: 25 }, (_, k) => k);

/** The top-k ablation (k = 0…24, fixed vs knee cut) of the given neighbour methods. */
export function neighbourAblation(
  input: Omit<AblationInput, 'ks' | 'make' | 'methods'> & { methods: readonly MethodId[]; options?: MethodOptions },
): Promise<AblationRow[]> {
  const { options = {}, ...rest } = input;
  return topKAblation({ ...rest, methods: [...rest.methods], ks: ABLATION_KS, make: (m, k, cut) => createPredictor(m as MethodId, { ...options, k, cut }) });
}

/**
 * The paired-bootstrap 95% intervals. With a signal the work yields between chunks so a stop gets
 * through; `skipOnStop` turns a stop into null (the results are complete without them) instead of
 * the abort error.
 */
export async function evalIntervals(
  report: EvalReport,
  opts: { signal?: AbortSignal; skipOnStop?: boolean; onProgress?(done: number, total: number): void } = {},
): Promise<EvalIntervals | null> {
  const { signal } = opts;
  if (!signal) return bootstrapIntervals(report);
  try {
    return await bootstrapIntervals(report, { signal, pause: yieldToEventLoop, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  } catch (err) {
    if (!opts.skipOnStop || !signal.aborted) throw err;
    return null;
  }
}

/** A run stopped by its signal: the finished part (`partial` says what it is), or null when nothing finished. */
export type StoppableOutcome = { report: EvalReport; partial?: string } | { report: null };

/**
 * `evaluateMethods` under a stop signal: completed, the report; stopped, the seeds whose methods all
 * finished (else the first seed's finished methods) as a partial report. Other errors are thrown.
 */
export async function evaluateStoppable(input: EvaluateMethodsInput & { signal: AbortSignal }): Promise<StoppableOutcome> {
  const partial = new PartialResults(input.methods);
  try {
    return { report: await evaluateMethods({ ...input, onMethodDone: (seed) => (partial.record(seed), input.onMethodDone?.(seed)) }) };
  } catch (err) {
    if (!input.signal.aborted) throw err;
    const tools = [...new Set(input.data.map((p) => p.toolId))].sort();
    const done = partial.report({ tools, toolPairs: input.toolPairs.map(([a, b]) => [a, b] as [string, string]), sizes: input.sizes });
    return done ? { report: done.report, partial: done.note } : { report: null };
  }
}
