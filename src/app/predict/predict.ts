/**
 * Predict and select for a new task over a dataset (the Predict page, through the predictors
 * worker): a method fitted on the dataset's ground truth — or, for the `memory` method, a stored
 * capability memory as it was built — predicts every candidate tool, and `predictAndSelect` ranks
 * them. Each prediction comes with its evidence, its range (80%, from the method's out-of-fold
 * residuals on similar training tasks) and whether it is only the tool's mean.
 *
 * Fitted predictors are kept per dataset, method and engine until anything they were fitted on
 * changes (`fitStamp`, keyed by core/eval/fingerprint.ts); stored memories' predictors per memory
 * and its last write (a rebuild writes the row anew).
 */
import type { Embedder } from '../../core/embed';
import { ValidationError } from '../../core/errors';
import { trainingExample, type ScoredPair } from '../../core/eval/ground-truth';
import { fitFingerprint } from '../../core/eval/fingerprint';
import { checkEngineSpec, formatEngineSpec, NO_ENGINE, type EngineHost } from '../../core/llm/spec';
import type { MemorySnapshot } from '../../core/predict/memory';
import { createLlmPredictor, createPredictor, isLlmMethod, methodNeeds, methodOf, NEIGHBOUR_METHODS, type MethodId } from '../../core/predict/registry';
import { llmStatsOf, type AnyPredictor, type ScorePrediction } from '../../core/predict/types';
import { CapabilityMemoryPredictor } from '../../core/capability/predictor';
import { bankSimilarities, residualBank, scoreRange, type ResidualBank } from '../../core/predict/residuals';
import { pickMargin } from '../../core/predict/pick-share';
import type { Repositories } from '../../core/repositories';
import type { Dataset } from '../../core/types';
import { scaleMeaningOption } from '../../core/import/presets/scale-meanings';
import type { PredictMemory, PredictRequest, PredictResponse, ToolPrediction } from '../evaluate/api';
import { loadTruth, methodIds } from '../evaluate/inputs';
import { loadLlmEngine, promptTools } from '../evaluate/llm';
import { predictMemories } from '../evaluate/memory-plan';
import { promptVectors } from '../evaluate/eval-run';
import { costedCandidates, predictAndSelect } from './select';

/** What predicting needs from its host: the store, the embedding model, the LLM engines. */
export interface PredictDeps extends EngineHost {
  repos: Repositories;
  /** The embedding model (for methods that use prompt vectors); null when none can be loaded. */
  embedder(): Promise<Embedder | null>;
}

/** A method fitted on a dataset. `bank`: its out-of-fold residuals on the training tasks (ranges); null for LLM methods. */
interface FittedModel {
  stamp: string;
  predictor: AnyPredictor;
  trainedOn: number;
  trainedTasks: number;
  trainedTools: number;
  vectors?: Map<string, Float32Array>;
  prompts: Map<string, string>;
  entries: Map<string, string>;
  bank: ResidualBank | null;
}

/** The predictors one host keeps between predictions. */
export class PredictCache {
  /** By dataset, method and engine. */
  readonly fitted = new Map<string, FittedModel>();
  /** Stored memories' predictors, by memory id and its last write. */
  readonly stored = new Map<string, CapabilityMemoryPredictor>();
}

type Truth = { dataset: Dataset; data: ScoredPair[] };

export async function predictForTask(deps: PredictDeps, cache: PredictCache, req: PredictRequest): Promise<PredictResponse> {
  const [method] = methodIds([req.method]) as [MethodId];
  const truth = await loadTruth(deps.repos, req.datasetId);
  const { dataset, data } = truth;
  const model = await fittedModel(deps, cache, req, method, truth);
  // The memory method with a stored memory (the Predict page's choice): its own fit and claims,
  // as built; ranges still come from the method's errors on the dataset's training tasks.
  const stored = method === 'memory' && req.memoryId ? await storedMemoryPredictor(deps, cache, req.memoryId, req.datasetId) : null;
  const predictor = stored?.predictor ?? model.predictor;
  const embedder = model.vectors || stored?.vectors ? await deps.embedder() : null;
  const vector = embedder ? (await embedder.embed([req.prompt])).data : undefined;
  const tools = req.candidates?.length ? req.candidates : [...new Set(data.map((p) => p.toolId))].sort();
  const query = { taskId: '__query__', prompt: req.prompt, ...(vector ? { vector } : {}) };
  const sims = model.bank ? bankSimilarities(model.bank, query) : null;
  const before = llmStatsOf(model.predictor);
  const limits = {
    ...(req.maxCost !== undefined ? { maxCost: req.maxCost } : {}),
    ...(req.maxLatencyMs !== undefined ? { maxLatencyMs: req.maxLatencyMs } : {}),
  };
  const { predictions: byTool, ...selection } = await predictAndSelect(
    (toolId) => predictor.predict(query, toolId),
    costedCandidates(tools, req.costs, req.latencies),
    {
      margin: req.margin ?? 0,
      direction: dataset.scale.direction,
      costWeight: req.costWeight ?? 0,
      ...limits,
    },
  );
  const after = llmStatsOf(model.predictor);
  const scores = new Map(data.map((p) => [`${p.taskId}|${p.toolId}`, p.score]));
  const predictions = tools.map((toolId) => {
    const p = byTool[toolId]!;
    const range = model.bank && sims ? scoreRange(model.bank, sims, toolId, p.score, dataset.scale) : null;
    return toolPrediction(model, method, toolId, p, scores, range);
  });
  const llm = before && after ? { parseFailures: after.parseFailures - before.parseFailures, outOfRange: after.outOfRange - before.outOfRange } : undefined;
  const pick = pickMargin(
    selection.ranked,
    dataset.scale.direction === 'lower-better' ? -1 : 1,
    dataset.scale,
    model.bank && sims ? { bank: model.bank, sims } : null,
  );
  return {
    method,
    predictions,
    selection,
    trainedOn: model.trainedOn,
    trainedTasks: model.trainedTasks,
    trainedTools: model.trainedTools,
    ...(stored ? { memory: stored.info } : {}),
    ...(llm ? { llm } : {}),
    ...(pick ? { pick } : {}),
    ranges: rangesNote(model, isLlmMethod(method)),
  };
}

/** The method fitted on the dataset, from the cache while nothing it was fitted on has changed. */
async function fittedModel(deps: PredictDeps, cache: PredictCache, req: PredictRequest, method: MethodId, { dataset, data }: Truth): Promise<FittedModel> {
  const llmMethod = isLlmMethod(method);
  // A spec that crossed the worker boundary is checked; its canonical string keys the fitted model.
  const spec = llmMethod ? checkEngineSpec(req.engine ?? NO_ENGINE) : NO_ENGINE;
  const key = `${req.datasetId}|${method}|${llmMethod ? formatEngineSpec(spec) : ''}`;
  const wantsVectors = methodNeeds(method).vectors !== false;
  const fitEmbedder = wantsVectors ? await deps.embedder() : null;
  const cards = llmMethod ? await promptTools(deps.repos) : null;
  const stamp = fitStamp(data, dataset, fitEmbedder, cards);
  const cached = cache.fitted.get(key);
  if (cached && cached.stamp === stamp) return cached;
  const vectors = wantsVectors && fitEmbedder ? await promptVectors(fitEmbedder, data) : undefined;
  const predictor = llmMethod
    ? createLlmPredictor(method, { engine: await loadLlmEngine(spec, deps), tools: cards!, ...scaleMeaningOption(dataset.preset) })
    : createPredictor(method);
  const examples = data.map((p) => ({ id: `${p.taskId}|${p.toolId}`, ...trainingExample(p, vectors) }));
  await predictor.fit({ scale: dataset.scale, examples });
  // LLM methods get no range: out-of-fold residuals would cost a model call per training task and tool.
  const bank = llmMethod ? null : await residualBank(() => createPredictor(method), { scale: dataset.scale, examples });
  const model: FittedModel = {
    stamp,
    predictor,
    trainedOn: data.length,
    trainedTasks: new Set(data.map((p) => p.taskId)).size,
    trainedTools: new Set(data.map((p) => p.toolId)).size,
    prompts: new Map(data.map((p) => [p.taskId, p.prompt])),
    entries: entryTexts(predictor),
    bank,
    ...(vectors ? { vectors } : {}),
  };
  cache.fitted.set(key, model);
  return model;
}

/** A stored capability memory's predictor as it was built; `vectors`: its theme facets need the prompt's vector. */
async function storedMemoryPredictor(deps: PredictDeps, cache: PredictCache, memoryId: string, datasetId: string) {
  const stored = await deps.repos.memories.get(memoryId);
  const info: PredictMemory | undefined = (await predictMemories(deps.repos, datasetId)).find((m) => m.id === memoryId);
  if (!stored?.capability?.model || !info)
    throw new ValidationError(`The memory ${memoryId} has no capability model for this dataset; build one on the Memory page.`);
  const memoryKey = `${memoryId}|${stored.updatedAt}`;
  let predictor = cache.stored.get(memoryKey);
  if (!predictor) {
    predictor = CapabilityMemoryPredictor.fromModel(stored.capability.model);
    cache.stored.set(memoryKey, predictor);
  }
  // Theme facets and the tag detectors (issue #34) read the prompt's vector in the memory's own embedding model.
  const m = stored.capability.model;
  const vectors = (m.facets.some((f) => f.facet.kind === 'theme') || (m.detectors?.dim ?? 0) > 0) && (await deps.embedder())?.id === stored.embeddingModel;
  return { predictor, info, vectors };
}

/** One tool's line of the answer: its score, its first five pieces of evidence with their text, its range. */
function toolPrediction(
  model: FittedModel,
  method: MethodId,
  toolId: string,
  p: ScorePrediction,
  scores: ReadonlyMap<string, number>,
  range: ToolPrediction['range'] | null,
): ToolPrediction {
  return {
    toolId,
    score: p.score,
    evidence: p.evidence.slice(0, 5).map((e) => {
      if (e.kind === 'entry')
        return {
          kind: e.kind,
          id: e.id,
          similarity: e.similarity,
          text: model.entries.get(e.id) ?? p.explanation?.contributions.find((c) => c.entryId === e.id)?.text ?? e.id,
        };
      const taskId = e.id.split('|')[0] ?? e.id;
      const s = scores.get(e.id);
      return { kind: e.kind, id: e.id, similarity: e.similarity, text: model.prompts.get(taskId) ?? e.id, ...(s !== undefined ? { score: s } : {}) };
    }),
    ...(p.explanation ? { explanation: p.explanation } : {}),
    ...(range ? { range } : {}),
    ...(onlyMean(method, p) ? { onlyMean: true } : {}),
  };
}

function rangesNote(model: FittedModel, llmMethod: boolean): NonNullable<PredictResponse['ranges']> {
  if (model.bank) return { folds: model.bank.folds, tasks: model.bank.tasks.length, maxTrain: model.bank.maxTrain, allTasks: model.bank.allTasks };
  return {
    unavailable: llmMethod ? 'LLM methods have no range: it would take a model call per training task and tool.' : 'Too few training tasks for a range.',
  };
}

/** Entry id → text of the memory a predictor retrieves from (memory, toolmem-llm, hybrid). */
function entryTexts(predictor: AnyPredictor): Map<string, string> {
  const memory = (predictor as { memory?: MemorySnapshot | null }).memory;
  return new Map((memory?.entries ?? []).map((e) => [e.id, e.text]));
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
