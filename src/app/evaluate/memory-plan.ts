/**
 * The one "evaluate a memory" plan, for a memory stored in the app (EvalConfig.memoryId, the Evaluate
 * page) and a memory FILE (`toolmem eval --memory FILE`) alike, instead of one induced per seed: the
 * split the memory dictates — its own training tasks on one side, the data's other tasks it never
 * cited as evidence on the other, in the seeded order of its build (core/eval/memory-split.ts,
 * `memoryEvalSplit`) — and its valid entries as a retrievable snapshot with its fitted capability
 * model (`entrySnapshot`). Also which stored memories can be evaluated on a dataset.
 *
 * Entry vectors are the entry TEXTS embedded with the loaded embedder, as the MCP server and the
 * tool test cases do (memory-format/predictor) — the memory's embedding model must be the loaded
 * one, or retrieval would compare vectors of two models.
 */
import { own } from '../../core/data-keys';
import { rowOf, type Embedder } from '../../core/embed';
import { ValidationError } from '../../core/errors';
import { storedMemorySplit } from '../../core/eval/memory-split';
import { describeEngineSpec, isNoEngine, readEngineSpec } from '../../core/llm';
import type { TaskSplit } from '../../core/eval/split';
import { buildConfig, checkData, groundTruthExperiences, splitTasks, trainingByTool, type BuildConfig } from '../../core/memory';
import { fileVectors, importedBuildOf, memoryEntriesOf, type MemoryFile } from '../../core/memory-format';
import type { ScoredPair } from '../../core/eval/ground-truth';
import type { SerializedCapabilityModel } from '../../core/capability/types';
import { quote } from '../../core/text/quote';
import type { MemorySnapshot } from '../../core/predict/memory';
import type { AnyPredictor, AsyncPredictor } from '../../core/predict/types';
import type { Repositories } from '../../core/repositories';
import type { Dataset, Experience } from '../../core/types';
import type { Memory, MemoryEntry, BuildRun } from '../../core/records';
import type { PredictMemory } from './api';

/** The methods that read a memory's entries. */
export { MEMORY_METHODS } from '../../core/predict/registry';

/** A stored memory offered on the Evaluate page. */
export interface EvaluableMemory {
  id: string;
  name: string;
  engine: string;
  embeddingModel: string;
  source: 'build' | 'imported';
  /** When the memory was made (built or imported): the form tells two of the same name apart by it. */
  createdAt: number;
  /** Training tasks (null: all of the dataset's tasks, so nothing is left to test on). */
  train: number | null;
  seed: number | null;
}

/** The memory's completed build on `datasetId`, if it has one. */
async function completedBuild(repos: Repositories, memory: Memory, datasetId: string): Promise<BuildRun | undefined> {
  const runId = typeof memory.settings.build === 'string' ? memory.settings.build : '';
  const run = runId ? await repos.memories.getRun(runId) : undefined;
  return run?.state === 'completed' && buildConfig(run).datasetId === datasetId ? run : undefined;
}

/** Memories whose build completed on the dataset, and memories imported for it (newest first). */
export async function evaluableMemories(repos: Repositories, datasetId: string): Promise<EvaluableMemory[]> {
  const out: EvaluableMemory[] = [];
  for (const memory of await repos.memories.list()) {
    const base = { id: memory.id, name: memory.name, embeddingModel: memory.embeddingModel, createdAt: memory.createdAt };
    const run = await completedBuild(repos, memory, datasetId);
    const imported = importedBuildOf(memory);
    if (run) {
      const c = buildConfig(run);
      out.push({ ...base, engine: c.engine, source: 'build', train: c.split.train ?? null, seed: c.split.seed ?? 0 });
    } else if (imported && (imported.build.datasetId === datasetId || memory.datasetIds.includes(datasetId))) {
      out.push({
        ...base,
        engine: imported.build.engine,
        source: 'imported',
        train: imported.build.split.trainTasks.length,
        seed: imported.build.split.seed ?? null,
      });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The stored capability memories the `memory` method can predict with on `datasetId` (a completed
 * build on it, or a memory imported for it, with its fitted model), the last built first.
 */
export async function predictMemories(repos: Repositories, datasetId: string): Promise<PredictMemory[]> {
  const out: PredictMemory[] = [];
  for (const memory of await repos.memories.list()) {
    if (!memory.capability?.model) continue;
    const run = await completedBuild(repos, memory, datasetId);
    const imported = importedBuildOf(memory);
    if (run) {
      const c = buildConfig(run);
      out.push({ id: memory.id, name: memory.name, builtAt: run.finishedAt ?? memory.updatedAt, trainTasks: c.split.train ?? null, source: 'build' });
    } else if (imported && (imported.build.datasetId === datasetId || memory.datasetIds.includes(datasetId))) {
      out.push({ id: memory.id, name: memory.name, builtAt: memory.updatedAt, trainTasks: imported.build.split.trainTasks.length || null, source: 'imported' });
    }
  }
  return out.sort((a, b) => b.builtAt - a.builtAt || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export interface StoredMemoryPlan {
  memory: Memory;
  engine: string;
  source: 'build' | 'imported';
  split: TaskSplit;
  /** Valid entries. */
  entries: MemoryEntry[];
}

export interface PlanInput {
  memoryId: string;
  dataset: Dataset;
  /** The dataset's experiences (all raters), as the build read them. */
  experiences: readonly Experience[];
  /** Tasks with a ground-truth score (the evaluation's). */
  taskIds: readonly string[];
  seeds: number;
  train?: number;
  test?: number;
}

/** Task ids behind an entry's evidence (experience ids; imported entries carry their tasks). */
function evidenceTasks(entries: readonly MemoryEntry[], memory: Memory, taskOf: ReadonlyMap<string, string>): Set<string> {
  const imported = importedBuildOf(memory);
  const out = new Set<string>();
  for (const e of entries) {
    for (const t of own(imported?.entries, e.id)?.evidenceTasks ?? []) out.add(t);
    for (const x of e.evidence) {
      const t = taskOf.get(x);
      if (t !== undefined) out.add(t);
    }
  }
  return out;
}

/** The training tasks of a build, recomputed exactly as the build did (src/app/memory/handlers.ts: trainingData). */
function buildTrainTasks(run: BuildRun, config: BuildConfig, dataset: Dataset, truth: readonly Experience[], name: string): string[] {
  const split = splitTasks(
    truth.map((e) => e.taskId),
    config.split,
  );
  try {
    checkData(run, trainingByTool(truth, split.train, config.tools));
  } catch {
    throw new ValidationError(
      `The data of ${dataset.name} changed since ${name} was built, so the tasks it learned from cannot be told apart from the others; build it ` +
        `again to evaluate it.`,
    );
  }
  return split.train;
}

/** Checks the request and works out the memory's split (see core/eval/memory-split). */
export async function planStoredMemoryEval(repos: Repositories, input: PlanInput): Promise<StoredMemoryPlan> {
  const { dataset } = input;
  const memory = await repos.memories.get(input.memoryId);
  if (!memory) throw new ValidationError(`There is no memory ${input.memoryId}; it may have been deleted.`);
  const name = `the memory “${memory.name}”`;
  if (input.seeds !== 1) throw new ValidationError(`A stored memory has one split, its own: evaluate ${name} with 1 seed (got ${input.seeds}).`);
  if (input.train !== undefined) throw new ValidationError(`The training tasks of ${name} are the ones it was built from; leave “Train tasks” empty.`);
  const run = await completedBuild(repos, memory, dataset.id);
  const imported = importedBuildOf(memory);
  const truth = groundTruthExperiences(input.experiences, dataset.raterPolicy);
  const train = new Set<string>();
  if (run) for (const t of buildTrainTasks(run, buildConfig(run), dataset, truth, name)) train.add(t);
  if (imported) for (const t of imported.build.split.trainTasks) train.add(t);
  if (!run && !imported) {
    const pending = typeof memory.settings.build === 'string' ? await repos.memories.getRun(memory.settings.build) : undefined;
    throw new ValidationError(
      pending && buildConfig(pending).datasetId === dataset.id
        ? `The build of ${name} has not completed (${pending.state}); finish it on the Memory page first.`
        : `${name} was not built on ${dataset.name}; choose a memory of this dataset.`,
    );
  }
  if (!run && imported && imported.build.datasetId !== dataset.id && !memory.datasetIds.includes(dataset.id)) {
    throw new ValidationError(`${name} was built on ${imported.build.datasetId}, not on ${dataset.name}; choose a memory of this dataset.`);
  }
  const inData = input.taskIds.filter((t) => train.has(t));
  if (!inData.length) {
    throw new ValidationError(
      imported && !run && imported.build.split.trainTasks.length === 0
        ? `${name} was imported from a file that names no training tasks, so which tasks it never saw is unknown; it cannot be evaluated.`
        : `None of the tasks ${name} learned from are in ${dataset.name}; choose a memory of this dataset.`,
    );
  }
  const entries = (await repos.memories.allEntries(memory.id)).filter((e) => e.validTo === null);
  const taskOf = new Map<string, string>();
  for (const e of [...input.experiences, ...truth]) taskOf.set(e.id, e.taskId);
  const seed = run ? (buildConfig(run).split.seed ?? 0) : 1;
  const split = memoryEvalSplit(
    name,
    input.taskIds,
    train,
    { seed, seen: evidenceTasks(entries, memory, taskOf), ...(input.test !== undefined ? { maxTest: input.test } : {}) },
    {
      data: dataset.name,
      hint: ' Build one with fewer training tasks (Memory page → Training tasks).',
    },
  );
  return { memory, engine: run ? buildConfig(run).engine : imported!.build.engine, source: run ? 'build' : 'imported', split, entries };
}

/** The valid entries with their texts embedded by `embedder`, which must be the memory's model. */
export async function storedSnapshot(plan: StoredMemoryPlan, embedder: Embedder | null, signal?: AbortSignal): Promise<MemorySnapshot> {
  const { memory, entries } = plan;
  if (!embedder)
    throw new ValidationError(`Evaluating the memory “${memory.name}” needs its embedding model ${memory.embeddingModel}, which could not be loaded.`);
  if (embedder.id !== memory.embeddingModel) {
    throw new ValidationError(
      `The memory “${memory.name}” was embedded with ${memory.embeddingModel}, but ${embedder.id} is loaded: choose ${memory.embeddingModel} in ` +
        `Settings → Embedding model to evaluate it.`,
    );
  }
  return entrySnapshot(entries, embedder, { capability: memory.capability?.model, ...(signal ? { signal } : {}) });
}

/** The memory's split, with a clear error when it leaves no task to test on. */
function memoryEvalSplit(
  name: string,
  taskIds: readonly string[],
  train: Iterable<string>,
  opts: Parameters<typeof storedMemorySplit>[2],
  where: { data: string; hint: string },
): TaskSplit {
  const split = storedMemorySplit(taskIds, train, opts);
  if (!split.test.length)
    throw new ValidationError(`${name} learned from all ${taskIds.length} tasks of ${where.data}: no task it never saw is left to test it on.${where.hint}`);
  return split;
}

/** Valid entries with their texts' vectors (`vectors` when the file carries them for this embedder, else embedded now). */
async function entrySnapshot(
  entries: MemoryEntry[],
  embedder: Embedder,
  opts: { capability?: SerializedCapabilityModel | undefined; vectors?: Map<string, Float32Array> | null; signal?: AbortSignal },
): Promise<MemorySnapshot> {
  const capability = opts.capability ? { capability: opts.capability } : {};
  if (opts.vectors || !entries.length) return { entries, vectors: opts.vectors ?? new Map(), ...capability };
  const batch = await embedder.embed(
    entries.map((e) => e.text),
    opts.signal ? { signal: opts.signal } : {},
  );
  return { entries, vectors: new Map(entries.map((e, i) => [e.id, rowOf(batch, i)])), ...capability };
}

/** A memory file's plan (`toolmem eval --memory FILE`). */
export interface MemoryFileEval {
  split: TaskSplit;
  memory: MemorySnapshot;
  /** Valid entries read. */
  entries: number;
}

/** Checks that the file can be evaluated on `data` and works out its split and snapshot (entries embedded with its own model). */
export async function planMemoryFileEval(
  file: MemoryFile,
  data: readonly ScoredPair[],
  embedder: Embedder,
  opts: { maxTest?: number; signal?: AbortSignal } = {},
): Promise<MemoryFileEval> {
  const name = `the memory ${quote(file.memory.name, 80)}`;
  const trainTasks = file.build.split.trainTasks;
  if (trainTasks.length === 0) throw new ValidationError(`${name} names no training tasks, so which tasks it never saw is unknown; it cannot be evaluated.`);
  const taskIds = [...new Set(data.map((p) => p.taskId))];
  const inData = new Set(taskIds);
  const train = trainTasks.filter((t) => inData.has(t));
  if (train.length === 0)
    throw new ValidationError(`None of the ${trainTasks.length} tasks ${name} learned from are in this data; give the data it was built on.`);
  const seen = file.tools.flatMap((t) => t.entries.flatMap((e) => e.evidenceTasks));
  const split = memoryEvalSplit(
    name,
    taskIds,
    train,
    { seed: file.build.split.seed ?? 1, seen, ...(opts.maxTest !== undefined ? { maxTest: opts.maxTest } : {}) },
    { data: 'this data', hint: '' },
  );
  const entries = memoryEntriesOf(file).filter((e) => e.validTo === null);
  const memory = await entrySnapshot(entries, embedder, {
    capability: file.build.capability?.model,
    vectors: fileVectors(file, embedder.id),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return { split, entries: entries.length, memory };
}

/** `p`, recording the ids of the memory entries its predictions cite as evidence into `cited`. */
export function citingEntries(p: AnyPredictor, cited: Set<string>): AsyncPredictor {
  const stats = p.kind === 'async' ? p.llmStats?.bind(p) : undefined;
  return {
    kind: 'async',
    id: p.id,
    needs: p.needs,
    fit: async (train, opts) => p.fit(train, opts),
    async predict(task, toolId, opts) {
      const out = await p.predict(task, toolId, opts);
      for (const e of out.evidence) if (e.kind === 'entry') cited.add(e.id);
      return out;
    },
    ...(stats ? { llmStats: stats } : {}),
  };
}

/** “name — engine · N training tasks, seed S” for the memory select and the run summary. */
export function describeStoredMemory(m: { name: string; engine: string; source: 'build' | 'imported'; train: number | null; seed: number | null }): string {
  let engine = m.engine;
  try {
    const spec = readEngineSpec(m.engine);
    engine = isNoEngine(spec) ? 'no LLM (capability analysis)' : describeEngineSpec(spec);
  } catch {
    /* an engine this version cannot parse: show it as stored */
  }
  const split = m.source === 'imported' ? `imported, ${m.train ?? 0} training tasks` : `${m.train ?? 'all'} training tasks, seed ${m.seed ?? 0}`;
  return `${m.name} — ${engine} · ${split}`;
}
