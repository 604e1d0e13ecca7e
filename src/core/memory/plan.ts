/**
 * Turns validated operations into one atomic change of the memory: the entries to supersede
 * (with their successor, or none when retired) and the new entries. Pure; ids come from the caller
 * so a resumed build produces the same ids as an uninterrupted one.
 *
 * Evidence and support: a rewritten entry keeps the old evidence plus the current experience;
 * a merged entry has the union of its sources' evidence plus the experience; support is the
 * number of distinct evidence experiences. A rewritten entry also keeps what its claim is about
 * (`facet`, `effect` of a capability entry), so a model's refinement stays attached to the rule
 * it refines (`refinedClaim`: not when its level turns against the measured effect), and so does a
 * merge of entries of one facet; the old `verdict` is dropped (it was a check of the old text) and
 * the build checks the new entry on its held-out tasks (verify-added.ts).
 */
import { LEVEL_VALUE, type EntryOrigin, type Level } from '../types';
import type { MemoryEntry } from '../records';
import type { Operation } from './operations';

export interface Superseded {
  id: string;
  supersededBy: string | null;
  reason?: string;
}

export interface UpdatePlan {
  superseded: Superseded[];
  added: MemoryEntry[];
}

export interface NewEntryFields {
  id: string;
  memoryId: string;
  toolId: string;
  level: Level;
  text: string;
  evidence: readonly string[];
  origin: EntryOrigin;
  at: number;
  pinned?: boolean;
  facet?: MemoryEntry['facet'];
  effect?: MemoryEntry['effect'];
}

export function newEntry(f: NewEntryFields): MemoryEntry {
  const evidence = [...new Set(f.evidence)];
  return {
    id: f.id,
    memoryId: f.memoryId,
    toolId: f.toolId,
    level: f.level,
    value: LEVEL_VALUE[f.level],
    text: f.text,
    evidence,
    support: evidence.length,
    origin: f.origin,
    pinned: f.pinned ?? false,
    ...(f.facet ? { facet: f.facet } : {}),
    ...(f.effect ? { effect: f.effect } : {}),
    validFrom: f.at,
    validTo: null,
    supersededBy: null,
    createdAt: f.at,
    updatedAt: f.at,
  };
}

/** The claim an entry is about, for its next version. */
export function claimOf(e: MemoryEntry): Pick<NewEntryFields, 'facet' | 'effect'> {
  return { ...(e.facet ? { facet: e.facet } : {}), ...(e.effect ? { effect: e.effect } : {}) };
}

/**
 * The claim of a refinement at `level`: the old entry's facet and effect while the level points the
 * same way as the measured effect (a refinement); a level turned the other way contradicts the
 * measurement, so only the facet is kept and the entry is checked by its own direction instead.
 */
export function refinedClaim(old: MemoryEntry, level: Level): Pick<NewEntryFields, 'facet' | 'effect'> {
  const claim = claimOf(old);
  if (!claim.effect) return claim;
  const measured = claim.effect.deltaVsOthers ?? claim.effect.deltaOwn;
  if (Math.sign(measured) === Math.sign(LEVEL_VALUE[level]) || measured === 0) return claim;
  return claim.facet ? { facet: claim.facet } : {};
}

export interface PlanContext {
  memoryId: string;
  toolId: string;
  at: number;
  experienceId: string;
  /** Shown entries by alias (the validated operations refer to aliases), and the entries outside
   *  the shown set that a repeated `add` updates (dedup.ts), by the key its update uses. */
  entries: ReadonlyMap<string, MemoryEntry>;
  /** Fresh id for each new entry, called in operation order. */
  newId: () => string;
}

export function planOperations(operations: readonly Operation[], ctx: PlanContext): UpdatePlan {
  const plan: UpdatePlan = { superseded: [], added: [] };
  const entry = (alias: string): MemoryEntry => {
    const e = ctx.entries.get(alias);
    // Validation guarantees the alias exists; reaching this is a programming error.
    if (!e) throw new Error(`planOperations: alias ${alias} was not shown`);
    return e;
  };
  const base = { memoryId: ctx.memoryId, toolId: ctx.toolId, at: ctx.at, origin: 'llm' as const };
  for (const op of operations) {
    switch (op.op) {
      case 'add':
        plan.added.push(newEntry({ ...base, id: ctx.newId(), level: op.level, text: op.text, evidence: [ctx.experienceId] }));
        break;
      case 'update': {
        const old = entry(op.id);
        const id = ctx.newId();
        plan.superseded.push({ id: old.id, supersededBy: id });
        plan.added.push(
          newEntry({
            ...base,
            id,
            level: op.level ?? old.level,
            text: op.text,
            evidence: [...old.evidence, ctx.experienceId],
            ...refinedClaim(old, op.level ?? old.level),
          }),
        );
        break;
      }
      case 'merge': {
        const olds = op.ids.map(entry);
        const id = ctx.newId();
        for (const o of olds) plan.superseded.push({ id: o.id, supersededBy: id });
        // Entries of one facet (one tool × facet claim) merge into an entry of that claim; a merge across facets claims neither.
        const sameClaim = olds[0]?.facet && olds.every((o) => o.facet?.name === olds[0]!.facet!.name);
        plan.added.push(
          newEntry({
            ...base,
            id,
            level: op.level,
            text: op.text,
            evidence: [...olds.flatMap((o) => o.evidence), ctx.experienceId],
            ...(sameClaim ? refinedClaim(olds[0]!, op.level) : {}),
          }),
        );
        break;
      }
      case 'retire':
        plan.superseded.push({ id: entry(op.id).id, supersededBy: null, reason: op.reason || 'retired by the model' });
        break;
    }
  }
  return plan;
}
