/**
 * LLM score predictors (the paper's baselines and ToolMem's predictor), one model call per
 * (task, tool), temperature 0:
 *  - `generic-llm`  the tool's name and description only;
 *  - `fewshot-llm`  the tool's k most similar training experiences (default 12): task excerpt + score;
 *  - `toolmem-llm`  the tool's memory entries, top k PER LEVEL (default 12) by similarity to the
 *                   task, with their levels. The memory is the one given (a stored memory) or, by
 *                   default, the capability analysis of the training split (facets and their
 *                   effects, no LLM; capability-retriever.ts), retrieved by the facets that apply.
 * Replies are parsed by `parseScoreReply`; off-scale numbers are clamped (the prediction is marked
 * clamped and counted), an unreadable reply falls back to the tool's training mean and counts as a
 * parse failure. Engine errors (server down, HTTP 500) and cancellation propagate: a broken
 * endpoint must fail the evaluation, not silently turn into tool-mean numbers.
 */
import type { LlmEngine } from '../llm/engine';
import { predictMessages, PREDICT_MAX_TOKENS, scoreSchema, type PredictEvidence } from '../prompts/predict';
import type { PromptTool } from '../prompts/shared';
import type { Evidence } from '../types';
import { CapabilityRetriever } from './capability-retriever';
import { SnapshotRetriever, type MemoryRetriever, type MemorySnapshot } from './memory';
import { parseScoreReply } from './score-reply';
import { TaskSimilarity, type SimilarityKind } from './similarity';
import { topKIndices } from '../retrieval/top-k';
import { buildTable, type TrainingTable } from './training-table';
import {
  clampToScale,
  type AsyncPredictor,
  type LlmMethodId,
  type LlmPredictStats,
  type PredictorNeeds,
  type PredictTask,
  type ScorePrediction,
  type TrainingSet,
} from './types';

export interface LlmPredictorOptions {
  engine: LlmEngine;
  /** Name / modality / description per tool id (tools not listed are shown by id). */
  tools?: ReadonlyMap<string, PromptTool>;
  /** Examples (few-shot) or entries per level (toolmem) in the prompt; default 12 (the paper's k). */
  k?: number;
  /** Few-shot neighbour similarity (default tfidf, as the knn methods). */
  similarity?: SimilarityKind;
  /** toolmem: a stored memory to use instead of one induced from the training split. */
  memory?: MemorySnapshot;
  maxTokens?: number;
  /** Default 0 (reproducible). */
  temperature?: number;
  /** What the scale's points mean (the dataset preset's words), shown in every prompt. */
  scaleMeaning?: string;
}

/** What one LLM estimate came to: the clamped score, or null when the reply had no number. */
export interface LlmEstimate {
  score: number | null;
  outOfRange: boolean;
  evidence: Evidence[];
}

export function emptyLlmStats(): LlmPredictStats {
  return { calls: 0, parseFailures: 0, outOfRange: 0, promptTokens: 0, completionTokens: 0 };
}

export abstract class LlmScorePredictor implements AsyncPredictor {
  readonly kind = 'async' as const;
  abstract readonly id: LlmMethodId;
  abstract readonly needs: PredictorNeeds;
  protected table: TrainingTable | null = null;
  protected readonly stats = emptyLlmStats();

  constructor(protected readonly opts: LlmPredictorOptions) {}

  get k(): number {
    return Math.max(0, Math.floor(this.opts.k ?? 12));
  }

  llmStats(): LlmPredictStats {
    return { ...this.stats };
  }

  /** No model call: fitting only indexes the evidence (few-shot neighbours, memory). */
  async fit(train: TrainingSet, _opts: { signal?: AbortSignal } = {}): Promise<void> {
    this.table = buildTable(train, { useAllRaters: false });
    this.fitEvidence(train, this.table);
    return Promise.resolve();
  }

  protected fitted(): TrainingTable {
    if (!this.table) throw new Error(`${this.id}: predict before fit`);
    return this.table;
  }

  protected abstract fitEvidence(train: TrainingSet, table: TrainingTable): void;
  protected abstract evidenceFor(task: PredictTask, toolId: string): { prompt: PredictEvidence; evidence: Evidence[] };

  /** One model call; `score` null when the reply held no usable number. */
  async estimate(task: PredictTask, toolId: string, opts: { signal?: AbortSignal } = {}): Promise<LlmEstimate> {
    const table = this.fitted();
    const { prompt, evidence } = this.evidenceFor(task, toolId);
    const tool = this.opts.tools?.get(toolId) ?? { id: toolId };
    const messages = predictMessages({
      tool,
      scale: table.scale,
      task: task.prompt,
      evidence: prompt,
      ...(task.rubric ? { rubric: task.rubric } : {}),
      ...(this.opts.scaleMeaning ? { scaleMeaning: this.opts.scaleMeaning } : {}),
    });
    const reply = await this.opts.engine.chat(messages, {
      temperature: this.opts.temperature ?? 0,
      maxTokens: this.opts.maxTokens ?? PREDICT_MAX_TOKENS,
      jsonSchema: scoreSchema(table.scale),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    this.stats.calls++;
    this.stats.promptTokens += reply.promptTokens;
    this.stats.completionTokens += reply.completionTokens;
    const parsed = parseScoreReply(reply.text, table.scale);
    if (!parsed) {
      this.stats.parseFailures++;
      return { score: null, outOfRange: false, evidence };
    }
    if (parsed.outOfRange) this.stats.outOfRange++;
    return { score: parsed.score, outOfRange: parsed.outOfRange, evidence };
  }

  /** The tool's training mean (the fallback for an unreadable reply); the global mean for an unseen tool. */
  fallback(toolId: string): number {
    const table = this.fitted();
    const j = table.toolIndex.get(toolId);
    return j === undefined ? table.globalMean : table.mean[j]!;
  }

  async predict(task: PredictTask, toolId: string, opts: { signal?: AbortSignal } = {}): Promise<ScorePrediction> {
    const est = await this.estimate(task, toolId, opts);
    if (est.score === null) return { ...clampToScale(this.fallback(toolId), this.fitted().scale), evidence: est.evidence };
    return { score: est.score, clamped: est.outOfRange, evidence: est.evidence };
  }
}

export class GenericLlmPredictor extends LlmScorePredictor {
  readonly id = 'generic-llm';
  readonly needs: PredictorNeeds = { llm: true };
  protected fitEvidence(): void {}
  protected evidenceFor(): { prompt: PredictEvidence; evidence: Evidence[] } {
    return { prompt: { kind: 'none' }, evidence: [] };
  }
}

export class FewShotLlmPredictor extends LlmScorePredictor {
  readonly id = 'fewshot-llm';
  readonly needs: PredictorNeeds;
  private readonly similarity: TaskSimilarity;

  constructor(opts: LlmPredictorOptions) {
    super(opts);
    this.similarity = new TaskSimilarity({ kind: opts.similarity ?? 'tfidf' });
    this.needs = { llm: true, vectors: this.similarity.needsVectors };
  }

  protected fitEvidence(_train: TrainingSet, table: TrainingTable): void {
    this.similarity.fit(table.tasks);
  }

  /** The k training tasks the tool was scored on, most similar first (positive similarity only; ties: task id). */
  protected evidenceFor(task: PredictTask, toolId: string): { prompt: PredictEvidence; evidence: Evidence[] } {
    const table = this.fitted();
    const j = table.toolIndex.get(toolId);
    if (j === undefined || this.k === 0) return { prompt: { kind: 'examples', examples: [] }, evidence: [] };
    const sims = this.similarity.scores(task);
    const truth = table.truth[j]!;
    const pool = [...sims.keys()].filter((i) => sims[i]! > 0 && !Number.isNaN(truth[i]!));
    const top = topKIndices(
      pool.length,
      this.k,
      (n) => sims[pool[n]!]!,
      (n) => table.tasks[pool[n]!]!.taskId,
    ).map((n) => pool[n]!);
    return {
      prompt: { kind: 'examples', examples: top.map((i) => ({ prompt: table.tasks[i]!.prompt, score: truth[i]!, similarity: sims[i]! })) },
      evidence: top.map((i) => ({ kind: 'experience', id: table.exampleId[j]![i]!, similarity: sims[i]! })),
    };
  }
}

export class ToolMemLlmPredictor extends LlmScorePredictor {
  readonly id = 'toolmem-llm';
  readonly needs: PredictorNeeds = { llm: true, vectors: true, memory: true };
  private retriever: MemoryRetriever | null = null;
  /** The memory in use (given, or the capability analysis of the training split). */
  memory: MemorySnapshot | null = null;

  protected fitEvidence(train: TrainingSet): void {
    if (this.opts.memory) {
      this.memory = this.opts.memory;
      this.retriever = new SnapshotRetriever(this.memory, this.k);
      return;
    }
    const induced = new CapabilityRetriever(train, this.k);
    this.memory = induced.snapshot;
    this.retriever = induced;
  }

  /** Top k entries of EACH level of the tool (their union), most related first. */
  protected evidenceFor(task: PredictTask, toolId: string): { prompt: PredictEvidence; evidence: Evidence[] } {
    if (!this.retriever) throw new Error(`${this.id}: predict before fit`);
    const byVector = this.retriever instanceof SnapshotRetriever;
    if (byVector && !task.vector && this.memory!.entries.length > 0) throw new Error("method 'toolmem-llm' needs the task's prompt vector");
    const hits = !byVector || task.vector ? this.retriever.retrieve(task, toolId) : [];
    return {
      prompt: { kind: 'entries', entries: hits.map((h) => ({ level: h.entry.level, text: h.entry.text, support: h.entry.support, similarity: h.similarity })) },
      evidence: hits.map((h) => ({ kind: 'entry', id: h.entry.id, similarity: h.similarity })),
    };
  }
}
