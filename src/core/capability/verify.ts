/**
 * Claims checked on unseen tasks (issue #15, part 4). Each entry keeps its facet (the rule) and its
 * claimed headline delta; verification recomputes that delta, with the same statistic
 * (effects.ts), on experiences the memory never saw — the test split, or imports that arrived
 * later — and gives a verdict:
 *
 *   untested      fewer than MIN_VERIFY_N unseen tasks the rule applies to (for this tool, paired
 *                 with another tool when the claim is vsOthers), or the contrast could not be tested
 *   contradicted  the recomputed delta has the other sign, or is exactly 0
 *   weaker        same sign, but the recomputed 95% interval lies entirely short of the claimed
 *                 size (the claim was an overestimate — usual for effects selected for being large)
 *   holds         same sign, and the interval reaches the claimed size
 *
 * Memory precision = (holds + weaker) / (holds + weaker + contradicted): the share of tested
 * entries whose DIRECTION held, which is what an entry asserts (its level and text say better or
 * worse, with the number as an estimate). null when nothing was tested.
 * MIN_VERIFY_N = 15: below that a facet-vs-rest contrast on 1–5 ratings (sd ≈ 1.1) has a 95%
 * interval wider than ±0.55 points, larger than most claimed effects, so a verdict would be noise.
 */
import { computeEffects, type ScoreTable } from './effects';
import type { DiscoveredFacet, Facet, Verdict, VerdictKind } from './types';

export const MIN_VERIFY_N = 15;

/** What verification needs of an entry (CapabilityEntry satisfies it). */
export interface VerifiableEntry {
  id: string;
  toolId: string;
  facet: Facet;
  claim: { measure: 'vsOthers' | 'own'; delta: number };
}

export interface VerifyOptions {
  /** Where: 'test-split' | 'later-imports' | a free label. */
  on: string;
  at: number;
  minN?: number;
}

export interface VerificationReport {
  verdicts: Map<string, Verdict>;
  counts: Record<VerdictKind, number>;
  precision: number | null;
}

/** The verdict of one claim from its recomputed delta and interval (oriented: positive = better). */
export function verdictOf(claimed: number, n: number, delta: number | null, ci95: [number, number] | null, minN = MIN_VERIFY_N): VerdictKind {
  if (n < minN || delta === null || ci95 === null) return 'untested';
  const s = Math.sign(claimed);
  if (s === 0 || Math.sign(delta) !== s) return 'contradicted';
  // The end of the interval in the claim's direction: hi for a positive claim, lo for a negative one.
  const reach = s > 0 ? ci95[1] : -ci95[0];
  return reach < Math.abs(claimed) ? 'weaker' : 'holds';
}

/**
 * Verdict of every entry on `unseen`. `membersOf(facet)` gives the unseen task ids the facet's rule
 * applies to (the caller evaluates the rule: categories, cues or theme similarity). Facets are
 * keyed by name (one rule per name in a memory).
 */
export function verifyEntries(entries: readonly VerifiableEntry[], unseen: ScoreTable, membersOf: (facet: Facet) => readonly string[], opts: VerifyOptions): VerificationReport {
  const minN = opts.minN ?? MIN_VERIFY_N;
  const byName = new Map<string, number>();
  const facets: DiscoveredFacet[] = [];
  for (const e of entries) {
    if (byName.has(e.facet.name)) continue;
    byName.set(e.facet.name, facets.length);
    facets.push({ facet: e.facet, taskIds: [...membersOf(e.facet)] });
  }
  const table = computeEffects(unseen, facets);
  const found = new Map(table.effects.map((x) => [`${x.facet}\u0000${x.toolId}`, x]));
  const verdicts = new Map<string, Verdict>();
  const counts: Record<VerdictKind, number> = { holds: 0, weaker: 0, contradicted: 0, untested: 0 };
  for (const e of entries) {
    const x = found.get(`${byName.get(e.facet.name)}\u0000${e.toolId}`);
    let verdict: Verdict;
    if (!x) {
      verdict = { verdict: 'untested', n: 0, delta: null, ci95: null, on: opts.on, checkedAt: opts.at };
    } else {
      const own = e.claim.measure === 'own' || x.effect.deltaVsOthers === null;
      const n = own ? (x.effect.nOwn ?? x.effect.n) : x.effect.n;
      const delta = own ? x.effect.deltaOwn : x.effect.deltaVsOthers!;
      const ci95 = own ? (x.effect.ci95Own ?? x.effect.ci95) : x.effect.ci95;
      const kind = x.tested ? verdictOf(e.claim.delta, n, delta, ci95, minN) : 'untested';
      verdict = { verdict: kind, n, delta: n === 0 ? null : delta, ci95: n === 0 ? null : ci95, on: opts.on, checkedAt: opts.at };
    }
    verdicts.set(e.id, verdict);
    counts[verdict.verdict]++;
  }
  const tested = counts.holds + counts.weaker + counts.contradicted;
  return { verdicts, counts, precision: tested > 0 ? (counts.holds + counts.weaker) / tested : null };
}
