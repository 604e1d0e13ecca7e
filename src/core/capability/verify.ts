/**
 * Claims checked on unseen tasks (issues #15, #25). Each entry keeps its facet (the rule) and its
 * claimed headline delta; verification recomputes that delta, with the same raw statistic
 * (effects.ts), on experiences the memory never saw — the test split, or imports that arrived
 * later — and gives a verdict from the recomputed 95% interval:
 *
 *   untested      fewer than MIN_VERIFY_N unseen tasks the rule applies to (for this tool, paired
 *                 with another tool when the claim is vsOthers), or the contrast could not be tested
 *   holds         the interval lies on the claimed side of 0
 *   inconclusive  the interval spans 0
 *   contradicted  the interval lies on the other side of 0
 *
 * Summary figures over the tested entries: direction (share whose unseen sign agrees with the claim;
 * also reported as `precision`, its name before issue #25), confirmed (share that holds), and
 * calibration (Σ unseen effect in the claimed direction / Σ |claimed|: 1 = claims the size they have
 * on unseen tasks, below 1 = claims too large).
 * MIN_VERIFY_N = 15: below that a facet-vs-rest contrast on 1–5 ratings (sd ≈ 1.1) has a 95%
 * interval wider than ±0.55 points, larger than most claimed effects, so a verdict would be noise.
 */
import { computeEffects, membership, oriented, type ScoreTable } from './effects';
import { latentContrast } from './latent-contrast';
import type { DiscoveredFacet, Facet, Verdict, VerdictKind } from './types';

export const MIN_VERIFY_N = 15;

/** What verification needs of an entry (CapabilityEntry satisfies it). */
export interface VerifiableEntry {
  id: string;
  toolId: string;
  facet: Facet;
  /** 'latent': the claim is a log-odds contrast (pass/fail data), recomputed on that scale. */
  claim: { measure: 'vsOthers' | 'own' | 'latent'; delta: number };
}

export interface VerifyOptions {
  /** Where: 'test-split' | 'later-imports' | a free label. */
  on: string;
  at: number;
  minN?: number;
}

export interface VerificationSummary {
  counts: Record<VerdictKind, number>;
  tested: number;
  /** Share of tested entries whose unseen sign agrees (null when none was tested). */
  direction: number | null;
  /** Share of tested entries that hold. */
  confirmed: number | null;
  /** Σ unseen delta in the claimed direction / Σ |claimed|, over tested entries with a size. */
  calibration: number | null;
  /** = direction (kept under its earlier name). */
  precision: number | null;
}

export interface VerificationReport extends VerificationSummary {
  verdicts: Map<string, Verdict>;
}

export const emptyCounts = (): Record<VerdictKind, number> => ({ holds: 0, inconclusive: 0, contradicted: 0, untested: 0 });

/** The summary of a list of (claimed, verdict) pairs; a claimed size of null counts for direction only. */
export function summarise(items: readonly { claimed: number | null; verdict: Verdict }[]): VerificationSummary {
  const counts = emptyCounts();
  let agree = 0;
  let along = 0;
  let size = 0;
  for (const { claimed, verdict } of items) {
    counts[verdict.verdict === 'weaker' ? 'inconclusive' : verdict.verdict]++;
    if (verdict.verdict === 'untested' || verdict.delta === null || claimed === null) continue;
    if (Math.sign(verdict.delta) === Math.sign(claimed)) agree++;
    if (Math.abs(claimed) > 1e-6) {
      along += Math.sign(claimed) * verdict.delta;
      size += Math.abs(claimed);
    }
  }
  const tested = counts.holds + counts.inconclusive + counts.contradicted;
  const direction = tested > 0 ? agree / tested : null;
  return { counts, tested, direction, confirmed: tested > 0 ? counts.holds / tested : null, calibration: size > 0 ? along / size : null, precision: direction };
}

/** The verdict of one claim from its recomputed delta and interval (oriented: positive = better). */
export function verdictOf(claimed: number, n: number, delta: number | null, ci95: [number, number] | null, minN = MIN_VERIFY_N): VerdictKind {
  if (n < minN || delta === null || ci95 === null) return 'untested';
  const s = Math.sign(claimed);
  if (s === 0) return 'inconclusive';
  // The interval's ends in the claim's direction: both > 0 holds, both < 0 contradicts.
  const near = s > 0 ? ci95[0] : -ci95[1];
  const far = s > 0 ? ci95[1] : -ci95[0];
  if (near > 0) return 'holds';
  if (far < 0) return 'contradicted';
  return 'inconclusive';
}

/** Verdicts of log-odds claims: the contrast recomputed on the unseen table (latent.ts), one facet at a time. */
function latentChecker(unseen: ScoreTable, facets: readonly DiscoveredFacet[]) {
  const v = oriented(unseen);
  const tool = new Map(unseen.toolIds.map((id, j) => [id, j]));
  const rows = membership(unseen, facets);
  return (e: VerifiableEntry, f: number, o: { on: string; at: number; minN: number }): Verdict => {
    const j = tool.get(e.toolId);
    if (j === undefined || unseen.toolIds.length < 2) return { verdict: 'untested', n: 0, delta: null, ci95: null, on: o.on, checkedAt: o.at };
    const c = latentContrast(v, j, rows[f]!);
    const kind = c.tested ? verdictOf(e.claim.delta, c.n, c.delta, c.ci95, o.minN) : 'untested';
    return { verdict: kind, n: c.n, delta: c.n === 0 || !c.tested ? null : c.delta, ci95: c.n === 0 || !c.tested ? null : c.ci95, on: o.on, checkedAt: o.at };
  };
}

/**
 * Verdict of every entry on `unseen`. `membersOf(facet)` gives the unseen task ids the facet's rule
 * applies to (the caller evaluates the rule: categories, cues or theme similarity). Facets are
 * keyed by name (one rule per name in a memory).
 */
export function verifyEntries(
  entries: readonly VerifiableEntry[],
  unseen: ScoreTable,
  membersOf: (facet: Facet) => readonly string[],
  opts: VerifyOptions,
): VerificationReport {
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
  const latent = latentChecker(unseen, facets);
  for (const e of entries) {
    const x = found.get(`${byName.get(e.facet.name)}\u0000${e.toolId}`);
    let verdict: Verdict;
    if (e.claim.measure === 'latent') {
      verdict = latent(e, byName.get(e.facet.name)!, { on: opts.on, at: opts.at, minN });
    } else if (!x) {
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
  }
  return { verdicts, ...summarise(entries.map((e) => ({ claimed: e.claim.delta, verdict: verdicts.get(e.id)! }))) };
}
