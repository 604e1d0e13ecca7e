/**
 * Method ids and construction. Offline methods need no LLM and run anywhere; `memory` uses a given
 * memory snapshot, or builds a capability memory from the training split (facets, effects, entries
 * and the joint facet model of src/core/capability, no LLM); the LLM methods need an engine
 * (`createLlmPredictor`).
 */
import { CapabilityMemoryPredictor, type SerializedCapabilityModel } from '../capability/predictor';
import { ToolMeanPredictor, ToolMedianPredictor } from './baselines';
import { EnsemblePredictor, type EnsembleOptions } from './ensemble';
import { KnnDifficultyPredictor, KnnPredictor, type NeighbourCut } from './knn';
import { HybridPredictor } from './hybrid';
import { FewShotLlmPredictor, GenericLlmPredictor, ToolMemLlmPredictor, type LlmPredictorOptions } from './llm';
import { MemoryPredictor, type MemorySnapshot } from './memory';
import { RidgePredictor } from './ridge';
import type { SimilarityKind } from './similarity';
import { LLM_METHODS, type AsyncPredictor, type LlmMethodId, type Predictor, type PredictorNeeds } from './types';

export const OFFLINE_METHODS = ['tool-mean', 'tool-median', 'knn', 'knn-difficulty', 'ridge', 'ensemble'] as const;
export type OfflineMethodId = (typeof OFFLINE_METHODS)[number];
export type MethodId = OfflineMethodId | 'memory' | LlmMethodId;
export const ALL_METHODS: readonly MethodId[] = [...OFFLINE_METHODS, 'memory', ...LLM_METHODS];
/** Methods whose neighbour count k is meaningful (top-k ablation, --k). */
export const NEIGHBOUR_METHODS: readonly MethodId[] = ['knn', 'knn-difficulty', 'memory'];

export function isMethodId(id: string): id is MethodId {
  return (ALL_METHODS as readonly string[]).includes(id);
}

export function isOfflineMethod(id: string): id is OfflineMethodId {
  return (OFFLINE_METHODS as readonly string[]).includes(id);
}

export function isLlmMethod(id: string): id is LlmMethodId {
  return (LLM_METHODS as readonly string[]).includes(id);
}

export interface MethodOptions {
  /** Neighbours for knn / knn-difficulty (default 24) and entries per level for memory (default 12). */
  k?: number;
  cut?: NeighbourCut;
  similarity?: SimilarityKind;
  /** Average all raters' scores for training targets (default true). */
  useAllRaters?: boolean;
  ensemble?: EnsembleOptions;
  memory?: MemorySnapshot;
}

export function methodNeeds(id: MethodId, opts: MethodOptions = {}): PredictorNeeds {
  if (id === 'ensemble') return { vectors: 'optional' };
  if (id === 'knn' || id === 'knn-difficulty') return { vectors: opts.similarity === 'dense' || opts.similarity === 'hybrid' };
  // The capability memory uses vectors for its theme facets when given, and runs without them.
  if (id === 'memory' && !opts.memory) return { vectors: 'optional' };
  if (id === 'memory' || id === 'toolmem-llm' || id === 'hybrid') return { vectors: true, memory: true, ...(id === 'memory' ? {} : { llm: true }) };
  if (id === 'fewshot-llm') return { llm: true, vectors: opts.similarity === 'dense' || opts.similarity === 'hybrid' };
  if (isLlmMethod(id)) return { llm: true };
  return {};
}

/** A fresh, unfitted predictor. Throws for the LLM methods (see `createLlmPredictor`). */
export function createPredictor(id: MethodId, opts: MethodOptions = {}): Predictor {
  const knn = { k: opts.k, cut: opts.cut, similarity: opts.similarity, useAllRaters: opts.useAllRaters };
  switch (id) {
    case 'tool-mean':
      return new ToolMeanPredictor();
    case 'tool-median':
      return new ToolMedianPredictor();
    case 'knn':
      return new KnnPredictor(knn);
    case 'knn-difficulty':
      return new KnnDifficultyPredictor(knn);
    case 'ridge':
      return new RidgePredictor({ useAllRaters: opts.useAllRaters });
    case 'ensemble':
      return new EnsemblePredictor({ useAllRaters: opts.useAllRaters, ...opts.ensemble });
    case 'memory':
      // A stored memory when given; otherwise a capability memory built from each training split
      // (evaluation). The evidence-cluster memory stays available as InducedMemoryPredictor.
      if (opts.memory?.capability) return storedCapabilityPredictor(opts.memory.capability);
      if (opts.memory) return new MemoryPredictor({ memory: opts.memory, k: opts.k, cut: opts.cut });
      return new CapabilityMemoryPredictor();
    default:
      throw new Error(`method '${id}' needs an LLM: use createLlmPredictor with an engine`);
  }
}

/** A fresh LLM predictor over `llm.engine` (k = examples / entries per level, default 12). */
export function createLlmPredictor(id: LlmMethodId, llm: LlmPredictorOptions, opts: MethodOptions = {}): AsyncPredictor {
  const base: LlmPredictorOptions = { ...llm, ...(opts.k !== undefined ? { k: opts.k } : {}), ...(opts.similarity ? { similarity: opts.similarity } : {}), ...(opts.memory ? { memory: opts.memory } : {}) };
  switch (id) {
    case 'generic-llm':
      return new GenericLlmPredictor(base);
    case 'fewshot-llm':
      return new FewShotLlmPredictor(base);
    case 'toolmem-llm':
      return new ToolMemLlmPredictor(base);
    case 'hybrid':
      // k of the numeric side keeps its own default; the ensemble has no k.
      return new HybridPredictor({ ...base, numeric: createPredictor('ensemble', { useAllRaters: opts.useAllRaters, ensemble: opts.ensemble }) });
  }
}

/**
 * A stored capability memory as a predictor: it was fitted on its own training split, so `fit` keeps
 * it as it is (refitting on the evaluation's training tasks would measure another memory).
 */
export function storedCapabilityPredictor(model: SerializedCapabilityModel): Predictor {
  const inner = CapabilityMemoryPredictor.fromModel(model);
  return { id: 'memory', needs: inner.needs, fit: () => undefined, predict: (task, toolId) => inner.predict(task, toolId) };
}
