import type { Embedder } from '../core/embed';
import { ValidationError } from '../core/errors';
import { dict, own } from '../core/data-keys';
import { newId } from '../core/ids';
import { overSeeds, type EvalReport } from '../core/eval/evaluate';
import { GroundTruthBuilder, type ScoredPair } from '../core/eval/ground-truth';
import { fitFingerprint } from '../core/eval/fingerprint';
import { toJsonReport } from '../core/eval/report';
import { checkEngineSpec, formatEngineSpec, NO_ENGINE, readEngineSpec, type EngineHost } from '../core/llm/spec';
import type { MemorySnapshot } from '../core/predict/memory';
import { createLlmPredictor, createPredictor, isLlmMethod, isMethodId, methodNeeds, methodOf, NEIGHBOUR_METHODS, type MethodId } from '../core/predict/registry';
import { selectTool } from '../core/predict/select';
import { llmStatsOf, type AnyPredictor, type ScorePrediction } from '../core/predict/types';
import { CapabilityMemoryPredictor } from '../core/capability/predictor';
import { bankSimilarities, residualBank, scoreRange, type ResidualBank } from '../core/predict/residuals';
import { pickMargin } from '../core/predict/pick-share';
import type { Repositories } from '../core/repositories';
import type { EvalRun } from '../core/records';
import type { Dataset, Experience, Tool } from '../core/types';
import type { CostFields } from '../core/cost/tool-cost';
import type { Handlers } from '../rpc';
import type { EvalApi, EvalMemoryInfo, EvalResult, PredictMemory, ToolPrediction } from './eval-api';
import { CostRows, evalCostPlane } from './eval-cost';
import { citingEntries, MEMORY_METHODS, planStoredMemoryEval, predictMemories, storedSnapshot, type StoredMemoryPlan } from './eval-memory';
import { DEFAULT_LLM_MAX_TEST, loadLlmEngine, promptTools } from './eval-llm';
import { llmTotals } from '../app/evaluate-methods';
import { promptVectors } from '../app/eval-run';
import { runEvaluation, type EvaluationOutcome } from '../app/run-evaluation';
import { scaleMeaningOption } from '../core/import/presets/scale-meanings';

/**
 * The engine host (core/llm/spec `EngineHost`) serves the LLM methods: `engineOf` hands out the llm
 * worker's in-browser models, `apiKey` is an endpoint's key; the rest run through `resolveEngine`.
 */
export interface EvalServiceDeps extends EngineHost {
  repos: Repositories;
  /** The embedding model (for methods that use prompt vectors); null when none can be loaded. */
  embedder(): Promise<Embedder | null>;
  /** Called with the port to the llm worker the page sends (`attachLlm`); hosts without one ignore it. */
  onLlmPort?(port: MessagePort): void;
}

/** Entry id → text of the memory a predictor retrieves from (memory, toolmem-llm, hybrid). */
function entryTexts(predictor: AnyPredictor): Map<string, string> {
  const memory = (predictor as { memory?: MemorySnapshot | null }).memory;
  return new Map((memory?.entries ?? []).map((e) => [e.id, e.text]));
}

function memoryInfo(plan: StoredMemoryPlan, cited: ReadonlyMap<string, ReadonlySet<string>>): EvalMemoryInfo {
  const { memory, split } = plan;
  return {
    id: memory.id, name: memory.name, engine: plan.engine, embeddingModel: memory.embeddingModel, source: plan.source, seed: split.seed, entries: plan.entries.length,
    trainTasks: [...split.train], testTasks: [...split.test], cited: Object.fromEntries([...cited].map(([m, ids]) => [m, [...ids].sort()])),
  };
}

function methodIds(methods: string[]): MethodId[] {
  const bad = methods.filter((m) => !isMethodId(m));
  if (bad.length) throw new ValidationError(`Unknown method(s): ${bad.join(', ')}.`);
  return methods as MethodId[];
}

/** Prompt vectors through the shared use case; none without an embedding model. */
async function vectorsOf(embedder: Embedder | null, data: readonly ScoredPair[]): Promise<Map<string, Float32Array> | undefined> {
  return embedder ? promptVectors(embedder, data) : undefined;
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
  ctx: { dataset: Dataset; costs: readonly CostFields[]; tools: readonly Tool[]; stored: StoredMemoryPlan | null; cited: ReadonlyMap<string, ReadonlySet<string>> },
): EvalResult {
  const { dataset, stored } = ctx;
  const report = outcome.report!;
  const llm = llmTotals(report);
  const result: EvalResult = { ...summarise(report), ...(llm ? { llm } : {}), sizes: { ...outcome.sizes }, scale: { min: dataset.scale.min, max: dataset.scale.max, integer: dataset.scale.integer } };
  if (stored) result.memory = memoryInfo(stored, ctx.cited);
  // A run that throws on a stop always has its intervals.
  result.intervals = outcome.intervals!;
  const costPlane = evalCostPlane(result.points, ctx.tools, ctx.costs, dataset.scale);
  if (costPlane) result.costPlane = costPlane;
  if (outcome.ablation) result.ablation = outcome.ablation;
  return result;
}

/**
 * Evaluations and predictions over the app's data, with the same core code as `toolmem eval`
 * (same split, seeds and methods give the same numbers). Fitted predictors are cached per
 * dataset and method until anything they were fitted on changes (`fitStamp`).
 */
export function createEvalHandlers(deps: EvalServiceDeps): Handlers<EvalApi> {
  const { repos } = deps;
  // `bank`: the method's out-of-fold residuals on the training tasks (ranges of single predictions); null for LLM methods.
  /** Stored memories' predictors, by memory id and its last write (a rebuild writes the row anew). */
  const storedPredictors = new Map<string, CapabilityMemoryPredictor>();
  const fitted = new Map<
    string,
    { stamp: string; predictor: AnyPredictor; trainedOn: number; trainedTasks: number; trainedTools: number; vectors?: Map<string, Float32Array>; prompts: Map<string, string>; entries: Map<string, string>; bank: ResidualBank | null }
  >();

  /**
   * The dataset's ground truth, read in pages: of each row only what the evaluation uses is kept
   * (its ground truth, and the cost fields of the cost plane), so a dataset is never held whole (a
   * million rows with their responses were ~0.5 GB in the worker, bench:scale). `withRows`: keep the
   * rows too, which a stored memory's evaluation needs (its evidence names them).
   */
  async function loadTruth(datasetId: string, withRows = false) {
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

  return {
    attachLlm({ port }) {
      deps.onLlmPort?.(port);
      return null;
    },

    async evaluate(config, ctx): Promise<EvalRun> {
      const methods = methodIds(config.methods);
      if (!methods.length) throw new ValidationError('Choose at least one method.');
      const { dataset, data, costs, rows } = await loadTruth(config.datasetId, !!config.memoryId);
      const taskIds = [...new Set(data.map((p) => p.taskId))];
      // A stored memory dictates the split (its own training tasks, test tasks it never saw) and one seed.
      const stored = config.memoryId && taskIds.length >= 2
        ? await planStoredMemoryEval(repos, { memoryId: config.memoryId, dataset, experiences: rows, taskIds, seeds: config.seeds, ...(config.train ? { train: config.train } : {}), ...(config.test ? { test: config.test } : {}) })
        : null;
      const llmMaxTest = config.llmMaxTest ?? DEFAULT_LLM_MAX_TEST;
      if (!Number.isInteger(llmMaxTest) || llmMaxTest < 1) throw new ValidationError(`The test-task limit for LLM methods must be a whole number ≥ 1, got ${llmMaxTest}.`);
      const cited = new Map(methods.filter((m) => stored && MEMORY_METHODS.includes(m)).map((m) => [m, new Set<string>()]));
      const run: EvalRun = { id: newId('eval-'), kind: 'eval', state: 'running', config: { ...config }, startedAt: Date.now() };
      let started = false;
      try {
        const outcome = await runEvaluation({
          label: dataset.name, data, scale: dataset.scale, preset: dataset.preset, methods, seeds: Array.from({ length: config.seeds }, (_, i) => i + 1),
          ...(config.train ? { train: config.train } : {}), ...(config.test ? { test: config.test } : {}),
          options: config.k !== undefined ? { k: config.k } : {}, llmMaxTest, keepPredictions: true,
          ...(stored ? { stored: { split: stored.split, snapshot: async () => storedSnapshot(stored, await deps.embedder(), ctx.signal) } } : {}),
          embedder: () => deps.embedder(), optionalVectors: true,
          engine: () => loadLlmEngine(readEngineSpec(config.engine), deps, { signal: ctx.signal, onProgress: (text, fraction) => ctx.progress({ done: fraction ?? 0, total: 1, label: `Loading the language model: ${text}` }) }),
          tools: () => promptTools(repos),
          signal: ctx.signal, whenStopped: 'throw', ablation: config.ablation === true,
          beforeRun: async () => {
            await repos.runs.put(run);
            started = true;
          },
          wrap: (id, p) => (cited.has(id) ? citingEntries(p, cited.get(id)!) : p),
          onProgress: (p) => ctx.progress(p),
        });
        const doneRun: EvalRun = { ...run, state: 'completed', metrics: await resultOf(outcome, { dataset, costs, tools: await repos.tools.list(), stored, cited }), finishedAt: Date.now() };
        await repos.runs.put(doneRun);
        return doneRun;
      } catch (err) {
        if (started) await repos.runs.put({ ...run, state: ctx.signal.aborted ? 'cancelled' : 'failed', error: err instanceof Error ? err.message : String(err), finishedAt: Date.now() });
        throw err;
      }
    },

    async predict(req) {
      const [method] = methodIds([req.method]);
      const { dataset, data } = await loadTruth(req.datasetId);
      const llmMethod = isLlmMethod(method!);
      // A spec that crossed the worker boundary is checked; its canonical string keys the fitted model.
      const spec = llmMethod ? checkEngineSpec(req.engine ?? NO_ENGINE) : NO_ENGINE;
      const key = `${req.datasetId}|${method}|${llmMethod ? formatEngineSpec(spec) : ''}`;
      const wantsVectors = methodNeeds(method!).vectors !== false;
      const fitEmbedder = wantsVectors ? await deps.embedder() : null;
      const cards = llmMethod ? await promptTools(repos) : null;
      const stamp = fitStamp(data, dataset, fitEmbedder, cards);
      let model = fitted.get(key);
      if (!model || model.stamp !== stamp) {
        const vectors = wantsVectors ? await vectorsOf(fitEmbedder, data) : undefined;
        const predictor = llmMethod
          ? createLlmPredictor(method, { engine: await loadLlmEngine(spec, deps), tools: cards!, ...scaleMeaningOption(dataset.preset) })
          : createPredictor(method!);
        const examples = data.map((p) => ({ id: `${p.taskId}|${p.toolId}`, taskId: p.taskId, prompt: p.prompt, toolId: p.toolId, score: p.score, ratings: p.ratings, categories: p.categories, ...(vectors?.get(p.taskId) ? { vector: vectors.get(p.taskId)! } : {}) }));
        await predictor.fit({ scale: dataset.scale, examples });
        // LLM methods get no range: out-of-fold residuals would cost a model call per training task and tool.
        const bank = llmMethod ? null : await residualBank(() => createPredictor(method!), { scale: dataset.scale, examples });
        model = { stamp, predictor, trainedOn: data.length, trainedTasks: new Set(data.map((p) => p.taskId)).size, trainedTools: new Set(data.map((p) => p.toolId)).size, prompts: new Map(data.map((p) => [p.taskId, p.prompt])), entries: entryTexts(predictor), bank, ...(vectors ? { vectors } : {}) };
        fitted.set(key, model);
      }
      // The memory method with a stored memory (the Predict page's choice): its own fit and claims,
      // as built; ranges still come from the method's errors on the dataset's training tasks.
      let predictor: AnyPredictor = model.predictor;
      let usedMemory: PredictMemory | undefined;
      let storedVectors = false;
      if (method === 'memory' && req.memoryId) {
        const stored = await repos.memories.get(req.memoryId);
        const info = (await predictMemories(repos, req.datasetId)).find((m) => m.id === req.memoryId);
        if (!stored?.capability?.model || !info) throw new ValidationError(`The memory ${req.memoryId} has no capability model for this dataset; build one on the Memory page.`);
        const memoryKey = `${req.memoryId}|${stored.updatedAt}`;
        let cachedPredictor = storedPredictors.get(memoryKey);
        if (!cachedPredictor) {
          cachedPredictor = CapabilityMemoryPredictor.fromModel(stored.capability.model);
          storedPredictors.set(memoryKey, cachedPredictor);
        }
        predictor = cachedPredictor;
        usedMemory = info;
        // Theme facets need the prompt's vector in the memory's own embedding model.
        storedVectors = stored.capability.model.facets.some((f) => f.facet.kind === 'theme') && (await deps.embedder())?.id === stored.embeddingModel;
      }
      const embedder = model.vectors || storedVectors ? await deps.embedder() : null;
      const vector = embedder ? (await embedder.embed([req.prompt])).data : undefined;
      const tools = req.candidates?.length ? req.candidates : [...new Set(data.map((p) => p.toolId))].sort();
      const scores = new Map(data.map((p) => [`${p.taskId}|${p.toolId}`, p.score]));
      const before = llmStatsOf(model.predictor);
      const predictions: ToolPrediction[] = [];
      const query = { taskId: '__query__', prompt: req.prompt, ...(vector ? { vector } : {}) };
      const sims = model.bank ? bankSimilarities(model.bank, query) : null;
      for (const toolId of tools) {
        const p = await predictor.predict(query, toolId);
        const range = model.bank && sims ? scoreRange(model.bank, sims, toolId, p.score, dataset.scale) : null;
        predictions.push({
          toolId,
          score: p.score,
          evidence: p.evidence.slice(0, 5).map((e) => {
            if (e.kind === 'entry') return { kind: e.kind, id: e.id, similarity: e.similarity, text: model.entries.get(e.id) ?? p.explanation?.contributions.find((c) => c.entryId === e.id)?.text ?? e.id };
            const taskId = e.id.split('|')[0] ?? e.id;
            const s = scores.get(e.id);
            return { kind: e.kind, id: e.id, similarity: e.similarity, text: model.prompts.get(taskId) ?? e.id, ...(s !== undefined ? { score: s } : {}) };
          }),
          ...(p.explanation ? { explanation: p.explanation } : {}),
          ...(range ? { range } : {}),
          ...(onlyMean(method!, p) ? { onlyMean: true } : {}),
        });
      }
      const after = llmStatsOf(model.predictor);
      const cost = (toolId: string) => own(req.costs, toolId);
      const latency = (toolId: string) => own(req.latencies, toolId);
      const limits = { ...(req.maxCost !== undefined ? { maxCost: req.maxCost } : {}), ...(req.maxLatencyMs !== undefined ? { maxLatencyMs: req.maxLatencyMs } : {}) };
      const selection = selectTool(
        predictions.map((p) => ({ toolId: p.toolId, score: p.score, ...(cost(p.toolId) !== undefined ? { cost: cost(p.toolId)! } : {}), ...(latency(p.toolId) !== undefined ? { latencyMs: latency(p.toolId)! } : {}) })),
        { margin: req.margin ?? 0, direction: dataset.scale.direction, costWeight: req.costWeight ?? 0, ...limits },
      );
      const llm = before && after ? { parseFailures: after.parseFailures - before.parseFailures, outOfRange: after.outOfRange - before.outOfRange } : undefined;
      const pick = pickMargin(selection.ranked, dataset.scale.direction === 'lower-better' ? -1 : 1, dataset.scale, model.bank && sims ? { bank: model.bank, sims } : null);
      const ranges = model.bank ? { folds: model.bank.folds, tasks: model.bank.tasks.length, maxTrain: model.bank.maxTrain, allTasks: model.bank.allTasks } : { unavailable: llmMethod ? 'LLM methods have no range: it would take a model call per training task and tool.' : 'Too few training tasks for a range.' };
      return { method: method!, predictions, selection, trainedOn: model.trainedOn, trainedTasks: model.trainedTasks, trainedTools: model.trainedTools, ...(usedMemory ? { memory: usedMemory } : {}), ...(llm ? { llm } : {}), ...(pick ? { pick } : {}), ranges };
    },
  };
}


/**
 * Everything a fitted model depends on besides its method and engine (the cache key): the ground
 * truth itself (a relabel moves it, issue #35), the scale and preset, the embedding model its prompt
 * vectors came from, and for LLM methods the tool cards they show the model. A model is refitted
 * when any of them changes, and only then.
 */
function fitStamp(data: readonly ScoredPair[], dataset: Dataset, embedder: Embedder | null, tools: ReadonlyMap<string, unknown> | null): string {
  const { min, max, integer, direction } = dataset.scale;
  const scale = `${min}..${max}${integer ? 'i' : ''}${direction}`;
  return [fitFingerprint(data), scale, dataset.preset, embedder?.id ?? '', tools ? JSON.stringify([...tools.values()]) : ''].join('\u0000');
}

/**
 * The prediction is only the tool's training mean (or median): a constant method, or a neighbour /
 * memory method that found no similar task or applying entry to move it.
 */
function onlyMean(method: MethodId, p: ScorePrediction): boolean {
  if (!methodOf(method).readsTask) return true;
  if (!NEIGHBOUR_METHODS.includes(method)) return false;
  const contributions = p.explanation?.contributions;
  return contributions ? contributions.length === 0 : p.evidence.length === 0;
}
