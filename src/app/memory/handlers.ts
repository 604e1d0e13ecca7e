import type { Embedder, EmbeddingStore } from '../../core/embed';
import { ValidationError } from '../../core/errors';
import { newId } from '../../core/ids';
import { checkEngineSpec, readEngineSpec, resolveEngine, type EngineHost } from '../../core/llm';
import { buildData, exportBuiltMemory, planBuild, runMemoryBuild, startBuild } from './build';
import { retireEntry, reviseEntry } from '../edit/entry';
import { buildConfig, undoLatest, type BuildConfig } from '../../core/memory';
import { serializeMemoryFile } from '../../core/memory-format';
import { slugify } from '../../core/ids';
import type { Repositories } from '../../core/repositories';
import type { Dataset, Experience } from '../../core/types';
import type { BuildRun } from '../../core/records';
import type { CallContext, Handlers } from '../../rpc';
import type { BuildRequest, MemoryApi } from './api';
import { withMemorySharing } from './share';
import type { MemoryImportStore } from '../../core/memory-format';

/**
 * The engine host (core/llm/spec `EngineHost`): `engineOf` serves in-browser models through the llm
 * worker; `apiKey` is the endpoint's key, kept only in this browser (never in the Run).
 */
export interface MemoryServiceDeps extends EngineHost {
  repos: Repositories;
  /** The embedder for a model name (loaded once, lazily, by the host). */
  embedder(model: string): Promise<Embedder>;
  /** Name of the embedding model chosen in Settings. */
  currentModel(): Promise<string>;
  store: EmbeddingStore;
  /** Called with the port the page sends (`attachLlm`); hosts without in-browser engines ignore it. */
  onLlmPort?(port: MessagePort): void;
  /** Writes memory imports in one transaction (Dexie); without it, importMemory refuses. */
  importStore?: MemoryImportStore;
}

/** Model name from an embedder id (`glove-100d@2790b023` → `glove-100d`); hub ids carry no revision. */
export function modelOf(embedderId: string): string {
  return embedderId.replace(/@[0-9a-f]+$/, '');
}

/** The training experiences a build works on, rebuilt from the store on every (re)start. */
async function trainingData(repos: Repositories, config: Pick<BuildConfig, 'datasetId' | 'split' | 'tools'>) {
  const dataset = await repos.datasets.get(config.datasetId);
  if (!dataset) throw new ValidationError(`The dataset ${config.datasetId} no longer exists.`);
  return { dataset, ...buildData(dataset, await repos.experiences.byDataset(config.datasetId), config) };
}

/**
 * Build jobs over the app's repositories. Every step commits the memory change and the Run's
 * cursor in one transaction (see core/memory/runner), so a reload mid-build resumes exactly where
 * it stopped and never applies an experience twice.
 */
export function createMemoryHandlers(deps: MemoryServiceDeps): Handlers<MemoryApi> {
  return withMemorySharing(deps, {
    createBuild: (req) => createBuild(deps, req),
    build: (req, ctx) => build(deps, req, ctx),
    runBuild: (req, ctx) => runBuild(deps, req, ctx),
    exportMemory: (req) => exportMemory(deps, req),
    attachLlm: (req) => attachLlm(deps, req),
    undoMemory: (req) => undoMemory(deps, req),
    reviseEntry: ({ entry, patch }) => reviseEntry(deps.repos.memories, entry, patch),
    retireEntry: (req) => retireEntryOf(deps, req),
  });
}

/** The build planned from the dataset as it is now, with the rows it was planned from. */
async function planFrom(deps: MemoryServiceDeps, req: BuildRequest, runId: string) {
  const dataset = await deps.repos.datasets.get(req.datasetId);
  if (!dataset) throw new ValidationError(`The dataset ${req.datasetId} does not exist.`);
  const engine = checkEngineSpec(req.engine); // a malformed endpoint fails here, with its message
  const embedder = await deps.embedder(await deps.currentModel());
  const experiences = await deps.repos.experiences.byDataset(req.datasetId);
  const plan = planBuild(dataset, experiences, {
    ...(req.name ? { name: req.name } : {}),
    split: { ...(req.trainSize ? { train: req.trainSize } : {}), seed: req.seed ?? 1 },
    ...(req.tools?.length ? { tools: req.tools } : {}),
    engine,
    embeddingModel: embedder.id,
    ...(req.k !== undefined ? { k: req.k } : {}),
    ...(req.critiques !== undefined ? { critiques: req.critiques } : {}),
    ...(req.clusters !== undefined ? { statistics: req.clusters } : {}),
    memoryId: newId('mem-'),
    runId,
    now: Date.now(),
  });
  await startBuild(deps.repos.memories, plan);
  return { run: plan.run, dataset, experiences };
}

/** Creates the memory and its queued build Run from the dataset as it is now. */
async function createBuild(deps: MemoryServiceDeps, req: MemoryApi['createBuild']['req']): Promise<BuildRun> {
  return (await planFrom(deps, req, newId('build-'))).run;
}

/**
 * One call starts a build and runs it to its end, a pause or a failure: the dataset's rows are read
 * once, and the build's progress is its Run row (each step commits it), which the page reads live.
 * The page names the Run (`runId`) so that it can follow that row from the start.
 */
async function build(deps: MemoryServiceDeps, req: MemoryApi['build']['req'], ctx: CallContext<never>): Promise<BuildRun> {
  if (!/^build-[\w-]{1,80}$/.test(req.runId)) throw new ValidationError('A build is named build-… (letters, digits, dashes).');
  if (await deps.repos.memories.getRun(req.runId)) throw new ValidationError(`There is a build ${req.runId} already.`);
  const { run, dataset, experiences } = await planFrom(deps, req, req.runId);
  return runFrom(deps, run, dataset, experiences, { signal: ctx.signal });
}

/** Runs (or resumes) a build Run to its end, a pause or a failure. */
async function runBuild(deps: MemoryServiceDeps, { runId }: MemoryApi['runBuild']['req'], ctx: CallContext<BuildRun>): Promise<BuildRun> {
  const start = await deps.repos.memories.getRun(runId);
  if (!start || start.kind !== 'build') throw new ValidationError(`There is no build ${runId}.`);
  if (start.state === 'completed') return start;
  const config = buildConfig(start);
  const dataset = await deps.repos.datasets.get(config.datasetId);
  if (!dataset) throw new ValidationError(`The dataset ${config.datasetId} no longer exists.`);
  const experiences = await deps.repos.experiences.byDataset(config.datasetId);
  return runFrom(deps, start, dataset, experiences, { signal: ctx.signal, onProgress: (run) => ctx.progress(run) });
}

/** The build from `start` with its engine and the embedder it was planned with. */
async function runFrom(
  deps: MemoryServiceDeps,
  start: BuildRun,
  dataset: Dataset,
  experiences: Experience[],
  opts: { signal: AbortSignal; onProgress?: (run: BuildRun) => void },
): Promise<BuildRun> {
  const config = buildConfig(start);
  const engine = await resolveEngine(readEngineSpec(config.engine), deps);
  const embedder = await deps.embedder(modelOf(config.embeddingModel));
  if (embedder.id !== config.embeddingModel) {
    throw new ValidationError(
      `This build embeds with ${config.embeddingModel}, but ${embedder.id} is loaded; switch the embedding model back in Settings to resume it.`,
    );
  }
  return runMemoryBuild(
    start,
    { repo: deps.repos.memories, engine, embedder, store: deps.store, dataset, experiences, saveFeedback: (e: Experience) => deps.repos.experiences.put(e) },
    opts,
  );
}

/** A built memory as a toolmem-memory file. */
async function exportMemory(deps: MemoryServiceDeps, { memoryId, history }: MemoryApi['exportMemory']['req']): Promise<MemoryApi['exportMemory']['res']> {
  const memory = await deps.repos.memories.get(memoryId);
  if (!memory) throw new ValidationError(`There is no memory ${memoryId}.`);
  const runId = typeof memory.settings.build === 'string' ? memory.settings.build : '';
  const run = await deps.repos.memories.getRun(runId);
  if (!run) throw new ValidationError(`The build of ${memory.name} is missing, so its settings cannot be exported.`);
  const { truth, split } = await trainingData(deps.repos, buildConfig(run));
  const file = await exportBuiltMemory(deps.repos.memories, memory, run, truth, split, {
    tools: await deps.repos.tools.list(),
    ...(history ? { history: true } : {}),
  });
  return { fileName: `${slugify(memory.name)}.toolmem-memory.json`, text: serializeMemoryFile(file) };
}

function attachLlm(deps: MemoryServiceDeps, { port }: { port: MessagePort }): null {
  deps.onLlmPort?.(port);
  return null;
}

async function undoMemory(deps: MemoryServiceDeps, { memoryId, toolId }: MemoryApi['undoMemory']['req']): Promise<MemoryApi['undoMemory']['res']> {
  const done = await undoLatest(deps.repos.memories, memoryId, toolId ? { toolId } : {});
  return { undone: done.length > 0, entries: done.reduce((s, c) => s + c.restore.length + c.remove.length, 0) };
}

async function retireEntryOf(deps: MemoryServiceDeps, { entry, reason }: MemoryApi['retireEntry']['req']): Promise<null> {
  await retireEntry(deps.repos.memories, entry, reason);
  return null;
}
