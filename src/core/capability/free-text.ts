/**
 * Placing a new prompt in a build's category facets (issue #34): an agent sends free text, never
 * tags. Detectors for the category facets are learned on the training tasks (detectors.ts); a facet
 * whose detector cannot place free text (held-out AUC below MIN_DETECTOR_AUC, or none) makes no
 * claim; and the free-text fit reads each category facet as its detector's held-out probability on
 * the training tasks, the way it will read a new prompt. Pure.
 */
import { FacetDetectors, learnDetectors, MIN_DETECTOR_AUC, type DetectorOptions, type DetectorSet } from './detectors';
import type { DiscoveredFacet, FacetTask } from './types';

/** Whether a task's category tags are known (imported data); free text has none, and its facets come from the detectors. */
export function tagsKnown(task: FacetTask): boolean {
  return (task.categories?.length ?? 0) > 0;
}

export interface FacetPlacement {
  set: DetectorSet | null;
  detectors: FacetDetectors | null;
  /** Per category value, its detector's calibrated probability on each training task from the fit that did not see it. */
  heldOut: Map<string, Float64Array> | null;
  /** Category facets (not twins) whose detector cannot place a new prompt: no claim on them. */
  undetectable: Set<number>;
}

/** Detectors for the category facets of `facets` (`keptOf`: twins, which borrow their kept facet's), learned on `tasks`; `false`: none. */
export function learnPlacement(
  facets: readonly DiscoveredFacet[],
  keptOf: ReadonlyMap<number, number>,
  tasks: readonly FacetTask[],
  opts: DetectorOptions | false | undefined,
): FacetPlacement {
  const values = facets.flatMap((d) => (d.facet.rule.type === 'category' ? [d.facet.rule.value] : []));
  const learned = values.length && opts !== false ? learnDetectors(tasks, values, opts || {}) : null;
  const set = learned?.set ?? null;
  const detectors = set ? new FacetDetectors(set) : null;
  const undetectable = new Set(
    facets.flatMap((d, f) => {
      const rule = d.facet.rule;
      if (rule.type !== 'category' || keptOf.has(f)) return [];
      const auc = detectors?.detector(rule.value)?.auc;
      return auc !== undefined && auc >= MIN_DETECTOR_AUC ? [] : [f];
    }),
  );
  return { set, detectors, heldOut: learned?.heldOut ?? null, undetectable };
}

/** The free-text fit's membership: a category facet as its detector's held-out probability (0 without a detector), the others as `x`. */
export function textMembership(
  facets: readonly DiscoveredFacet[],
  x: readonly ArrayLike<number>[],
  heldOut: ReadonlyMap<string, Float64Array>,
): ArrayLike<number>[] {
  return facets.map((d, f) => (d.facet.rule.type === 'category' ? (heldOut.get(d.facet.rule.value) ?? new Float64Array(x[f]!.length)) : x[f]!));
}
