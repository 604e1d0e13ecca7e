/**
 * Checking a memory's claims on experiences it never saw (issue #15 part 4), for any memory: the
 * entries of a capability build (their facet is the applicability rule) and entries written by a
 * language model (no facet: the rule is "the `RETRIEVAL_N` unseen tasks most similar to the entry's
 * text", and the claim is the direction of its level). One function serves the build (test split),
 * `toolmem verify` and the app's check of later imports.
 */
import type { Experience, ScoreScale } from '../types';
import type { MemoryEntry } from '../records';
import { oriented, scoreTableFromSet } from './effects';
import { verifyPick } from './picks';
import { applies } from './facets';
import { dot } from './themes';
import type { Effect, Facet, SnapshotPick, Verdict } from './types';
import { MIN_VERIFY_N, verifyEntries, type VerifiableEntry, type VerificationSummary } from './verify';

/** Unseen tasks a retrieval rule takes for an entry without a facet. */
export const RETRIEVAL_N = 30;

export interface CheckInput {
  entries: readonly MemoryEntry[];
  /** Theme facets' centroids live in the snapshot (by facet name). */
  snapshot?: { facets: readonly { facet: Facet; centroid?: readonly number[] }[] };
  /** Ground-truth experiences of tasks the memory never saw (every tool). */
  unseen: readonly Experience[];
  scale: ScoreScale;
  /** Unit vectors of the unseen prompts (themes, retrieval) and of entry texts (retrieval). */
  promptVector?: (prompt: string) => Float32Array | undefined;
  entryVector?: (entry: MemoryEntry) => Float32Array | undefined;
  on: string;
  at: number;
  minN?: number;
}

export interface EntryCheck {
  id: string;
  toolId: string;
  verdict: Verdict;
  /** The claimed headline delta (oriented: positive = better), null for a model-written entry's direction-only claim. */
  claimed: number | null;
}

export interface CheckReport extends VerificationSummary {
  checks: EntryCheck[];
  /** Tools of the memory the unseen data does not score, or scores with no other tool, and why. */
  untestedTools: { toolId: string; why: string }[];
}

/** The headline claim of a stored effect: its log-odds contrast on pass/fail data, else deltaVsOthers with ≥ 2 tools, else deltaOwn. */
export function claimOf(effect: Effect): { measure: 'vsOthers' | 'own' | 'latent'; delta: number } {
  if (effect.latent) return { measure: 'latent', delta: effect.latent.delta };
  return effect.deltaVsOthers === null ? { measure: 'own', delta: effect.deltaOwn } : { measure: 'vsOthers', delta: effect.deltaVsOthers };
}

export function checkMemory(input: CheckInput): CheckReport {
  const table = scoreTableFromSet({ scale: input.scale, examples: input.unseen });
  const tasks = new Map<string, Experience>();
  for (const e of input.unseen) if (!tasks.has(e.taskId)) tasks.set(e.taskId, e);
  const centroid = new Map((input.snapshot?.facets ?? []).flatMap((f) => (f.centroid ? [[f.facet.name, Float32Array.from(f.centroid)] as const] : [])));
  const members = new Map<string, string[]>();
  const verifiable: VerifiableEntry[] = [];
  const claimed = new Map<string, number | null>();
  for (const e of input.entries) {
    // Profiles are descriptions, tentative entries are not claims: neither is checked as one.
    if (e.validTo !== null || e.profile || e.effect?.status === 'tentative') continue;
    if (e.facet && e.effect) {
      const facet = e.facet;
      if (!members.has(facet.name)) {
        const c = centroid.get(facet.name);
        const rule = { facet, ...(c ? { centroid: c } : {}) };
        const ids = [...tasks.values()]
          .filter((t) => {
            const vector = input.promptVector?.(t.prompt);
            return applies(rule, { prompt: t.prompt, categories: t.categories, ...(vector ? { vector } : {}) });
          })
          .map((t) => t.taskId);
        members.set(facet.name, ids);
      }
      const claim = claimOf(e.effect);
      verifiable.push({ id: e.id, toolId: e.toolId, facet, claim });
      claimed.set(e.id, claim.delta);
      continue;
    }
    // A model-written entry: its N most similar unseen tasks, and the direction of its level.
    const v = input.entryVector?.(e);
    const name = `entry:${e.id}`;
    const scoredTasks: { id: string; s: number }[] = [];
    if (v) {
      for (const t of tasks.values()) {
        const p = input.promptVector?.(t.prompt);
        if (p) scoredTasks.push({ id: t.taskId, s: dot(v, p) });
      }
    }
    const ranked = scoredTasks
      .sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1))
      .slice(0, RETRIEVAL_N)
      .map((x) => x.id);
    members.set(name, ranked);
    const facet: Facet = { kind: 'theme', name, rule: { type: 'theme', minSimilarity: -1, keywords: [] } };
    // Direction only: a claimed size of ±1e-9 makes "same sign" the whole test (holds, never weaker).
    verifiable.push({ id: e.id, toolId: e.toolId, facet, claim: { measure: table.toolIds.length > 1 ? 'vsOthers' : 'own', delta: Math.sign(e.value) * 1e-9 } });
    claimed.set(e.id, null);
  }
  const report = verifyEntries(verifiable, table, (f) => members.get(f.name) ?? [], { on: input.on, at: input.at, minN: input.minN ?? MIN_VERIFY_N });
  const checks = verifiable.map((e) => ({ id: e.id, toolId: e.toolId, verdict: report.verdicts.get(e.id)!, claimed: claimed.get(e.id) ?? null }));
  const scored = new Set(table.toolIds);
  const untestedTools: CheckReport['untestedTools'] = [];
  for (const t of [...new Set(input.entries.map((e) => e.toolId))].sort()) {
    if (!scored.has(t)) untestedTools.push({ toolId: t, why: 'the unseen data has no score of this tool' });
    else if (table.toolIds.length === 1)
      untestedTools.push({ toolId: t, why: 'no other tool is scored on the unseen tasks: contrasts between tools cannot be tested' });
  }
  const { verdicts: _verdicts, ...summary } = report;
  void _verdicts;
  return { checks, ...summary, untestedTools };
}

export interface PickCheck {
  verdicts: Verdict[];
  tested: number;
  /** Share of tested picks ahead of the overall best on the unseen tasks (null when none was tested). */
  direction: number | null;
  holds: number;
}

/**
 * Pick claims checked on tasks the memory never saw: on the facet's unseen tasks (its rule; tags as
 * imported), does the pick score above the overall best? One verdict per pick, in order.
 */
export function checkPicks(input: {
  picks: readonly SnapshotPick[];
  facets: readonly { facet: Facet; centroid?: readonly number[] }[];
  unseen: readonly Experience[];
  scale: ScoreScale;
  promptVector?: (prompt: string) => Float32Array | undefined;
  on: string;
  at: number;
  minN?: number;
}): PickCheck {
  const table = scoreTableFromSet({ scale: input.scale, examples: input.unseen });
  const v = oriented(table);
  const byTool = new Map(table.toolIds.map((id, j) => [id, v[j]!]));
  const first = new Map<string, Experience>();
  for (const e of input.unseen) if (!first.has(e.taskId)) first.set(e.taskId, e);
  const verdicts = input.picks.map((k) => {
    const f = input.facets[k.facet];
    if (!f) return { verdict: 'untested' as const, n: 0, delta: null, ci95: null, on: input.on, checkedAt: input.at };
    const rule = { facet: f.facet, ...(f.centroid ? { centroid: Float32Array.from(f.centroid) } : {}) };
    const member = Uint8Array.from(table.taskIds, (id) => {
      const t = first.get(id)!;
      const vector = input.promptVector?.(t.prompt);
      return applies(rule, { prompt: t.prompt, categories: t.categories, ...(vector ? { vector } : {}) }) ? 1 : 0;
    });
    return verifyPick(k, byTool, member, { on: input.on, at: input.at, minN: input.minN ?? MIN_VERIFY_N });
  });
  const tested = verdicts.filter((x) => x.verdict !== 'untested' && x.delta !== null);
  return {
    verdicts,
    tested: tested.length,
    direction: tested.length ? tested.filter((x) => x.delta! > 0).length / tested.length : null,
    holds: tested.filter((x) => x.verdict === 'holds').length,
  };
}
