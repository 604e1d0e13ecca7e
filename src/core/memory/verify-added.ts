/**
 * Entries a model writes during a build are checked on the build's held-out tasks like the
 * capability analysis's own (issue #17 part 6), by the same function (capability/check.ts): an
 * update of a facet entry keeps its facet and effect (plan.ts `claimOf`) and is tested by the
 * facet's rule; an entry without a facet by the unseen tasks most similar to its text. The verdict
 * is set on the new entries before they are written; nothing is checked without held-out tasks.
 */
import { checkMemory } from '../capability/check';
import type { CapabilitySnapshot } from '../capability/types';
import type { Experience, ScoreScale } from '../types';
import type { MemoryEntry } from '../records';
import type { EntryIndex } from './entry-index';

export async function verifyAdded(
  added: MemoryEntry[],
  ctx: { unseen: readonly Experience[]; scale: ScoreScale; capability: CapabilitySnapshot | null; index: EntryIndex; at: number; signal?: AbortSignal },
): Promise<void> {
  if (added.length === 0 || ctx.unseen.length === 0) return;
  const prompts = [...new Set(ctx.unseen.map((e) => e.prompt))];
  const needsText = added.filter((e) => !e.facet || !e.effect);
  const vectors = await ctx.index.embed([...prompts, ...needsText.map((e) => e.text)], ctx.signal);
  const promptVec = new Map(prompts.map((p, i) => [p, vectors[i]!]));
  const textVec = new Map(needsText.map((e, i) => [e.id, vectors[prompts.length + i]!]));
  const report = checkMemory({
    entries: added,
    ...(ctx.capability ? { snapshot: ctx.capability } : {}),
    unseen: ctx.unseen,
    scale: ctx.scale,
    promptVector: (p) => promptVec.get(p),
    entryVector: (e) => textVec.get(e.id),
    on: 'test-split',
    at: ctx.at,
  });
  const byId = new Map(report.checks.map((c) => [c.id, c.verdict]));
  for (const e of added) {
    const v = byId.get(e.id);
    if (v) e.verdict = v;
  }
}
