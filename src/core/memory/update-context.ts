/**
 * The comparison an update prompt carries (prompts/update.ts `UpdateContext`), worked out from the
 * build's own training data and capability snapshot — never from held-out tasks:
 *  - the tool's mean over its training experiences;
 *  - the other tools' training scores on the same task (a shared task id);
 *  - the tool's effects (capability cells) on facets whose rule applies to the example's task,
 *    strongest first. Theme facets need the prompt's vector; without one they are left out.
 */
import { applies } from '../capability/facets';
import type { CapabilitySnapshot } from '../capability/types';
import type { UpdateContext, UpdateEffect } from '../prompts/update';
import { UPDATE_CONTEXT_LIMITS } from '../prompts/update';
import type { Experience } from '../types';

export interface UpdateContextInput {
  experience: Experience;
  /** Training experiences per tool (the build's). */
  experiences: ReadonlyMap<string, readonly Experience[]>;
  capability?: CapabilitySnapshot | null;
  /** Unit vector of the example's prompt (theme facets). */
  vector?: Float32Array;
}

export function updateContext(input: UpdateContextInput): UpdateContext {
  const { experience: e } = input;
  const own = input.experiences.get(e.toolId) ?? [];
  const out: UpdateContext = {};
  if (own.length) out.toolMean = { mean: own.reduce((a, x) => a + x.score, 0) / own.length, n: own.length };
  const others: { toolId: string; score: number }[] = [];
  for (const [toolId, list] of [...input.experiences].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (toolId === e.toolId) continue;
    const same = list.find((x) => x.taskId === e.taskId);
    if (same) others.push({ toolId, score: same.score });
  }
  if (others.length) out.others = others.slice(0, UPDATE_CONTEXT_LIMITS.others);
  const cap = input.capability;
  if (cap) {
    const task = { prompt: e.prompt, categories: e.categories, ...(input.vector ? { vector: input.vector } : {}) };
    const effects: UpdateEffect[] = cap.cells
      .filter(
        (c) =>
          c.toolId === e.toolId &&
          cap.facets[c.facet] &&
          applies({ facet: cap.facets[c.facet]!.facet, ...(cap.facets[c.facet]!.centroid ? { centroid: cap.facets[c.facet]!.centroid! } : {}) }, task),
      )
      .sort((a, b) => Math.abs(b.effect.deltaOwn) - Math.abs(a.effect.deltaOwn) || a.facet - b.facet)
      .slice(0, UPDATE_CONTEXT_LIMITS.effects)
      .map((c) => ({ facet: cap.facets[c.facet]!.facet.name, deltaOwn: c.effect.deltaOwn, deltaVsOthers: c.effect.deltaVsOthers, n: c.effect.n }));
    if (effects.length) out.effects = effects;
  }
  return out;
}
