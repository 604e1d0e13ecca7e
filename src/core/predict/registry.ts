/**
 * The one method registry: every prediction method, by id, with what a picker shows (label and a
 * one-line description), what it needs from its host, and how to make a fresh, unfitted predictor.
 * Every list (the CLI's, the Evaluate and Predict pickers', the neighbour methods of the top-k
 * ablation, the methods that read a stored memory) is derived from this table, so a method is
 * added in one place.
 *
 * Offline methods need no LLM and run anywhere; `memory` uses a given memory snapshot, or builds a
 * capability memory from the training split (facets, effects, entries and the joint facet model of
 * src/core/capability, no LLM); the LLM methods need an engine (`createLlm`).
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
import type { AsyncPredictor, LlmMethodId, Predictor, PredictorNeeds } from './types';

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

interface MethodInfo {
  readonly id: string;
  /** A short name for pickers (the id stays what tables, reports and the CLI show). */
  readonly label: string;
  /** What the method reads to predict, in one sentence. */
  readonly description: string;
  /** Its neighbour count k is meaningful (--k; the top-k ablation sweeps the offline ones). */
  readonly neighbours: boolean;
  /** It reads a stored memory when given one (EvalConfig.memoryId, --memory). */
  readonly usesMemory: boolean;
  /** False for the per-tool baselines: their prediction is the tool's mean or median whatever the task. */
  readonly readsTask: boolean;
  needs(opts: MethodOptions): PredictorNeeds;
}

/** A method that runs anywhere: `offline` ones learn from the scores alone, `memory` from a capability memory. */
export interface LocalMethod extends MethodInfo {
  readonly kind: 'offline' | 'memory';
  create(opts: MethodOptions): Predictor;
}

/** A method that asks a language model (the evaluation awaits it; it may be cancelled). */
export interface LlmMethod extends MethodInfo {
  readonly kind: 'llm';
  createLlm(llm: LlmPredictorOptions, opts: MethodOptions): AsyncPredictor;
}

export type MethodDef = LocalMethod | LlmMethod;

const denseVectors = (opts: MethodOptions) => opts.similarity === 'dense' || opts.similarity === 'hybrid';
const neighbourOptions = (opts: MethodOptions) => ({ k: opts.k, cut: opts.cut, similarity: opts.similarity, useAllRaters: opts.useAllRaters });
/** The options every LLM predictor takes from the method options (k = examples / entries per level, default 12). */
const llmBase = (llm: LlmPredictorOptions, opts: MethodOptions): LlmPredictorOptions => ({
  ...llm,
  ...(opts.k !== undefined ? { k: opts.k } : {}),
  ...(opts.similarity ? { similarity: opts.similarity } : {}),
  ...(opts.memory ? { memory: opts.memory } : {}),
});
const plain = { neighbours: false, usesMemory: false, readsTask: true } as const;

const TABLE = [
  {
    ...plain,
    id: 'tool-mean',
    kind: 'offline',
    label: 'Tool mean',
    description: "The tool's mean training score, whatever the task: the baseline the others are compared with.",
    readsTask: false,
    needs: () => ({}),
    create: () => new ToolMeanPredictor(),
  },
  {
    ...plain,
    id: 'tool-median',
    kind: 'offline',
    label: 'Tool median',
    description: "The tool's median training score, whatever the task.",
    readsTask: false,
    needs: () => ({}),
    create: () => new ToolMedianPredictor(),
  },
  {
    ...plain,
    id: 'knn',
    kind: 'offline',
    label: 'Similar tasks',
    description: "The tool's scores on the most similar training tasks, weighted by their similarity.",
    neighbours: true,
    needs: (o) => ({ vectors: denseVectors(o) }),
    create: (o) => new KnnPredictor(neighbourOptions(o)),
  },
  {
    ...plain,
    id: 'knn-difficulty',
    kind: 'offline',
    label: 'Similar tasks and their difficulty',
    description: 'How hard the most similar training tasks were for every tool, plus how this tool did on them beyond that.',
    neighbours: true,
    needs: (o) => ({ vectors: denseVectors(o) }),
    create: (o) => new KnnDifficultyPredictor(neighbourOptions(o)),
  },
  {
    ...plain,
    id: 'ridge',
    kind: 'offline',
    label: 'Word regression',
    description: "A ridge regression of each tool's score on the prompt's words and word pairs.",
    needs: () => ({}),
    create: (o) => new RidgePredictor({ useAllRaters: o.useAllRaters }),
  },
  {
    ...plain,
    id: 'ensemble',
    kind: 'offline',
    label: 'Ensemble',
    description: 'Stacked regressions on prompt features (and vectors when there are any), each choice cross-validated on the training tasks.',
    needs: () => ({ vectors: 'optional' }),
    create: (o) => new EnsemblePredictor({ useAllRaters: o.useAllRaters, ...o.ensemble }),
  },
  {
    ...plain,
    id: 'memory',
    kind: 'memory',
    label: 'Capability memory',
    description: "The tool's mean plus the measured effect of each memory entry that applies to the task.",
    neighbours: true,
    usesMemory: true,
    // The capability memory uses vectors for its theme facets when given, and runs without them.
    needs: (o) => (o.memory ? { vectors: true, memory: true } : { vectors: 'optional' }),
    // A stored memory when given; otherwise a capability memory built from each training split
    // (evaluation). The evidence-cluster memory stays available as InducedMemoryPredictor.
    create: (o) =>
      o.memory?.capability
        ? storedCapabilityPredictor(o.memory.capability)
        : o.memory
          ? new MemoryPredictor({ memory: o.memory, k: o.k, cut: o.cut })
          : new CapabilityMemoryPredictor(),
  },
  {
    ...plain,
    id: 'generic-llm',
    kind: 'llm',
    label: 'Language model, tool description only',
    description: "The language model's estimate from the tool's name and description.",
    needs: () => ({ llm: true }),
    createLlm: (llm, o) => new GenericLlmPredictor(llmBase(llm, o)),
  },
  {
    ...plain,
    id: 'fewshot-llm',
    kind: 'llm',
    label: 'Language model with similar examples',
    description: 'The language model, shown the most similar scored training experiences.',
    needs: (o) => ({ llm: true, vectors: denseVectors(o) }),
    createLlm: (llm, o) => new FewShotLlmPredictor(llmBase(llm, o)),
  },
  {
    ...plain,
    id: 'toolmem-llm',
    kind: 'llm',
    label: 'Language model with the memory',
    description: "The language model, shown the tool's memory entries related to the task.",
    usesMemory: true,
    needs: () => ({ vectors: true, memory: true, llm: true }),
    createLlm: (llm, o) => new ToolMemLlmPredictor(llmBase(llm, o)),
  },
  {
    ...plain,
    id: 'hybrid',
    kind: 'llm',
    label: 'Language model with the memory, blended with the ensemble',
    description: 'The memory-prompted estimate and the ensemble, averaged with a fixed weight.',
    usesMemory: true,
    needs: () => ({ vectors: true, memory: true, llm: true }),
    // k of the numeric side keeps its own default; the ensemble has no k.
    createLlm: (llm, o) => new HybridPredictor({ ...llmBase(llm, o), numeric: new EnsemblePredictor({ useAllRaters: o.useAllRaters, ...o.ensemble }) }),
  },
] as const satisfies readonly MethodDef[];

type Entry = (typeof TABLE)[number];
export type MethodId = Entry['id'];
/** Methods that need no LLM and no memory. */
export type OfflineMethodId = Extract<Entry, { kind: 'offline' }>['id'];
type TableLlmId = Extract<Entry, { kind: 'llm' }>['id'];
// The LLM predictors name their ids with LlmMethodId (types.ts): the table must list exactly those.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const LLM_IDS_MATCH: Same<TableLlmId, LlmMethodId> = true;
void LLM_IDS_MATCH;

/** Every method by id, in the table's order (the order pickers and default lists show). */
export const METHODS: ReadonlyMap<MethodId, MethodDef> = new Map(TABLE.map((d) => [d.id, d]));

const idsWhere = <I extends MethodId>(keep: (d: Entry) => boolean): readonly I[] => TABLE.filter(keep).map((d) => d.id as I);

export const ALL_METHODS: readonly MethodId[] = idsWhere(() => true);
/** Methods that need neither an LLM nor a memory (tool-mean … ensemble). */
export const OFFLINE_METHODS: readonly OfflineMethodId[] = idsWhere((d) => d.kind === 'offline');
/** Methods that run without a language model: the offline ones and `memory`. */
export const NUMERIC_METHODS: readonly MethodId[] = idsWhere((d) => d.kind !== 'llm');
export const LLM_METHODS: readonly LlmMethodId[] = idsWhere((d) => d.kind === 'llm');
/** Methods whose neighbour count k is meaningful (--k). */
export const NEIGHBOUR_METHODS: readonly MethodId[] = idsWhere((d) => d.neighbours);
/**
 * Methods the top-k ablation sweeps: the neighbour methods that learn from the scores alone. The
 * `memory` method is left out in every host: the ablation gives it no memory snapshot, so it builds
 * a capability memory, which ignores k — its rows would be one flat line.
 */
export const TOPK_ABLATION_METHODS: readonly MethodId[] = idsWhere((d) => d.neighbours && d.kind === 'offline');
/** Methods that read a stored memory's entries when given one (memory, toolmem-llm, hybrid). */
export const MEMORY_METHODS: readonly MethodId[] = idsWhere((d) => d.usesMemory);

export function isMethodId(id: string): id is MethodId {
  return METHODS.has(id as MethodId);
}

export function isOfflineMethod(id: string): id is OfflineMethodId {
  return METHODS.get(id as MethodId)?.kind === 'offline';
}

export function isLlmMethod(id: string): id is LlmMethodId {
  return METHODS.get(id as MethodId)?.kind === 'llm';
}

/** The registry entry of a known id. */
export function methodOf(id: MethodId): MethodDef {
  return METHODS.get(id)!;
}

export function methodNeeds(id: MethodId, opts: MethodOptions = {}): PredictorNeeds {
  return methodOf(id).needs(opts);
}

/** A fresh, unfitted predictor. Throws for the LLM methods (see `createLlmPredictor`). */
export function createPredictor(id: MethodId, opts: MethodOptions = {}): Predictor {
  const def = methodOf(id);
  if (def.kind === 'llm') throw new Error(`method '${id}' needs an LLM: use createLlmPredictor with an engine`);
  return def.create(opts);
}

/** A fresh LLM predictor over `llm.engine` (k = examples / entries per level, default 12). */
export function createLlmPredictor(id: LlmMethodId, llm: LlmPredictorOptions, opts: MethodOptions = {}): AsyncPredictor {
  const def = methodOf(id);
  if (def.kind !== 'llm') throw new Error(`method '${id}' is not an LLM method`);
  return def.createLlm(llm, opts);
}

/**
 * A stored capability memory as a predictor: it was fitted on its own training split, so `fit` keeps
 * it as it is (refitting on the evaluation's training tasks would measure another memory).
 */
export function storedCapabilityPredictor(model: SerializedCapabilityModel): Predictor {
  const inner = CapabilityMemoryPredictor.fromModel(model);
  return { kind: 'sync', id: 'memory', needs: inner.needs, fit: () => undefined, predict: (task, toolId) => inner.predict(task, toolId) };
}
