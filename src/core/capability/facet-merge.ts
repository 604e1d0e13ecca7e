/**
 * Facets that select (nearly) the same training tasks are one thing to a reader: the tag
 * "negation" and the cue "negation" gave two entries with identical numbers (issue #25). Of two
 * facets whose task sets have Jaccard similarity ≥ MERGE_JACCARD, the first in priority order is
 * kept — category (a person's label), then cue (a readable rule), then theme — and, within a kind,
 * the one found first. The dropped facet is named in the build report.
 */
import type { DiscoveredFacet, FacetKind } from './types';

export const MERGE_JACCARD = 0.9;
const PRIORITY: Readonly<Record<FacetKind, number>> = { category: 0, cue: 1, theme: 2 };

function jaccard(a: ReadonlySet<string>, b: readonly string[]): number {
  let both = 0;
  for (const id of b) if (a.has(id)) both++;
  const union = a.size + b.length - both;
  return union === 0 ? 1 : both / union;
}

export function mergeSameFacets(facets: readonly DiscoveredFacet[]): { facets: DiscoveredFacet[]; dropped: { dropped: string; kept: string }[] } {
  const order = facets.map((f, i) => ({ f, i })).sort((a, b) => PRIORITY[a.f.facet.kind] - PRIORITY[b.f.facet.kind] || a.i - b.i);
  const kept: { f: DiscoveredFacet; i: number; ids: Set<string> }[] = [];
  const dropped: { dropped: string; kept: string }[] = [];
  for (const { f, i } of order) {
    const twin = kept.find((k) => jaccard(k.ids, f.taskIds) >= MERGE_JACCARD);
    if (twin) dropped.push({ dropped: f.facet.name, kept: twin.f.facet.name });
    else kept.push({ f, i, ids: new Set(f.taskIds) });
  }
  // Back in discovery order: the regression and the matrix keep their columns' order.
  return { facets: kept.sort((a, b) => a.i - b.i).map((k) => k.f), dropped };
}
