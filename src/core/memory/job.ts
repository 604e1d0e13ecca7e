/**
 * The memory build as a pure state machine over a `Run` row (kind `build`): the configuration,
 * a cursor (per tool: evidence clusters done? next experience index), and metrics. `nextStep`
 * says what to do; `afterStep` returns the Run advanced past that step. The runner commits the
 * advanced Run in the same transaction as the step's memory change, so pausing, crashing or
 * cancelling between steps never applies an experience twice and never skips one.
 */
import { dict, own } from '../data-keys';
import { ValidationError } from '../errors';
import type { CapabilitySnapshot } from '../capability/types';
import type { BuildRun } from '../records';
import type { BuildConfig, BuildMetrics, BuildSettings, ClusterStat } from './build-config';
import type { Operation } from './operations';

// The Run's config and metrics shapes live in build-config.ts (records.ts names them; a module
// that reads Run rows cannot also be imported by records.ts). Re-exported for callers.
export type { BuildConfig, BuildMetrics, BuildSettings, ClusterStat };

export interface ToolCursor {
  clustered: boolean;
  /** Index of the next experience of this tool to process. */
  next: number;
  total: number;
  /** Ids of the first and last experience, to detect that the data changed before a resume. */
  firstId: string | null;
  lastId: string | null;
}

export interface BuildCursor {
  tools: Record<string, ToolCursor>;
  /** The capability analysis (all tools at once: contrasts are paired by task) is committed. */
  capability?: boolean;
  /** Time of the last committed step; the next one commits strictly later (undo relies on it). */
  lastAt: number;
}

/** Items of a build report list kept in the Run (the rest are counted). */
export const REPORT_MAX = 50;

/**
 * `capability`: facets, effects and entries of every tool at once (src/core/capability), before any
 * language-model step. `clusters` is the per-tool evidence-cluster step of builds started before
 * capability memories; such a Run resumes as it began.
 */
export type BuildStep = { kind: 'capability' } | { kind: 'clusters'; toolId: string } | { kind: 'experience'; toolId: string; index: number };

/** What a step did, for the metrics. */
export interface StepRecord {
  experienceId?: string;
  skipped?: string;
  llm?: { calls: number; promptTokens: number; completionTokens: number };
  operations?: Operation[];
  critique?: boolean;
  feedback?: boolean;
  updatePromptTokens?: number;
  added: number;
  clusterStats?: Record<string, ClusterStat>;
  capability?: CapabilitySnapshot['report'];
  rejected?: { index: number; reason: string }[];
  critiqueError?: string;
}

export const usesLlm = (config: BuildConfig) => config.engine !== 'none';

export function createBuildRun(id: string, config: BuildConfig, data: ReadonlyMap<string, readonly { id: string }[]>, now: number): BuildRun {
  // Keyed by tool ids (data; `__proto__` would replace a plain object's prototype): null prototype.
  // A structured clone (IndexedDB, afterStep) keeps an own `__proto__` key; reads go through `own`.
  const tools = dict<ToolCursor>();
  let total = 0;
  for (const t of config.tools) {
    const list = data.get(t) ?? [];
    tools[t] = { clustered: false, next: 0, total: list.length, firstId: list[0]?.id ?? null, lastId: list[list.length - 1]?.id ?? null };
    total += usesLlm(config) ? list.length : 0;
  }
  if (config.settings.clusters) total += 1;
  const metrics: BuildMetrics = {
    done: 0,
    total,
    llmCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    applied: 0,
    skipped: [],
    generatedFeedback: 0,
    critiques: 0,
    operations: { add: 0, update: 0, merge: 0, retire: 0 },
    updatePrompt: { count: 0, min: 0, max: 0, sum: 0 },
    entriesAdded: 0,
    elapsedMs: 0,
    etaMs: null,
    clusterStats: {},
  };
  const cursor: BuildCursor = { tools, lastAt: 0, capability: false };
  return { id, kind: 'build', state: 'queued', config, cursor, metrics, startedAt: now };
}

export const buildConfig = (run: BuildRun) => run.config;
export const buildCursor = (run: BuildRun) => run.cursor as BuildCursor;
/** A build Run always has metrics (createBuildRun sets them). */
export const buildMetrics = (run: BuildRun) => run.metrics!;

/** Throws ValidationError when the data no longer matches what the run was started on. */
export function checkData(run: BuildRun, data: ReadonlyMap<string, readonly { id: string }[]>): void {
  for (const [tool, c] of Object.entries(buildCursor(run).tools)) {
    const list = data.get(tool) ?? [];
    if (list.length !== c.total || (list[0]?.id ?? null) !== c.firstId || (list[list.length - 1]?.id ?? null) !== c.lastId) {
      throw new ValidationError(`The experiences of ${tool} changed since this build started (${c.total} then, ${list.length} now); start a new build.`);
    }
  }
}

export function nextStep(run: BuildRun): BuildStep | null {
  const config = buildConfig(run);
  const cursor = buildCursor(run);
  // Runs created with a capability flag take the capability step; older runs keep per-tool clusters.
  if (config.settings.clusters && cursor.capability === false) return { kind: 'capability' };
  for (const toolId of config.tools) {
    const c = own(cursor.tools, toolId)!;
    if (config.settings.clusters && !c.clustered) return { kind: 'clusters', toolId };
    if (usesLlm(config) && c.next < c.total) return { kind: 'experience', toolId, index: c.next };
  }
  return null;
}

/** The Run advanced past `step` (a new object; the input is not changed). */
export function afterStep(run: BuildRun, step: BuildStep, record: StepRecord, at: number, stepMs: number): BuildRun {
  const cursor = structuredClone(buildCursor(run));
  const m = structuredClone(buildMetrics(run));
  if (step.kind === 'capability') {
    cursor.capability = true;
    for (const t of Object.keys(cursor.tools)) own(cursor.tools, t)!.clustered = true;
  } else if (step.kind === 'clusters') own(cursor.tools, step.toolId)!.clustered = true;
  else {
    const c = own(cursor.tools, step.toolId)!;
    if (step.index !== c.next) throw new ValidationError(`Build step out of order: ${step.toolId} #${step.index}, cursor at ${c.next}`);
    c.next++;
  }
  cursor.lastAt = at;
  m.done++;
  m.elapsedMs += stepMs;
  m.etaMs = m.done > 0 ? Math.round((m.elapsedMs / m.done) * (m.total - m.done)) : null;
  m.entriesAdded += record.added;
  if (record.llm) {
    m.llmCalls += record.llm.calls;
    m.promptTokens += record.llm.promptTokens;
    m.completionTokens += record.llm.completionTokens;
  }
  if (record.skipped !== undefined) m.skipped.push({ experienceId: record.experienceId ?? '', error: record.skipped });
  else if (step.kind === 'experience') m.applied++;
  if (record.feedback) m.generatedFeedback++;
  if (record.critique) m.critiques++;
  for (const op of record.operations ?? []) m.operations[op.op]++;
  if (record.updatePromptTokens !== undefined && record.updatePromptTokens > 0) {
    const u = m.updatePrompt;
    const t = record.updatePromptTokens;
    u.min = u.count === 0 ? t : Math.min(u.min, t);
    u.max = Math.max(u.max, t);
    u.sum += t;
    u.count++;
  }
  Object.assign(m.clusterStats, record.clusterStats ?? {});
  if (record.capability) m.capability = record.capability;
  if (record.rejected?.length) {
    const r = (m.rejectedOps ??= { count: 0, items: [] });
    r.count += record.rejected.length;
    for (const x of record.rejected)
      if (r.items.length < REPORT_MAX) r.items.push({ experienceId: record.experienceId ?? '', index: x.index, reason: x.reason });
  }
  if (record.critiqueError !== undefined) {
    const c = (m.critiqueErrors ??= { count: 0, items: [] });
    c.count++;
    if (c.items.length < REPORT_MAX) c.items.push({ experienceId: record.experienceId ?? '', error: record.critiqueError });
  }
  return { ...run, cursor, metrics: m };
}
