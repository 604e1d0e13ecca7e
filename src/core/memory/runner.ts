/**
 * Runs a build Run step by step (see job.ts). Each step ends with ONE repo.applyUpdate that holds
 * the memory change and the advanced Run together. Stopping:
 *  - `signal` aborted between steps, or `maxSteps` reached → state `paused`;
 *  - aborted inside a step (CancelledError from the engine/embedder) → nothing of that step is
 *    committed, state `paused`;
 *  - any other error (server down, HTTP 500…) → state `failed` with the message; the cursor is
 *    where it was, so running the same Run again retries that step.
 */
import { dict } from '../data-keys';
import { buildCapability } from '../capability/build';
import { checkMemory, checkPicks } from '../capability/check';
import { CancelledError } from '../errors';
import type { Embedder, EmbeddingStore } from '../embed';
import { MemoryEmbeddingStore } from '../embed';
import type { LlmEngine } from '../llm/engine';
import type { PromptTool } from '../prompts/shared';
import type { Experience } from '../types';
import type { MemoryEntry, BuildRun } from '../records';
import { emptyUsage } from './ask';
import { evidenceClusters, type GroupCache } from './clusters';
import { EntryIndex } from './entry-index';
import { induceExperience } from './induce';
import { updateContext } from './update-context';
import { verifyAdded } from './verify-added';
import { afterStep, buildConfig, buildCursor, checkData, nextStep, type BuildStep, type ClusterStat, type StepRecord } from './job';
import { newEntry, type Superseded, type UpdatePlan } from './plan';
import type { BuildMemoryRepository } from './repository';

export interface BuildDeps {
  repo: BuildMemoryRepository;
  /** `NoneEngine` when the build uses no LLM. */
  engine: LlmEngine;
  embedder: Embedder;
  store?: EmbeddingStore;
  /** Training experiences per tool, in build order (see trainingByTool). */
  experiences: ReadonlyMap<string, readonly Experience[]>;
  /** Ground truth of the held-out tasks: the capability claims are checked on them (verdicts). */
  unseen?: readonly Experience[];
  tools?: ReadonlyMap<string, PromptTool>;
  now?: () => number;
  /** Persist feedback the model wrote (marked feedbackGenerated). */
  saveFeedback?: (experience: Experience) => Promise<void>;
  /** What the scale's points mean (the dataset preset's words), for the model's prompts. */
  scaleMeaning?: string;
}

export interface RunBuildOptions {
  signal?: AbortSignal;
  /** Stop (paused) after this many steps in this call. */
  maxSteps?: number;
  onProgress?: (run: BuildRun) => void;
  /** Reuse groups across tools that share their tasks. */
  groupCache?: GroupCache;
}

async function clusterStep(run: BuildRun, deps: BuildDeps, index: EntryIndex, toolId: string, at: number, cache: GroupCache | undefined, signal?: AbortSignal) {
  const config = buildConfig(run);
  const list = deps.experiences.get(toolId) ?? [];
  const vectors = await index.embed(
    list.map((e) => e.prompt),
    signal,
  );
  const clusters = evidenceClusters(
    { experienceIds: list.map((e) => e.id), texts: list.map((e) => e.prompt), scores: list.map((e) => e.score), vectors, direction: config.scale.direction },
    config.settings.cluster,
    cache,
  );
  // A new analysis replaces the tool's previous (unpinned) statistical entries.
  const old = (await deps.repo.validEntries(config.memoryId, toolId)).filter((e) => e.origin === 'stats' && !e.pinned);
  const superseded: Superseded[] = old.map((e) => ({ id: e.id, supersededBy: null, reason: 'replaced by a new evidence analysis' }));
  const stats = dict<ClusterStat>(); // keyed by entry ids (they embed the tool id): null prototype
  const added: MemoryEntry[] = clusters.map((c, n) => {
    const id = `${run.id}:${toolId}:c.${n}`;
    stats[id] = { tier: c.tier, size: c.size, mean: c.mean, overall: c.overall, d: c.d, p: c.p, q: c.q };
    return newEntry({ id, memoryId: config.memoryId, toolId, level: c.level, text: c.text, evidence: c.evidence, origin: 'stats', at });
  });
  return { plan: { superseded, added }, record: { added: added.length, clusterStats: stats } satisfies StepRecord };
}

/**
 * Facets, effects and entries of every tool at once (src/core/capability/build.ts). Prompt vectors
 * (for theme facets) come from the entry index's embedder and cache. The tools' previous unpinned
 * statistical entries are replaced; the snapshot (matrix, shared note, fitted model) is written on
 * the memory row in the same transaction as the entries and the cursor.
 */
async function capabilityStep(run: BuildRun, deps: BuildDeps, index: EntryIndex, at: number, signal?: AbortSignal) {
  const config = buildConfig(run);
  const prompts = [...new Set([...deps.experiences.values()].flat().map((e) => e.prompt))];
  const list = await index.embed(prompts, signal);
  const vectors = new Map(prompts.map((p, i) => [p, list[i]!]));
  const built = buildCapability({
    scale: config.scale,
    experiences: deps.experiences,
    vectors,
    memoryId: config.memoryId,
    idPrefix: run.id,
    at,
    ...(config.settings.maxLfsr !== undefined ? { claims: { maxLfsr: config.settings.maxLfsr } } : {}),
    ...(config.evidence ? { source: config.evidence } : {}),
  });
  const unseen = (deps.unseen ?? []).filter((e) => config.tools.includes(e.toolId));
  if (unseen.length === 0)
    built.snapshot.report.notes.push(
      'Every task was used for training: none is held out, so no claim was checked on tasks the memory never saw (choose fewer training tasks to check them).',
    );
  if (unseen.length > 0) {
    const unseenPrompts = [...new Set(unseen.map((e) => e.prompt))].filter((p) => !vectors.has(p));
    const more = await index.embed(unseenPrompts, signal);
    unseenPrompts.forEach((p, i) => vectors.set(p, more[i]!));
    const report = checkMemory({
      entries: built.entries,
      snapshot: built.snapshot,
      unseen,
      scale: config.scale,
      promptVector: (p) => vectors.get(p),
      on: 'test-split',
      at,
    });
    const byId = new Map(report.checks.map((c) => [c.id, c.verdict]));
    for (const e of built.entries) {
      const v = byId.get(e.id);
      if (v) e.verdict = v;
    }
    built.snapshot.report.verification = {
      on: 'test-split',
      precision: report.precision,
      tested: report.tested,
      counts: report.counts,
      direction: report.direction,
      confirmed: report.confirmed,
      calibration: report.calibration,
    };
    const picks = built.snapshot.picks ?? [];
    if (picks.length) {
      const checked = checkPicks({
        picks,
        facets: built.snapshot.facets,
        unseen,
        scale: config.scale,
        promptVector: (p) => vectors.get(p),
        on: 'test-split',
        at,
      });
      picks.forEach((k, i) => (k.verdict = checked.verdicts[i]!));
      built.snapshot.report.pickVerification = { tested: checked.tested, direction: checked.direction, holds: checked.holds };
    }
  }
  const old: MemoryEntry[] = [];
  for (const t of config.tools) old.push(...(await deps.repo.validEntries(config.memoryId, t)).filter((e) => e.origin === 'stats' && !e.pinned));
  const superseded: Superseded[] = old.map((e) => ({ id: e.id, supersededBy: null, reason: 'replaced by a new capability analysis' }));
  const memory = await deps.repo.get(config.memoryId);
  return {
    plan: { superseded, added: built.entries },
    record: { added: built.entries.length, capability: built.snapshot.report } satisfies StepRecord,
    memory: memory ? { ...memory, capability: built.snapshot, updatedAt: at } : undefined,
  };
}

async function experienceStep(
  run: BuildRun,
  deps: BuildDeps,
  index: EntryIndex,
  step: Extract<BuildStep, { kind: 'experience' }>,
  at: number,
  signal?: AbortSignal,
) {
  const config = buildConfig(run);
  const experience = deps.experiences.get(step.toolId)![step.index]!;
  let n = 0;
  const usage = emptyUsage();
  // The example's standing for the update prompt: training data and this build's capability analysis only.
  const capability = (await deps.repo.get(config.memoryId))?.capability ?? null;
  const [vector] = capability?.facets.some((f) => f.centroid) ? await index.embed([experience.prompt], signal) : [undefined];
  const context = updateContext({ experience, experiences: deps.experiences, capability, ...(vector ? { vector } : {}) });
  const outcome = await induceExperience(
    deps.engine,
    index,
    {
      memoryId: config.memoryId,
      tool: deps.tools?.get(step.toolId) ?? { id: step.toolId },
      scale: config.scale,
      experience,
      at,
      newId: () => `${run.id}:${step.toolId}:x${step.index}.${n++}`,
      settings: config.settings,
      context,
      ...(deps.scaleMeaning ? { scaleMeaning: deps.scaleMeaning } : {}),
      ...(signal ? { signal } : {}),
    },
    usage,
  );
  if (outcome.feedback && deps.saveFeedback) await deps.saveFeedback({ ...experience, feedback: outcome.feedback, feedbackGenerated: true });
  const record: StepRecord = {
    experienceId: experience.id,
    llm: usage,
    added: 0,
    feedback: outcome.feedback !== undefined,
    updatePromptTokens: outcome.updatePromptTokens,
  };
  if (outcome.status === 'skipped') return { plan: { superseded: [], added: [] } as UpdatePlan, record: { ...record, skipped: outcome.error } };
  const unseen = (deps.unseen ?? []).filter((x) => config.tools.includes(x.toolId));
  await verifyAdded(outcome.plan.added, { unseen, scale: config.scale, capability, index, at, ...(signal ? { signal } : {}) });
  return {
    plan: outcome.plan,
    record: {
      ...record,
      added: outcome.plan.added.length,
      operations: outcome.operations,
      critique: outcome.critique,
      ...(outcome.rejected.length ? { rejected: outcome.rejected } : {}),
      ...(outcome.critiqueError !== undefined ? { critiqueError: outcome.critiqueError } : {}),
    },
  };
}

export async function runBuild(start: BuildRun, deps: BuildDeps, opts: RunBuildOptions = {}): Promise<BuildRun> {
  const now = deps.now ?? Date.now;
  const config = buildConfig(start);
  checkData(start, deps.experiences);
  const save = (r: BuildRun) => deps.repo.applyUpdate([], [], Math.max(now(), buildCursor(r).lastAt + 1), { run: r });
  if (!(await deps.repo.get(config.memoryId))) {
    const t = now();
    await deps.repo.put({
      id: config.memoryId,
      name: config.memoryName,
      datasetIds: [config.datasetId],
      embeddingModel: config.embeddingModel,
      settings: { build: start.id, ...config.settings, split: config.split, engine: config.engine },
      createdAt: t,
      updatedAt: t,
    });
  }
  const index = new EntryIndex(deps.embedder, deps.store ?? new MemoryEmbeddingStore());
  for (const t of config.tools) await index.add(await deps.repo.validEntries(config.memoryId, t), opts.signal);

  let run: BuildRun = { ...start, state: 'running' };
  delete run.error;
  // Stored as running before the first step: a page reloaded during a long step (a build without a
  // model is ONE capability step) finds it running and resumes it, instead of a queued run that waits.
  if (start.state !== 'running') await save(run);
  let steps = 0;
  for (;;) {
    const step = nextStep(run);
    if (!step) {
      run = { ...run, state: 'completed', finishedAt: now() };
      break;
    }
    if (opts.signal?.aborted || (opts.maxSteps !== undefined && steps >= opts.maxSteps)) {
      run = { ...run, state: 'paused' };
      break;
    }
    const at = Math.max(now(), buildCursor(run).lastAt + 1);
    const t0 = now();
    try {
      const { plan, record, memory } =
        step.kind === 'capability'
          ? await capabilityStep(run, deps, index, at, opts.signal)
          : step.kind === 'clusters'
            ? { ...(await clusterStep(run, deps, index, step.toolId, at, opts.groupCache, opts.signal)), memory: undefined }
            : { ...(await experienceStep(run, deps, index, step, at, opts.signal)), memory: undefined };
      // Vectors of new texts are computed before the commit, so mirroring it cannot fail.
      await index.embed(
        plan.added.map((e) => e.text),
        opts.signal,
      );
      const next = afterStep(run, step, record, at, Math.max(0, now() - t0));
      await deps.repo.applyUpdate(plan.superseded, plan.added, at, memory ? { run: next, memory } : { run: next });
      await index.apply(plan);
      run = next;
      steps++;
      opts.onProgress?.(run);
    } catch (err) {
      run =
        err instanceof CancelledError
          ? { ...run, state: 'paused' }
          : { ...run, state: 'failed', error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
      break;
    }
  }
  await save(run);
  const memory = await deps.repo.get(config.memoryId);
  if (memory) await deps.repo.put({ ...memory, updatedAt: now() });
  return run;
}
