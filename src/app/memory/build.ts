/**
 * Use case: build a capability memory (issue #15 part 6, issue #16 step 1). One function plans a
 * build from a dataset's experiences and a request; the app's memory worker (src/app/memory/
 * handlers.ts) and `toolmem build-memory` (src/cli) both call it, then run the plan with
 * `runMemoryBuild` over their own repository (Dexie in the browser, in-memory in Node), and export
 * it with `exportBuiltMemory`. Nothing here knows where data is stored.
 */
import { costStats } from '../../core/cost/tool-cost';
import { ValidationError } from '../../core/errors';
import { taskOfExperienceKey } from '../../core/ids';
import { formatEngineSpec, isNoEngine, type EngineSpec } from '../../core/llm/spec';
import {
  buildConfig,
  createBuildRun,
  DEFAULT_INDUCE_SETTINGS,
  InMemoryMemoryRepository,
  runBuild,
  groundTruthExperiences,
  memoryToFile,
  splitTasks,
  trainingByTool,
  type BuildConfig,
  type BuildDeps,
  type BuildMemoryRepository,
  type RunBuildOptions,
  type SplitSpec,
  type TaskSplit,
} from '../../core/memory';
import type { MemoryFile } from '../../core/memory-format';
import { scaleMeaningOption } from '../../core/import/presets/scale-meanings';
import { quote } from '../../core/text/quote';
import type { Dataset, Experience, Tool } from '../../core/types';
import type { BuildRun, Memory } from '../../core/records';

export interface BuildPlanRequest {
  /** The memory's name (default: "<dataset> memory"). */
  name?: string;
  split: SplitSpec;
  /** Only these tools, in this order (default: every tool of the data, by id). */
  tools?: readonly string[];
  /** The engine; none = the capability analysis alone. The Run keeps its canonical string. */
  engine: EngineSpec;
  embeddingModel: string;
  /** Entries retrieved per level for each language-model update (default 6). */
  k?: number;
  critiques?: boolean;
  /** Largest local false sign rate of a claim (default 0.05; src/core/capability/claims.ts). */
  maxLfsr?: number;
  /** The capability analysis (statistical entries); false only with a language model. */
  statistics?: boolean;
  memoryId: string;
  runId: string;
  now: number;
}

export interface BuildPlan {
  config: BuildConfig;
  run: BuildRun;
  memory: Memory;
  /** Ground-truth experiences (rater policy) of every task, and the split. */
  truth: Experience[];
  split: TaskSplit;
  /** Training experiences per tool, in build order. */
  data: Map<string, Experience[]>;
  /** Ground truth of the held-out tasks. */
  unseen: Experience[];
}

/**
 * Ground truth, split, per-tool training data and the held-out experiences (the claims are checked
 * on them) of a build's configuration — the same on every (re)start.
 */
export function buildData(dataset: Dataset, experiences: readonly Experience[], config: Pick<BuildConfig, 'split' | 'tools'>) {
  const truth = groundTruthExperiences(experiences, dataset.raterPolicy);
  const split = splitTasks(
    truth.map((e) => e.taskId),
    config.split,
  );
  const test = new Set(split.test);
  const unseen = truth.filter((e) => test.has(e.taskId));
  return { truth, split, unseen, data: trainingByTool(truth, split.train, config.tools.length ? config.tools : undefined) };
}

/** The Run and Memory rows of a new build, and the data it learns from. Throws ValidationError on a bad request. */
export function planBuild(dataset: Dataset, experiences: readonly Experience[], req: BuildPlanRequest): BuildPlan {
  const all = [...new Set(experiences.map((e) => e.toolId))].sort();
  const unknown = (req.tools ?? []).filter((t) => !all.includes(t));
  if (unknown.length)
    throw new ValidationError(`not in the data: ${unknown.map((t) => quote(t, 60)).join(', ')} (tools: ${all.map((t) => quote(t, 60)).join(', ')}).`);
  const statistics = req.statistics ?? true;
  if (!statistics && isNoEngine(req.engine))
    throw new ValidationError('A build without the capability analysis needs a language model: without one the analysis is the whole memory.');
  const tools = req.tools?.length ? [...req.tools] : all;
  const config: BuildConfig = {
    memoryId: req.memoryId,
    memoryName: req.name?.trim() || `${dataset.name} memory`,
    datasetId: dataset.id,
    scale: dataset.scale,
    split: req.split,
    tools,
    engine: formatEngineSpec(req.engine),
    embeddingModel: req.embeddingModel,
    ...(dataset.preset === 'pairwise' ? { evidence: 'pairwise' as const } : {}),
    settings: {
      ...DEFAULT_INDUCE_SETTINGS,
      k: req.k ?? DEFAULT_INDUCE_SETTINGS.k,
      critiqueBelow: req.critiques === false ? null : DEFAULT_INDUCE_SETTINGS.critiqueBelow,
      clusters: statistics,
      cluster: {},
      ...(req.maxLfsr !== undefined ? { maxLfsr: req.maxLfsr } : {}),
    },
  };
  const { truth, split, data, unseen } = buildData(dataset, experiences, config);
  const run = createBuildRun(req.runId, config, data, req.now);
  const memory: Memory = {
    id: req.memoryId,
    name: config.memoryName,
    datasetIds: [dataset.id],
    embeddingModel: req.embeddingModel,
    settings: { build: run.id, split: config.split, engine: config.engine },
    createdAt: req.now,
    updatedAt: req.now,
  };
  return { config, run, memory, truth, split, data, unseen };
}

/** Stores a plan's memory and queued Run (one transaction for the Run, as every build step). */
export async function startBuild(repo: BuildMemoryRepository, plan: Pick<BuildPlan, 'memory' | 'run'>): Promise<void> {
  await repo.put(plan.memory);
  await repo.applyUpdate([], [], plan.run.startedAt, { run: plan.run });
}

/** A built memory as a `toolmem-memory` file (format version 2). */
export async function exportBuiltMemory(
  repo: BuildMemoryRepository,
  memory: Memory,
  run: BuildRun,
  truth: readonly Experience[],
  split: TaskSplit,
  opts: { tools?: readonly (Pick<Tool, 'id' | 'name' | 'modality' | 'description'> & Partial<Pick<Tool, 'price' | 'latencyMs'>>)[]; history?: boolean } = {},
): Promise<MemoryFile> {
  const taskOf = new Map(truth.map((e) => [e.id, e.taskId]));
  // Entries keep the ids of the experiences behind them; the file names their tasks.
  const taskFromId = (id: string) => taskOf.get(id) ?? taskOfExperienceKey(id);
  // Each tool's cost and latency travel with the file (the card's, else the data's medians) for MCP select_tool.
  return memoryToFile(memory, await repo.allEntries(memory.id), run, taskFromId, split.train, {
    ...(opts.tools ? { tools: opts.tools } : {}),
    ...(opts.history ? { history: true } : {}),
    costStats: costStats(truth),
  });
}

/** What a build runs on besides its Run: the host's repository, models and the dataset it learns from. */
export interface BuildHost extends Pick<BuildDeps, 'repo' | 'engine' | 'embedder' | 'store' | 'saveFeedback'> {
  dataset: Dataset;
  /** Every experience of the dataset (all raters): the build's training data is rebuilt from them. */
  experiences: readonly Experience[];
}

/**
 * The one build use case: runs a build's Run — a new one, or a paused or interrupted one resumed —
 * over the host's repository. The training data and the held-out experiences are rebuilt from the
 * dataset with the Run's own configuration (the same on every (re)start), and the preset's words
 * for the scale go to the model's prompts. The memory worker's `runBuild` and `toolmem build-memory`
 * (through `buildMemoryFile`) both call it.
 */
export function runMemoryBuild(run: BuildRun, host: BuildHost, opts: Pick<RunBuildOptions, 'onProgress' | 'signal'> = {}): Promise<BuildRun> {
  const { dataset, experiences, ...deps } = host;
  const { data, unseen } = buildData(dataset, experiences, buildConfig(run));
  return runBuild(run, { ...deps, experiences: data, unseen, ...scaleMeaningOption(dataset.preset) }, opts);
}

/**
 * A whole build in memory, start to finish, exported as a file (`toolmem build-memory`): the plan
 * stored in an in-memory repository, run by `runMemoryBuild`, and — when it completed — the
 * memory file. `file` is null when the build did not complete (the Run says why).
 */
export async function buildMemoryFile(plan: BuildPlan, host: Omit<BuildHost, 'repo'>, opts: Pick<RunBuildOptions, 'onProgress' | 'signal'> = {}) {
  const repo = new InMemoryMemoryRepository();
  await startBuild(repo, plan);
  const run = await runMemoryBuild(plan.run, { ...host, repo }, opts);
  if (run.state !== 'completed') return { run, file: null as MemoryFile | null };
  return { run, file: await exportBuiltMemory(repo, (await repo.get(plan.memory.id))!, run, plan.truth, plan.split) };
}
