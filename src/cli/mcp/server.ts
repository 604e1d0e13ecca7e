/**
 * The ToolMem MCP server: a memory file served over the Model Context Protocol. Tools:
 *  - list_tools                      → the memory's tools (name, modality, description, entry counts, calibration)
 *  - recall(tool, task, k?)          → the k most similar valid entries of each level, with similarity
 *  - predict_score(tool, task)       → the calibrated memory prediction and the entries behind it
 *  - select_tool(task, candidates[], max_cost?, cost_weight?, max_latency_ms?)
 *                                    → candidates ranked by utility = score − cost_weight × cost per call
 *                                      (src/app/predict/select.ts), tools over a limit (or of unknown cost/latency
 *                                      when a limit is given) excluded with the reason; costs and
 *                                      latencies are the file's (`tools[].cost`, `tools[].latency`)
 * Scores: a version-2 file with a capability model (`build.capability.model`) predicts with it —
 * the tool's mean plus the contributions of the entries (and shared-difficulty notes) whose facets
 * apply to the task, each in score points, with the entry's effect and verdict; other files use
 * `MemoryFilePredictor` (the retrieval signal with the file's calibration). Tasks and, when the file
 * carries no vectors of the same model, entries are embedded with the given embedder.
 * Built on the SDK's low-level `Server` with our own tools/list and tools/call handlers: the
 * arguments are checked here (tool-args.ts) so that every bad call gets -32602 with a bounded
 * message, and unknown tools/ids are answered without echoing input at length.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Embedder } from '../../core/embed';
import {
  embeddingDimIssues,
  fileVectors,
  jsonPath,
  memoryEntriesOf,
  MemoryFileError,
  MemoryFilePredictor,
  recordMap,
  type MemoryFile,
} from '../../core/memory-format';
import { CapabilityMemoryPredictor, type MemoryPrediction } from '../../core/capability/predictor';
import { applies as facetApplies } from '../../core/capability/facets';
import { predictAndSelect } from '../../app/predict/select';
import type { RankedCandidate } from '../../core/predict/select';
import type { PredictTask, ScorePrediction } from '../../core/predict/types';
import { quote } from '../../core/text/quote';
import { LEVELS } from '../../core/types';
import { numberStyle, roundShown } from '../../core/capability/templates';
import { rankingOf } from './ranking';
import type { MemoryEntry } from '../../core/records';
import { INVALID_PARAMS, JsonRpcError } from './jsonrpc-guard';
import { MemoryGeneration, type AppliesFn } from './generation';
import { share } from './shared-json';
import { EmbeddingCache } from './task-cache';
import { candidatesArg, costArgs, INPUT_SCHEMAS, kArg, taskArg, ToolArgumentError, toolArg, type Args } from './tool-args';

/** A tool's answer: the JSON value of a result, or the text of a tool error (unknown tool id). */
export type ToolAnswer = { value: unknown } | { error: string };

/**
 * The four tools of one memory file, answered once here for every transport: stdio and HTTP MCP
 * wrap an answer in a tool result, the JSON API (`toolmem serve`) sends the value as it is.
 * `call` throws ToolArgumentError for arguments that fail their checks.
 */
export interface ToolHandlers {
  call(name: ToolName, args: Args): Promise<ToolAnswer>;
  predictor: MemoryFilePredictor;
  /** Whether the entry vectors came from the file (true) or were embedded at start (false). */
  vectorsFromFile: boolean;
}

export interface ToolMemMcp extends ToolHandlers {
  server: Server;
}

async function embedAll(embedder: Embedder, texts: readonly string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const batch = await embedder.embed(texts);
  return texts.map((_, i) => batch.data.slice(i * batch.dim, (i + 1) * batch.dim));
}

const json = (value: unknown): ToolAnswer => ({ value });
const fail = (message: string): ToolAnswer => ({ error: message });
/** An answer as an MCP tool result: the value as indented JSON text, an error as a tool error. */
const toolResult = (a: ToolAnswer) =>
  'value' in a
    ? { content: [{ type: 'text' as const, text: JSON.stringify(a.value, null, 2) }] }
    : { content: [{ type: 'text' as const, text: a.error }], isError: true };

/**
 * The file against the embedder that will serve it: same model id, vectors of its size. Throws a
 * MemoryFileError with the JSON paths (the CLI exits 2 with them).
 */
export function assertServable(file: MemoryFile, embedder: Pick<Embedder, 'id' | 'dim'>): void {
  const issues = [];
  if (embedder.id !== file.memory.embeddingModel) {
    issues.push({
      path: '$.memory.embeddingModel',
      message:
        `the memory was embedded with ${quote(file.memory.embeddingModel)} but the embedding model here is ${quote(embedder.id)}; retrieval ` +
        `needs the same model.`,
    });
  }
  issues.push(...embeddingDimIssues(file, embedder.dim).map((i) => ({ path: jsonPath(i.path), message: i.message })));
  if (issues.length) throw new MemoryFileError(issues);
}

const TOOLS = [
  {
    name: 'list_tools',
    description: 'The tools this capability memory knows, with how many entries of each level (proficient, good, bad, weak) it holds about each.',
  },
  {
    name: 'recall',
    description:
      'Recall what the memory says about a tool for a task: the k most similar entries of each level (proficient, good, bad, weak) with their ' +
      "cosine similarity to the task, each entry's status (claim, tentative — not a claim — or the tool's profile), facet, effect (n, " +
      'shrunk deltas, 95% credible interval, lfsr, raw estimate; numbers rounded as its text shows them) and verdict on unseen tasks, ' +
      'and — for a capability memory — the entries whose facets apply to the task with what each adds to the prediction and the ' +
      "probability that the facet applies (`applying`), the leaderboards of those facets (every tool's level, rank with its 95% " +
      'interval, probability of being best; `leaderboards`) and the pick claims that apply (`picks`).',
  },
  {
    name: 'predict_score',
    description:
      "Predict the tool's score on the task: the tool's mean plus the contributions, in score points, of the memory entries whose facets apply " +
      '(capability memory), each with its effect and verdict; older memories use the retrieval signal and their calibration.',
  },
  {
    name: 'select_tool',
    description:
      'Rank candidate tools for a task by utility = predicted score − cost_weight × cost per call (best first; cost_weight defaults to 0, so by ' +
      'score), with the contributions behind each score and a `reason` for the choice (a pick claim that applies to the task, with its ' +
      'check on unseen tasks, when there is one); `choice` is null on an exact tie. Costs (US dollars per call) and typical latencies ' +
      "(ms) are the memory file's, listed by list_tools. max_cost and max_latency_ms are hard limits: a tool over a limit, or whose cost " +
      'or latency the memory does not know, is never ranked or chosen; it is listed in `excluded` with the reason.',
  },
] as const;
export type ToolName = (typeof TOOLS)[number]['name'];
const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));

export interface HandlerOptions {
  /**
   * Vectors of task texts already embedded by this embedder: shared by the handlers of every memory
   * generation a server loads (a text's vector does not depend on the memory). Default: one of its own.
   */
  embeddings?: EmbeddingCache;
}

export async function createToolHandlers(file: MemoryFile, embedder: Embedder, opts: HandlerOptions = {}): Promise<ToolHandlers> {
  assertServable(file, embedder);
  const embeddings = opts.embeddings?.embedderId === embedder.id ? opts.embeddings : new EmbeddingCache(embedder.id);
  const entries = memoryEntriesOf(file);
  let vectors = fileVectors(file, embedder.id);
  const vectorsFromFile = vectors !== null && entries.every((e) => vectors!.has(e.id));
  if (!vectorsFromFile) {
    const list = await embeddings.entryVectors(
      entries.map((e) => e.text),
      (texts) => embedAll(embedder, texts),
    );
    vectors = new Map(entries.map((e, i) => [e.id, list[i]!]));
  }
  const snapshot = { entries, vectors: vectors! };
  const predictor = new MemoryFilePredictor(file, snapshot);
  const generation = new MemoryGeneration(embedder, embeddings, file.tools.length);
  const model = file.build.capability?.model;
  // The facets' rule tests are remembered per task, so a repeated task text runs no rule again.
  let applies: AppliesFn = facetApplies;
  const capability = model ? CapabilityMemoryPredictor.fromModel(model, { applies: (f, t) => applies(f, t) }) : null;
  if (capability) applies = generation.memoApplies(capability.facets, facetApplies);
  // Predictions kept per task text and tool for this generation (select, predict and recall share them).
  const predictOf = generation.memoPredict((t: PredictTask, tool: string) => (capability ?? predictor).predict(t, tool));
  // What an entry claims depends on the file only: built once per generation, on first use.
  const claimOf = (id: string) => generation.fragment(id, claimFor);
  /** What an entry claims and whether it held, for the agent to weigh a contribution. */
  const claimFor = (id: string) => {
    const e = byId.get(id);
    if (!e) return {};
    // status: 'claim' (stated as a fact), 'tentative' (not a claim: weigh it as a hint), 'profile'
    // (the tool's overall standing). Entries of files before issue #25 count as claims.
    const status = e.profile ? 'profile' : e.effect ? (e.effect.status === 'tentative' ? 'tentative' : 'claim') : undefined;
    const fx = e.effect;
    const shown = (x: number) => roundShown(x, style(fx));
    return {
      level: e.level,
      ...(status ? { status } : {}),
      ...(e.facet ? { facet: e.facet.name } : {}),
      ...(fx
        ? {
            // Rounded by the memory's one rule: the same numbers its text, bar and tooltip show.
            effect: {
              n: fx.n,
              deltaOwn: shown(fx.deltaOwn),
              deltaVsOthers: fx.deltaVsOthers === null ? null : shown(fx.deltaVsOthers),
              ci95: fx.ci95.map(shown),
              ...(fx.mean !== undefined ? { mean: shown(fx.mean) } : {}),
              ...(fx.othersMean !== undefined ? { othersMean: shown(fx.othersMean) } : {}),
              ...(fx.usual !== undefined ? { usual: shown(fx.usual) } : {}),
              ...(fx.rank !== undefined ? { rank: fx.rank, of: fx.of } : {}),
              ...(fx.latent ? { latent: { scale: 'logit', delta: round(fx.latent.delta), ci95: fx.latent.ci95.map(round) } } : {}),
              q: round(fx.q),
              ...(fx.lfsr !== undefined ? { lfsr: round(fx.lfsr) } : {}),
              ...(fx.raw ? { raw: { delta: round(fx.raw.delta), ci95: fx.raw.ci95.map(round) } } : {}),
            },
          }
        : {}),
      ...(e.profile
        ? { profile: { ...e.profile, mean: round(e.profile.mean), bestShare: round(e.profile.bestShare), advantage: round(e.profile.advantage) } }
        : {}),
      ...(e.verdict ? { verdict: e.verdict.verdict } : {}),
    };
  };
  const width = file.build.scale.max - file.build.scale.min;
  const passRates = file.build.capability?.report.contrastScale?.kind === 'logit';
  const style = (fx?: { latent?: unknown }) => numberStyle(width, passRates || fx?.latent !== undefined);
  // Leaderboards and pick claims: static parts once per generation, a task's part once per task object.
  const ranking = rankingOf(file, capability);
  const rankingFor = (t: PredictTask) => generation.derived(t, 'ranking', (q: PredictTask) => share(ranking.forTask(q)));
  const contributionLines = (p: MemoryPrediction) =>
    p.explanation.contributions.map((c) => ({
      id: c.entryId,
      text: c.text,
      points: round(c.points),
      ...(c.probability !== undefined ? { probability: round(c.probability) } : {}),
      ...claimOf(c.entryId),
    }));
  // An answer's lines from a prediction are built once per prediction object (shared, read-only).
  // Shared: their JSON text is made once too (shared-json.ts).
  const contributionsOf = (p: MemoryPrediction) => generation.derived(p, 'contributions', (q: MemoryPrediction) => share(contributionLines(q)));
  const topContributionsOf = (p: MemoryPrediction) => generation.derived(p, 'top5', (q: MemoryPrediction) => share(contributionsOf(q).slice(0, 5)));
  const toolIds = new Set(file.tools.map((t) => t.id));
  const toolById = new Map(file.tools.map((t) => [t.id, t]));
  const calibration = recordMap(file.build.calibration);
  const byId = new Map<string, MemoryEntry>(entries.map((e) => [e.id, e]));
  const taskOf = (text: string) => generation.task(text);
  const listed =
    [...toolIds]
      .slice(0, 20)
      .map((t) => quote(t, 60))
      .join(', ') + (toolIds.size > 20 ? ` and ${toolIds.size - 20} more` : '');
  const unknownTool = (t: string) => fail(`Unknown tool ${quote(t, 100)}. Tools in this memory: ${listed}.`);
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  // Per generation: each tool as a select candidate (its cost and latency are the file's).
  const costedOf = new Map(
    file.tools.map((tool) => [
      tool.id,
      { toolId: tool.id, ...(tool.cost ? { cost: tool.cost.perCall } : {}), ...(tool.latency ? { latencyMs: tool.latency.ms } : {}) },
    ]),
  );
  /** One ranked candidate's line of the select answer. */
  function rankedLine(r: RankedCandidate, p: ScorePrediction, limits: { costWeight?: number }) {
    const tool = toolById.get(r.toolId);
    const cost = {
      ...(tool?.cost ? { cost: r.cost } : {}),
      ...(r.latencyMs !== undefined ? { latencyMs: r.latencyMs } : {}),
      ...(limits.costWeight ? { utility: round(r.utility) } : {}),
    };
    return capability
      ? {
          tool: r.toolId,
          score: round(r.score),
          ...cost,
          mean: round((p as MemoryPrediction).explanation.mean),
          contributions: topContributionsOf(p as MemoryPrediction),
        }
      : { tool: r.toolId, score: round(r.score), ...cost, evidence: p.evidence.slice(0, 3).map((e) => ({ id: e.id, similarity: round(e.similarity) })) };
  }

  const run: Record<ToolName, (args: Args) => Promise<ToolAnswer>> = {
    list_tools: async () =>
      json({
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
      }),
    recall: async (args) => {
      const [tool, task, k] = [toolArg(args), taskArg(args), kArg(args)];
      if (!toolIds.has(tool)) return unknownTool(tool);
      const t = await taskOf(task);
      const hits = new MemoryFilePredictor(file, snapshot, { k }).retriever.retrieve(t, tool);
      const levels = Object.fromEntries(
        LEVELS.map((l) => [
          l,
          hits
            .filter((h) => h.entry.level === l)
            .map((h) => ({ id: h.entry.id, text: h.entry.text, similarity: round(h.similarity), support: h.entry.support, ...claimOf(h.entry.id) })),
        ]),
      );
      // A capability memory also says which of its claims apply to this task, and what each adds.
      const applying = capability
        ? contributionsOf(predictOf(t, tool) as MemoryPrediction).filter((c) => byId.has(c.id) || c.id.startsWith('dataset:'))
        : undefined;
      const ranked = capability ? rankingFor(t) : null;
      return json({
        tool,
        task,
        levels,
        ...(applying ? { applying } : {}),
        ...(ranked ? { overall: ranking.overall, leaderboards: ranked.leaderboards, picks: ranked.picks } : {}),
      });
    },
    predict_score: async (args) => {
      const [tool, task] = [toolArg(args), taskArg(args)];
      if (!toolIds.has(tool)) return unknownTool(tool);
      const t = await taskOf(task);
      if (capability) {
        const p = predictOf(t, tool) as MemoryPrediction;
        return json({
          tool,
          score: round(p.score),
          clamped: p.clamped,
          scale: file.build.scale,
          mean: round(p.explanation.mean),
          contributions: contributionsOf(p),
        });
      }
      const p = predictor.explain(t, tool);
      return json({
        tool,
        score: round(p.score),
        clamped: p.clamped,
        scale: file.build.scale,
        signal: round(p.signal),
        mean: round(p.mean),
        slope: round(p.slope),
        evidence: p.evidence.map((e) => {
          const entry = byId.get(e.id)!;
          return { id: e.id, level: entry.level, text: entry.text, similarity: round(e.similarity) };
        }),
      });
    },
    select_tool: async (args) => {
      const [task, candidates, limits] = [taskArg(args), candidatesArg(args), costArgs(args)];
      const unknown = candidates.filter((c) => !toolIds.has(c));
      if (unknown.length) return unknownTool(unknown.join(', '));
      const t = await taskOf(task);
      const sel = await predictAndSelect(
        (tool) => predictOf(t, tool),
        [...new Set(candidates)].map((id) => costedOf.get(id)!),
        { direction: file.build.scale.direction, ...limits },
      );
      return json({
        task,
        choice: sel.choice,
        ...(capability
          ? {
              reason: ranking.reason(
                rankingFor(t),
                sel.choice,
                sel.ranked.map((r) => r.toolId),
              ),
            }
          : {}),
        // Without a cost weight a candidate's line depends on its prediction alone (the tool's cost and
        // latency are the file's): built and serialised once per prediction.
        ranked: sel.ranked.map((r) =>
          limits.costWeight
            ? rankedLine(r, sel.predictions[r.toolId]!, limits)
            : generation.derived(sel.predictions[r.toolId]!, 'ranked', (p) => share(rankedLine(r, p, limits))),
        ),
        ...(sel.excluded
          ? { excluded: sel.excluded.map((e) => ({ tool: e.toolId, reason: e.reason, ...(e.value !== undefined ? { value: e.value } : {}), limit: e.limit })) }
          : {}),
      });
    },
  };

  return { call: (name, args) => run[name](args), predictor, vectorsFromFile };
}

/** An MCP server answering tools/list and tools/call from the handlers `current()` returns at each call. */
export function mcpServerFor(current: () => ToolHandlers, opts: { name?: string; version?: string } = {}): Server {
  const server = new Server({ name: opts.name ?? 'toolmem', version: opts.version ?? '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map((t) => ({ ...t, inputSchema: INPUT_SCHEMAS[t.name] })) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (!TOOL_NAMES.has(name))
      throw new JsonRpcError(INVALID_PARAMS, `Unknown tool ${quote(name, 100)}: this server has ${TOOLS.map((t) => t.name).join(', ')}.`);
    try {
      return toolResult(await current().call(name as ToolName, args ?? {}));
    } catch (err) {
      if (err instanceof ToolArgumentError) throw new JsonRpcError(INVALID_PARAMS, `Invalid arguments for ${name}: ${err.message}`);
      throw err;
    }
  });
  return server;
}

export async function createToolMemMcp(file: MemoryFile, embedder: Embedder, opts: { name?: string; version?: string } = {}): Promise<ToolMemMcp> {
  const handlers = await createToolHandlers(file, embedder);
  return { ...handlers, server: mcpServerFor(() => handlers, opts) };
}
