/**
 * Checking a memory against the data that arrived after it: stale entries (core/memory/drift) and
 * a tool's test cases (core/memory/test-cases), predicted with the memory file's calibrated
 * predictor (core/memory-format/predictor), the same one the MCP server uses.
 */
import { cachedEmbed, rowOf, throwIfCancelled, type Embedder, type EmbeddingStore } from '../../core/embed';
import { dict, own } from '../../core/data-keys';
import { newId, taskOfExperienceKey } from '../../core/ids';
import {
  buildConfig,
  defaultTolerance,
  DRIFT_DEFAULTS,
  findStaleEntries,
  groundTruthExperiences,
  summariseTestCases,
  type DriftEntry,
  type DriftExperience,
  type StaleFlag,
  type TestCaseResult,
} from '../../core/memory';
import { importedBuildOf, memoryEntriesOf, MemoryFilePredictor, type MemoryFile } from '../../core/memory-format';
import type { Repositories } from '../../core/repositories';
import { toolSums, type DatasetCounts } from '../../core/stats/dataset-stats';
import { checkMemory } from '../../core/capability/check';
import { applies } from '../../core/capability/facets';
import type { Experience, ScoreScale } from '../../core/types';
import type { Memory, MemoryEntry, TestCaseRun } from '../../core/records';
import type { Handler } from '../../rpc';
import type { MemoryApi } from './api';
import type { DriftExperienceInfo } from './share-api';

export interface MemoryCheckDeps {
  repos: Repositories;
  store: EmbeddingStore;
  embedder(model: string): Promise<Embedder>;
  /** The memory as a file (built or imported), from the export path. */
  memoryFile(memoryId: string): Promise<MemoryFile>;
}

const modelName = (id: string) => id.replace(/@[0-9a-f]+$/, '');
const sameScale = (a: ScoreScale, b: Pick<ScoreScale, 'min' | 'max' | 'direction'>) => a.min === b.min && a.max === b.max && a.direction === b.direction;

/** The scale a memory predicts on: the imported file's, or its build's. */
async function memoryScale(repos: Repositories, memory: Memory): Promise<ScoreScale | undefined> {
  const imported = importedBuildOf(memory);
  if (imported) return imported.build.scale;
  const run = typeof memory.settings.build === 'string' ? await repos.memories.getRun(memory.settings.build) : undefined;
  return run ? buildConfig(run).scale : undefined;
}

/**
 * Stale flags of capability entries: the claims checked (src/core/capability/check.ts) on the
 * experiences that arrived after the memory; a `contradicted` verdict flags the entry, with the
 * experiences of its tool on the tasks its rule applies to that go against the claim.
 */
export function verdictStaleFlags(entries: readonly MemoryEntry[], memory: Memory, later: readonly Experience[], scale: ScoreScale): StaleFlag[] {
  if (!later.length) return [];
  const report = checkMemory({
    entries,
    ...(memory.capability ? { snapshot: memory.capability } : {}),
    unseen: later,
    scale,
    on: 'later-imports',
    at: Date.now(),
  });
  const sign = scale.direction === 'lower-better' ? -1 : 1;
  const byId = new Map(entries.map((e) => [e.id, e]));
  const flags: StaleFlag[] = [];
  for (const c of report.checks) {
    if (c.verdict.verdict !== 'contradicted') continue;
    const e = byId.get(c.id)!;
    const mine = later.filter((x) => x.toolId === e.toolId);
    const mean = mine.reduce((a, x) => a + x.score, 0) / Math.max(1, mine.length);
    const facetTasks = new Set(mine.filter((x) => applies({ facet: e.facet! }, x)).map((x) => x.taskId));
    const compared = mine.filter((x) => facetTasks.has(x.taskId));
    const against = compared.filter((x) => Math.sign(sign * (x.score - mean)) === -Math.sign(c.claimed ?? e.value));
    flags.push({
      entryId: e.id,
      toolId: e.toolId,
      compared: c.verdict.n,
      contradicting: against.map((x) => x.id),
      share: compared.length ? against.length / compared.length : 1,
      toolMean: mean,
      comparedMean: compared.reduce((a, x) => a + x.score, 0) / Math.max(1, compared.length),
    });
  }
  return flags;
}

/** The memory worker's drift and test-case methods. */
export function memoryCheckHandlers(deps: MemoryCheckDeps): { drift: Handler<MemoryApi['drift']>; runTestCases: Handler<MemoryApi['runTestCases']> } {
  return {
    drift: (req, ctx) => driftOf(deps.repos, req, ctx.signal),
    runTestCases: (req) => runTestCases(deps, req.toolId),
  };
}

/**
 * Stale entries. Only experiences that arrived after an entry can contradict it, so the check first
 * gathers those that arrived after the memory's earliest entry (`T`, one index read): the rows of
 * imports that were still running or finished after T, and hand labels (`manual`) — never the rows
 * of older imports. Usually there are none (the memory was built from the data it has) and the
 * entries are not even read. With 200k experiences and 20k entries the whole-memory version read
 * for about a second and held IndexedDB meanwhile, so the page opened next waited behind it.
 * Cancellable between its reads (the page that asked may be gone; see ToolsPage/MemoryPage).
 */
async function driftOf(repos: Repositories, { memoryId, threshold }: MemoryApi['drift']['req'], signal: AbortSignal): Promise<MemoryApi['drift']['res']> {
  const memory = await repos.memories.get(memoryId);
  const t = threshold ?? DRIFT_DEFAULTS.threshold;
  const none = { memoryId, flags: [], experiences: {}, threshold: t };
  if (!memory) return none;
  const scale = await memoryScale(repos, memory);
  const since = await repos.memories.earliestValidFrom(memoryId);
  if (!scale || since === null) return none;
  // Experiences arrive with an import (re-imports keep createdAt but change importId) or a label.
  const imports = new Map((await repos.imports.list()).map((r) => [r.id, r]));
  const onScale = (await repos.datasets.list()).filter((d) => sameScale(scale, d.scale));
  const datasets = new Set(onScale.map((d) => d.id));
  const arrival = (x: Experience) => Math.max(x.createdAt, imports.get(x.importId)?.startedAt ?? 0);
  const arrived: Experience[] = [];
  for (const importId of await repos.experiences.importIds()) {
    throwIfCancelled(signal);
    const record = imports.get(importId);
    // A finished import's rows were written between its start and its end (or kept an older createdAt).
    if (record && record.state !== 'running' && record.finishedAt !== undefined && Math.max(record.startedAt, record.finishedAt) <= since) continue;
    for (const x of await repos.experiences.byImport(importId, signal)) if (datasets.has(x.datasetId) && arrival(x) > since) arrived.push(x);
  }
  if (!arrived.length) return none;

  const imported = importedBuildOf(memory);
  const all = (await repos.memories.allEntries(memoryId)).filter((e) => e.validTo === null);
  throwIfCancelled(signal);
  // Capability entries carry their rule and claimed effect: their stale flag is the verdict of the
  // claim re-checked on the experiences that arrived later (contradicted = stale). Other entries
  // (written by a model or by hand) keep the evidence-task comparison below.
  const capability = all.filter((e) => e.facet && e.effect);
  const valid = all.filter((e) => !(e.facet && e.effect));
  const later = onScale.flatMap((d) =>
    groundTruthExperiences(
      arrived.filter((x) => x.datasetId === d.id),
      d.raterPolicy,
    ),
  );
  const verdictFlags = capability.length ? verdictStaleFlags(capability, memory, later, scale) : [];
  const entries: DriftEntry[] = valid.map((e) => ({
    id: e.id,
    toolId: e.toolId,
    level: e.level,
    value: e.value,
    evidenceTasks: own(imported?.entries, e.id)?.evidenceTasks ?? [...new Set(e.evidence.map((x) => taskOfExperienceKey(x) ?? x))],
    validFrom: e.validFrom,
  }));
  const tools = new Set(valid.map((e) => e.toolId));
  // Only the experiences on the entries' evidence tasks can contradict them; the tools' means (over
  // all their experiences) come from the stored counts.
  const tasks = new Set(entries.flatMap((e) => e.evidenceTasks));
  const experiences: DriftExperience[] = [];
  const info = new Map<string, DriftExperienceInfo>();
  for (const x of arrived) {
    if (!tools.has(x.toolId) || !tasks.has(x.taskId)) continue;
    experiences.push({ id: x.id, toolId: x.toolId, taskId: x.taskId, score: x.score, at: arrival(x) });
    info.set(x.id, { id: x.id, datasetId: x.datasetId, taskId: x.taskId, prompt: x.prompt, score: x.score, rater: x.rater });
  }
  const scores: DatasetCounts['scores'] = [];
  for (const d of datasets) for (const s of (await repos.experiences.counts(d)).scores) if (tools.has(s.toolId)) scores.push(s);
  const toolMeans = new Map([...toolSums({ scores })].map(([tool, m]) => [tool, m.sum / m.n]));
  for (const x of later) info.set(x.id, { id: x.id, datasetId: x.datasetId, taskId: x.taskId, prompt: x.prompt, score: x.score, rater: x.rater });
  const flags = [
    ...findStaleEntries(entries, experiences, { scale, threshold: t, toolMeans }),
    ...verdictFlags.map((f) => ({ ...f, toolMean: toolMeans.get(f.toolId) ?? f.toolMean })),
  ];
  const shown = dict<DriftExperienceInfo>(); // experience ids hold data: null prototype (core/data-keys)
  for (const f of flags) for (const id of f.contradicting) if (info.has(id)) shown[id] = info.get(id)!;
  return { memoryId, flags, experiences: shown, threshold: t };
}

/** The most recently changed memory with current entries for the tool. */
async function memoryFor(repos: Repositories, toolId: string): Promise<Memory | undefined> {
  for (const m of await repos.memories.list()) if ((await repos.memories.validEntries(m.id, toolId)).length) return m;
  return undefined;
}

async function runTestCases(deps: MemoryCheckDeps, toolId: string): Promise<TestCaseRun> {
  const { repos } = deps;
  const tool = await repos.tools.get(toolId);
  const cases = tool?.testCases ?? [];
  const memory = await memoryFor(repos, toolId);
  const run: TestCaseRun = {
    id: newId('tests-'),
    kind: 'test-cases',
    state: 'running',
    config: { toolId, memoryId: memory?.id ?? null, memoryName: memory?.name ?? null, cases },
    startedAt: Date.now(),
  };
  const finish = async (state: TestCaseRun['state'], extra: Partial<TestCaseRun>) => {
    const done: TestCaseRun = { ...run, ...extra, state, finishedAt: Date.now() };
    await repos.runs.put(done);
    return done;
  };
  if (!cases.length) return finish('blocked', { error: `No test cases: pin tasks of ${toolId} in the experience browser (Data page) first.` });
  if (!memory) return finish('blocked', { error: `No memory has entries for ${toolId}: build or import one on the Memory page.` });
  try {
    const file = await deps.memoryFile(memory.id);
    const embedder = await deps.embedder(modelName(file.memory.embeddingModel));
    if (embedder.id !== file.memory.embeddingModel) {
      return finish('blocked', { error: `The memory embeds with ${file.memory.embeddingModel} but ${embedder.id} is loaded; choose that model in Settings.` });
    }
    const rows: Omit<TestCaseResult, 'pass'>[] = [];
    for (const c of cases) {
      const dataset = await repos.datasets.get(c.datasetId);
      const exps = (await repos.experiences.byTask(c.datasetId, c.taskId)).filter((x) => x.toolId === toolId);
      const truth = (dataset ? groundTruthExperiences(exps, dataset.raterPolicy)[0] : undefined) ?? groundTruthExperiences(exps, { kind: 'mean' })[0];
      rows.push({ ...c, prompt: exps[0]?.prompt ?? '', actual: truth?.score ?? null, predicted: null });
    }
    const entries = memoryEntriesOf(file).filter((e) => e.toolId === toolId);
    const texts = [...entries.map((e) => e.text), ...rows.map((r) => r.prompt)];
    const { batch } = await cachedEmbed(embedder, deps.store, texts);
    const vectors = new Map(entries.map((e, i) => [e.id, rowOf(batch, i)]));
    const predictor = new MemoryFilePredictor(file, { entries, vectors });
    rows.forEach((r, i) => {
      if (r.actual !== null) r.predicted = predictor.predict({ taskId: r.taskId, prompt: r.prompt, vector: rowOf(batch, entries.length + i) }, toolId).score;
    });
    const { state, metrics } = summariseTestCases(rows, defaultTolerance(file.build.scale));
    return finish(state, { metrics });
  } catch (err) {
    return finish('failed', { error: err instanceof Error ? err.message : String(err) });
  }
}
