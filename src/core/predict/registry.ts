/**
 * Method ids and construction. Offline methods need no LLM and run anywhere; `memory` needs a
 * memory snapshot; the LLM methods are declared (types.ts) but not built yet.
 */
import { ToolMeanPredictor, ToolMedianPredictor } from './baselines';
import { EnsemblePredictor, type EnsembleOptions } from './ensemble';
import { KnnDifficultyPredictor, KnnPredictor, type NeighbourCut } from './knn';
import { MemoryPredictor, type MemorySnapshot } from './memory';
import { RidgePredictor } from './ridge';
import type { SimilarityKind } from './similarity';
import { LLM_METHODS, type LlmMethodId, type Predictor, type PredictorNeeds } from './types';

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
  if (id === 'memory') return { vectors: true, memory: true };
  if ((LLM_METHODS as readonly string[]).includes(id)) return { llm: true };
  return {};
}

/** A fresh, unfitted predictor. Throws for methods that cannot run offline yet. */
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
      if (!opts.memory) throw new Error("method 'memory' needs a memory snapshot");
      return new MemoryPredictor({ memory: opts.memory, k: opts.k, cut: opts.cut });
    default:
      throw new Error(`method '${id}' needs an LLM and is not available offline`);
  }
}
