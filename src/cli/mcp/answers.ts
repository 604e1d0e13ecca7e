/**
 * The answers of the four tools for one memory file (one memory generation): a table of one line
 * per tool, each a named function of the generation's context. The context is what the answers
 * need that depends on the file alone — the predictors, the per-generation caches
 * (generation.ts), the leaderboards (ranking.ts), lookup tables — built once by `memoryContext`.
 * Scores: a version-2 file with a capability model (`build.capability.model`) predicts with it —
 * the tool's mean plus the contributions of the entries (and shared-difficulty notes) whose facets
 * apply to the task, each in score points, with the entry's effect and verdict; other files use
 * `MemoryFilePredictor` (the retrieval signal with the file's calibration). A select predicts and
 * ranks through the one predict-and-select use case (src/app/predict/select.ts).
 */
import type { Embedder } from '../../core/embed';
import { fileVectors, memoryEntriesOf, MemoryFilePredictor, recordMap, type MemoryFile } from '../../core/memory-format';
import { CapabilityMemoryPredictor, type MemoryPrediction } from '../../core/capability/predictor';
import { applies as facetApplies } from '../../core/capability/facets';
import { predictAndSelect, type CandidateTool } from '../../app/predict/select';
import type { RankedCandidate } from '../../core/predict/select';
import type { PredictTask, ScorePrediction } from '../../core/predict/types';
import { quote } from '../../core/text/quote';
import { LEVELS } from '../../core/types';
import type { MemoryEntry } from '../../core/records';
import { claimFor, round } from './claims';
import { MemoryGeneration, type AppliesFn } from './generation';
import { rankingOf, type Ranking, type TaskRanking } from './ranking';
import { share } from './shared-json';
import { EmbeddingCache } from './task-cache';
import { candidatesArg, costArgs, kArg, taskArg, toolArg, type Args } from './tool-args';
import type { ToolAnswer, ToolName } from './tools';

/** What every answer of one memory generation reads; made once per file (`memoryContext`). */
export interface MemoryContext {
  file: MemoryFile;
  snapshot: { entries: MemoryEntry[]; vectors: Map<string, Float32Array> };
  predictor: MemoryFilePredictor;
  /** The capability model's predictor (a version-2 file with one), else null. */
  capability: CapabilityMemoryPredictor | null;
  /** Whether the entry vectors came from the file (true) or were embedded at start (false). */
  vectorsFromFile: boolean;
  generation: MemoryGeneration;
  ranking: Ranking;
  /** Predictions kept per task text and tool for this generation (select, predict and recall share them). */
  predictOf: (task: PredictTask, tool: string) => ScorePrediction;
  toolById: ReadonlyMap<string, MemoryFile['tools'][number]>;
  entryById: ReadonlyMap<string, MemoryEntry>;
  /** Each tool as a select candidate (its cost and latency are the file's). */
  costedOf: ReadonlyMap<string, CandidateTool>;
  /** The memory's tools as an error message lists them (20 at most). */
  listed: string;
}

const json = (value: unknown): ToolAnswer => ({ value });

async function embedAll(embedder: Embedder, texts: readonly string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const batch = await embedder.embed(texts);
  return texts.map((_, i) => batch.data.slice(i * batch.dim, (i + 1) * batch.dim));
}

/** The entries' vectors: the file's when it has all of them for this embedder, else embedded (texts the last generation had are reused). */
async function entryVectors(file: MemoryFile, entries: MemoryEntry[], embedder: Embedder, embeddings: EmbeddingCache) {
  const vectors = fileVectors(file, embedder.id);
  if (vectors !== null && entries.every((e) => vectors.has(e.id))) return { vectors, fromFile: true };
  const list = await embeddings.entryVectors(
    entries.map((e) => e.text),
    (texts) => embedAll(embedder, texts),
  );
  return { vectors: new Map(entries.map((e, i) => [e.id, list[i]!])), fromFile: false };
}

/** The capability model's predictor, its facets' rule tests remembered per task (a repeated text runs no rule again). */
function capabilityOf(file: MemoryFile, generation: MemoryGeneration): CapabilityMemoryPredictor | null {
  const model = file.build.capability?.model;
  if (!model) return null;
  let applies: AppliesFn = facetApplies;
  const capability = CapabilityMemoryPredictor.fromModel(model, { applies: (f, t) => applies(f, t) });
  applies = generation.memoApplies(capability.facets, facetApplies);
  return capability;
}

const listedTools = (ids: readonly string[]) =>
  ids
    .slice(0, 20)
    .map((t) => quote(t, 60))
    .join(', ') + (ids.length > 20 ? ` and ${ids.length - 20} more` : '');

const costedTool = (tool: MemoryFile['tools'][number]): CandidateTool => ({
  toolId: tool.id,
  ...(tool.cost ? { cost: tool.cost.perCall } : {}),
  ...(tool.latency ? { latencyMs: tool.latency.ms } : {}),
});

/** The context of a file served with `embedder`; task vectors come from (and go to) `embeddings`. */
export async function memoryContext(file: MemoryFile, embedder: Embedder, embeddings: EmbeddingCache): Promise<MemoryContext> {
  const entries = memoryEntriesOf(file);
  const { vectors, fromFile } = await entryVectors(file, entries, embedder, embeddings);
  const snapshot = { entries, vectors };
  const predictor = new MemoryFilePredictor(file, snapshot);
  const generation = new MemoryGeneration(embedder, embeddings, file.tools.length);
  const capability = capabilityOf(file, generation);
  const toolIds = [...new Set(file.tools.map((t) => t.id))];
  return {
    file,
    snapshot,
    predictor,
    capability,
    vectorsFromFile: fromFile,
    generation,
    ranking: rankingOf(file, capability),
    predictOf: generation.memoPredict((t: PredictTask, tool: string) => (capability ?? predictor).predict(t, tool)),
    toolById: new Map(file.tools.map((t) => [t.id, t])),
    entryById: new Map(entries.map((e) => [e.id, e])),
    costedOf: new Map(file.tools.map((t) => [t.id, costedTool(t)])),
    listed: listedTools(toolIds),
  };
}

const unknownTool = (ctx: MemoryContext, t: string): ToolAnswer => ({ error: `Unknown tool ${quote(t, 100)}. Tools in this memory: ${ctx.listed}.` });

/** What an entry claims (an answer fragment), made once per entry id and generation. */
const claimOf = (ctx: MemoryContext, id: string) => ctx.generation.fragment(id, (key) => claimFor(ctx.file, ctx.entryById.get(key)));

/** A task's leaderboards and pick claims, made once per task object. */
const rankingFor = (ctx: MemoryContext, t: PredictTask): TaskRanking => ctx.generation.derived(t, 'ranking', (q: PredictTask) => share(ctx.ranking.forTask(q)));

/** A prediction's contribution lines, each with what its entry claims. */
const contributionLines = (ctx: MemoryContext, p: MemoryPrediction) =>
  p.explanation.contributions.map((c) => ({
    id: c.entryId,
    text: c.text,
    points: round(c.points),
    ...(c.probability !== undefined ? { probability: round(c.probability) } : {}),
    ...claimOf(ctx, c.entryId),
  }));

// An answer's lines from a prediction are built once per prediction object (shared, read-only).
// Shared: their JSON text is made once too (shared-json.ts).
const contributionsOf = (ctx: MemoryContext, p: MemoryPrediction) =>
  ctx.generation.derived(p, 'contributions', (q: MemoryPrediction) => share(contributionLines(ctx, q)));
const topContributionsOf = (ctx: MemoryContext, p: MemoryPrediction) =>
  ctx.generation.derived(p, 'top5', (q: MemoryPrediction) => share(contributionsOf(ctx, q).slice(0, 5)));

async function listTools(ctx: MemoryContext): Promise<ToolAnswer> {
  const { file } = ctx;
  const calibration = recordMap(file.build.calibration);
  return json({
    memory: { id: file.memory.id, name: file.memory.name, embeddingModel: file.memory.embeddingModel, scale: file.build.scale },
    tools: file.tools.map((t) => ({
      id: t.id,
      name: t.name,
      modality: t.modality,
      description: t.description,
      counts: t.counts,
      calibration: calibration.get(t.id) ?? null,
      cost: t.cost ?? null,
      latency: t.latency ?? null,
    })),
  });
}

async function recall(ctx: MemoryContext, args: Args): Promise<ToolAnswer> {
  const [tool, task, k] = [toolArg(args), taskArg(args), kArg(args)];
  if (!ctx.toolById.has(tool)) return unknownTool(ctx, tool);
  const t = await ctx.generation.task(task);
  const hits = new MemoryFilePredictor(ctx.file, ctx.snapshot, { k }).retriever.retrieve(t, tool);
  const line = (h: (typeof hits)[number]) => ({
    id: h.entry.id,
    text: h.entry.text,
    similarity: round(h.similarity),
    support: h.entry.support,
    ...claimOf(ctx, h.entry.id),
  });
  const levels = Object.fromEntries(LEVELS.map((l) => [l, hits.filter((h) => h.entry.level === l).map(line)]));
  // A capability memory also says which of its claims apply to this task, and what each adds.
  const applying = ctx.capability
    ? contributionsOf(ctx, ctx.predictOf(t, tool) as MemoryPrediction).filter((c) => ctx.entryById.has(c.id) || c.id.startsWith('dataset:'))
    : undefined;
  const ranked = ctx.capability ? rankingFor(ctx, t) : null;
  return json({
    tool,
    task,
    levels,
    ...(applying ? { applying } : {}),
    ...(ranked ? { overall: ctx.ranking.overall, leaderboards: ranked.leaderboards, picks: ranked.picks } : {}),
  });
}

async function predictScore(ctx: MemoryContext, args: Args): Promise<ToolAnswer> {
  const [tool, task] = [toolArg(args), taskArg(args)];
  if (!ctx.toolById.has(tool)) return unknownTool(ctx, tool);
  const t = await ctx.generation.task(task);
  const scale = ctx.file.build.scale;
  if (ctx.capability) {
    const p = ctx.predictOf(t, tool) as MemoryPrediction;
    return json({ tool, score: round(p.score), clamped: p.clamped, scale, mean: round(p.explanation.mean), contributions: contributionsOf(ctx, p) });
  }
  const p = ctx.predictor.explain(t, tool);
  return json({
    tool,
    score: round(p.score),
    clamped: p.clamped,
    scale,
    signal: round(p.signal),
    mean: round(p.mean),
    slope: round(p.slope),
    evidence: p.evidence.map((e) => {
      const entry = ctx.entryById.get(e.id)!;
      return { id: e.id, level: entry.level, text: entry.text, similarity: round(e.similarity) };
    }),
  });
}

/** One ranked candidate's line of the select answer. */
function rankedLine(ctx: MemoryContext, r: RankedCandidate, p: ScorePrediction, limits: { costWeight?: number }) {
  const tool = ctx.toolById.get(r.toolId);
  const cost = {
    ...(tool?.cost ? { cost: r.cost } : {}),
    ...(r.latencyMs !== undefined ? { latencyMs: r.latencyMs } : {}),
    ...(limits.costWeight ? { utility: round(r.utility) } : {}),
  };
  if (!ctx.capability)
    return { tool: r.toolId, score: round(r.score), ...cost, evidence: p.evidence.slice(0, 3).map((e) => ({ id: e.id, similarity: round(e.similarity) })) };
  const m = p as MemoryPrediction;
  return { tool: r.toolId, score: round(r.score), ...cost, mean: round(m.explanation.mean), contributions: topContributionsOf(ctx, m) };
}

async function selectTool(ctx: MemoryContext, args: Args): Promise<ToolAnswer> {
  const [task, candidates, limits] = [taskArg(args), candidatesArg(args), costArgs(args)];
  const unknown = candidates.filter((c) => !ctx.toolById.has(c));
  if (unknown.length) return unknownTool(ctx, unknown.join(', '));
  const t = await ctx.generation.task(task);
  const sel = await predictAndSelect(
    (tool) => ctx.predictOf(t, tool),
    [...new Set(candidates)].map((id) => ctx.costedOf.get(id)!),
    { direction: ctx.file.build.scale.direction, ...limits },
  );
  const order = sel.ranked.map((r) => r.toolId);
  return json({
    task,
    choice: sel.choice,
    ...(ctx.capability ? { reason: ctx.ranking.reason(rankingFor(ctx, t), sel.choice, order) } : {}),
    // Without a cost weight a candidate's line depends on its prediction alone (the tool's cost and
    // latency are the file's): built and serialised once per prediction.
    ranked: sel.ranked.map((r) =>
      limits.costWeight
        ? rankedLine(ctx, r, sel.predictions[r.toolId]!, limits)
        : ctx.generation.derived(sel.predictions[r.toolId]!, 'ranked', (p) => share(rankedLine(ctx, r, p, limits))),
    ),
    ...(sel.excluded
      ? { excluded: sel.excluded.map((e) => ({ tool: e.toolId, reason: e.reason, ...(e.value !== undefined ? { value: e.value } : {}), limit: e.limit })) }
      : {}),
  });
}

/** The tools' answers, one line per tool. */
export const ANSWERS: Readonly<Record<ToolName, (ctx: MemoryContext, args: Args) => Promise<ToolAnswer>>> = {
  list_tools: listTools,
  recall,
  predict_score: predictScore,
  select_tool: selectTool,
};
