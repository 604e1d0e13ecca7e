import { ValidationError } from '../../core/errors';
import { dict, own } from '../../core/data-keys';
import { newId } from '../../core/ids';
import { overSeeds, type EvalReport } from '../../core/eval/evaluate';
import { toJsonReport } from '../../core/eval/report';
import { readEngineSpec } from '../../core/llm/spec';
import type { EvalRun } from '../../core/records';
import type { Dataset, Tool } from '../../core/types';
import type { CostFields } from '../../core/cost/tool-cost';
import type { CallContext, Handlers } from '../../rpc';
import type { EvalApi, EvalConfig, EvalMemoryInfo, EvalResult } from './api';
import { evalCostPlane } from './cost-plane';
import { citingEntries, MEMORY_METHODS, planStoredMemoryEval, storedSnapshot, type StoredMemoryPlan } from './memory-plan';
import { DEFAULT_LLM_MAX_TEST, loadLlmEngine, promptTools } from './llm';
import { llmTotals } from './methods';
import { loadTruth, methodIds } from './inputs';
import { runEvaluation, type EvaluationOutcome } from './run-evaluation';
import { PredictCache, predictForTask, type PredictDeps } from '../predict/predict';

type EvalProgress = EvalApi['evaluate']['progress'];

/**
 * The engine host (core/llm/spec `EngineHost`) serves the LLM methods: `engineOf` hands out the llm
 * worker's in-browser models, `apiKey` is an endpoint's key; the rest run through `resolveEngine`.
 */
export interface EvalServiceDeps extends PredictDeps {
  /** Called with the port to the llm worker the page sends (`attachLlm`); hosts without one ignore it. */
  onLlmPort?(port: MessagePort): void;
}

function memoryInfo(plan: StoredMemoryPlan, cited: ReadonlyMap<string, ReadonlySet<string>>): EvalMemoryInfo {
  const { memory, split } = plan;
  return {
    id: memory.id,
    name: memory.name,
    engine: plan.engine,
    embeddingModel: memory.embeddingModel,
    source: plan.source,
    seed: split.seed,
    entries: plan.entries.length,
    trainTasks: [...split.train],
    testTasks: [...split.test],
    cited: Object.fromEntries([...cited].map(([m, ids]) => [m, [...ids].sort()])),
  };
}

function summarise(report: EvalReport): Omit<EvalResult, 'ablation' | 'sizes' | 'scale'> {
  const spread: EvalResult['spread'] = {};
  const toolSpread: EvalResult['toolSpread'] = {};
  // Method ids are the known MethodIds (checked by methodIds); tool ids are data: null prototype.

  const points: EvalResult['points'] = {};
  const selection = dict<number>();
  for (const m of report.methods) {
    const pick = (k: 'mae' | 'rmse' | 'pearson') => overSeeds(report, (s) => s.methods[m]!.mean[k]);
    const [mae, rmse, pearson] = [pick('mae'), pick('rmse'), pick('pearson')];
    spread[m] = { mae: mae.mean, rmse: rmse.mean, pearson: pearson.mean, maeSd: mae.sd, rmseSd: rmse.sd, pearsonSd: pearson.sd };
    toolSpread[m] = dict();
    for (const t of report.tools) {
      const per = (k: 'mae' | 'rmse' | 'pearson') => {
        const s = overSeeds(report, (seed) => own(seed.methods[m]!.tools, t)?.[k] ?? Number.NaN);
        return [s.mean, s.sd] as [number, number];
      };
      toolSpread[m]![t] = { mae: per('mae'), rmse: per('rmse'), pearson: per('pearson') };
    }
    points[m] = (report.seeds[0]?.methods[m]?.points ?? []).map(({ predicted, actual, toolId, taskId }) => ({ predicted, actual, toolId, taskId }));
    selection[m] = overSeeds(report, (s) => s.methods[m]!.selection.selected).mean;
  }
  const alwaysStrongerSelection = overSeeds(report, (s) => s.baselines.alwaysStrongerSelection.selected).mean;
  return { report: toJsonReport(report), spread, toolSpread, points, selection, alwaysStrongerSelection };
}

/** What the Run stores: the summary of a complete outcome, with the cost plane and the stored memory's details. */
function resultOf(
  outcome: EvaluationOutcome,
  ctx: {
    dataset: Dataset;
    costs: readonly CostFields[];
    tools: readonly Tool[];
    stored: StoredMemoryPlan | null;
    cited: ReadonlyMap<string, ReadonlySet<string>>;
  },
): EvalResult {
  const { dataset, stored } = ctx;
  const report = outcome.report!;
  const llm = llmTotals(report);
  const result: EvalResult = {
    ...summarise(report),
    ...(llm ? { llm } : {}),
    sizes: { ...outcome.sizes },
    scale: { min: dataset.scale.min, max: dataset.scale.max, integer: dataset.scale.integer },
  };
  if (stored) result.memory = memoryInfo(stored, ctx.cited);
  // A run that throws on a stop always has its intervals.
  result.intervals = outcome.intervals!;
  const costPlane = evalCostPlane(result.points, ctx.tools, ctx.costs, dataset.scale);
  if (costPlane) result.costPlane = costPlane;
  if (outcome.ablation) result.ablation = outcome.ablation;
  return result;
}

/**
 * The predictors worker's table: evaluations over the app's data, with the same core code as
 * `toolmem eval` (same split, seeds and methods give the same numbers), and predictions for a new
 * task (src/app/predict), whose fitted predictors this table's cache keeps between calls.
 */
export function createEvalHandlers(deps: EvalServiceDeps): Handlers<EvalApi> {
  const cache = new PredictCache();
  return {
    attachLlm: ({ port }) => attachLlm(deps, port),
    evaluate: (config, ctx) => evaluateDataset(deps, config, ctx),
    predict: (req) => predictForTask(deps, cache, req),
  };
}

function attachLlm(deps: EvalServiceDeps, port: MessagePort): null {
  deps.onLlmPort?.(port);
  return null;
}

/** Evaluates the config's methods on a dataset (or a stored memory on its own split), stored as a Run. */
export async function evaluateDataset(deps: EvalServiceDeps, config: EvalConfig, ctx: CallContext<EvalProgress>): Promise<EvalRun> {
  const { repos } = deps;
  const methods = methodIds(config.methods);
  if (!methods.length) throw new ValidationError('Choose at least one method.');
  const { dataset, data, costs, rows } = await loadTruth(repos, config.datasetId, !!config.memoryId);
  const taskIds = [...new Set(data.map((p) => p.taskId))];
  // A stored memory dictates the split (its own training tasks, test tasks it never saw) and one seed.
  const stored =
    config.memoryId && taskIds.length >= 2
      ? await planStoredMemoryEval(repos, {
          memoryId: config.memoryId,
          dataset,
          experiences: rows,
          taskIds,
          seeds: config.seeds,
          ...(config.train ? { train: config.train } : {}),
          ...(config.test ? { test: config.test } : {}),
        })
      : null;
  const llmMaxTest = config.llmMaxTest ?? DEFAULT_LLM_MAX_TEST;
  if (!Number.isInteger(llmMaxTest) || llmMaxTest < 1)
    throw new ValidationError(`The test-task limit for LLM methods must be a whole number ≥ 1, got ${llmMaxTest}.`);
  const cited = new Map(methods.filter((m) => stored && MEMORY_METHODS.includes(m)).map((m) => [m, new Set<string>()]));
  const run: EvalRun = { id: newId('eval-'), kind: 'eval', state: 'running', config: { ...config }, startedAt: Date.now() };
  let started = false;
  try {
    const outcome = await runEvaluation({
      label: dataset.name,
      data,
      scale: dataset.scale,
      preset: dataset.preset,
      methods,
      seeds: Array.from({ length: config.seeds }, (_, i) => i + 1),
      ...(config.train ? { train: config.train } : {}),
      ...(config.test ? { test: config.test } : {}),
      options: config.k !== undefined ? { k: config.k } : {},
      llmMaxTest,
      keepPredictions: true,
      ...(stored ? { stored: { split: stored.split, snapshot: async () => storedSnapshot(stored, await deps.embedder(), ctx.signal) } } : {}),
      embedder: () => deps.embedder(),
      optionalVectors: true,
      engine: () =>
        loadLlmEngine(readEngineSpec(config.engine), deps, {
          signal: ctx.signal,
          onProgress: (text, fraction) => ctx.progress({ done: fraction ?? 0, total: 1, label: `Loading the language model: ${text}` }),
        }),
      tools: () => promptTools(repos),
      signal: ctx.signal,
      whenStopped: 'throw',
      ablation: config.ablation === true,
      beforeRun: async () => {
        await repos.runs.put(run);
        started = true;
      },
      wrap: (id, p) => (cited.has(id) ? citingEntries(p, cited.get(id)!) : p),
      onProgress: (p) => ctx.progress(p),
    });
    const doneRun: EvalRun = {
      ...run,
      state: 'completed',
      metrics: resultOf(outcome, { dataset, costs, tools: await repos.tools.list(), stored, cited }),
      finishedAt: Date.now(),
    };
    await repos.runs.put(doneRun);
    return doneRun;
  } catch (err) {
    if (started)
      await repos.runs.put({
        ...run,
        state: ctx.signal.aborted ? 'cancelled' : 'failed',
        error: err instanceof Error ? err.message : String(err),
        finishedAt: Date.now(),
      });
    throw err;
  }
}
