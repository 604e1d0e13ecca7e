/**
 * An inner self-check of a table's claims (issue #34): how far can this table's flip chances be trusted?
 *
 * A claim is admitted when the chance that a new sample of the same size shows the other sign (its
 * flip chance, claims.ts and ash.ts) is small. That chance comes from a model; where the model is
 * wrong for a table (heavy-tailed scores, facets whose tasks hang together), claims fail more often
 * than their flip chances say, and no threshold that serves every table can see it. So, on the
 * build's TRAINING tasks only: split them into two random halves, run the claim analysis on one half,
 * and check its claims on the other exactly as verify.ts does (sign agreement); both ways, over a few
 * splits. A half is a new sample of the same size as the other half, so a claim admitted there with
 * flip chance f should show the wrong sign on the other half with probability f: the table's
 * calibration ratio is
 *
 *   ratio = (W + a) / (E + a),   W = wrong signs seen,  E = Σ f over the checked claims,
 *
 * with `a` pseudo-events at "the model is right" (few inner claims: the ratio stays near 1). The
 * full build then admits a claim where ratio × f ≤ the default level, i.e. at flip ≤ level / ratio,
 * kept within [FLOOR, CAP]. The ratio is a calibration of f, which does not depend on n, so the half
 * builds' fewer and weaker claims speak for the full build's. Pure and deterministic (the halves come
 * from hetero.ts's fixed seeds).
 */
import { computeEffects, type EffectTable, type ScoreTable, type ToolFacetEffect } from './effects';
import { halfMasks } from './hetero';
import { MIN_VERIFY_N, verifyEntries, type VerifiableEntry } from './verify';
import type { DiscoveredFacet, Effect, FacetKind } from './types';

/** Random splits of the training tasks (each checked both ways: 2 × this many inner builds). */
export const SELF_CHECK_SPLITS = 3;
/** Loosest flip chance an inner build admits, and the loosest level a table can get. */
export const SELF_CHECK_CAP = 0.2;
/** Strictest level a table can get. */
export const SELF_CHECK_FLOOR = 0.02;
/** Fewest checked inner claims of a kind of facet that can move its level (fewer: too few to tell, the default stands). */
export const SELF_CHECK_MIN_RECORDS = 10;
/** A table's level is made stricter only when its inner checks' excess of wrong signs has a chance below this. */
export const SELF_CHECK_ALPHA = 0.05;

/** One inner claim checked on the other half: its flip chance on the half it was made on, and whether the other half showed the other sign. */
export interface InnerRecord {
  flip: number;
  wrong: boolean;
  /** The claim's facet (index into the build's facets). */
  facet: number;
}

/** A claim an inner build admitted: the cell (its effect carries the claimed sign) and its flip chance. */
export interface InnerClaim {
  cell: ToolFacetEffect;
  flip: number;
  /** 'latent': a log-odds claim (pass/fail), checked on that scale. */
  latent: boolean;
}

/** The claim analysis of one half: its effects and the table (and raters' mean) restricted to it; returns what it admits. */
export type InnerAnalysis = (half: ScoreTable, effects: EffectTable, targets: ScoreTable | undefined) => InnerClaim[];

/** The table restricted to the tasks where `mask` is 1. */
export function restrictTable(table: ScoreTable, mask: ArrayLike<number>): ScoreTable {
  const keep: number[] = [];
  for (let t = 0; t < table.taskIds.length; t++) if (mask[t]) keep.push(t);
  return {
    taskIds: keep.map((t) => table.taskIds[t]!),
    toolIds: table.toolIds,
    scores: table.scores.map((row) => Float64Array.from(keep, (t) => row[t]!)),
    scale: table.scale,
  };
}

/** The inner claims of `made`, checked on `other` as verify.ts checks a memory's claims on unseen tasks. */
export function checkOnOther(claims: readonly InnerClaim[], facets: readonly DiscoveredFacet[], other: ScoreTable): InnerRecord[] {
  const inOther = new Set(other.taskIds);
  const entries: VerifiableEntry[] = claims.map((c, i) => ({
    id: String(i),
    toolId: c.cell.toolId,
    facet: facets[c.cell.facet]!.facet,
    claim: { measure: c.latent ? 'latent' : 'vsOthers', delta: c.latent ? c.cell.effect.latent!.delta : c.cell.effect.deltaVsOthers! },
  }));
  const members = new Map(facets.map((d) => [d.facet.name, d.taskIds.filter((id) => inOther.has(id))]));
  const report = verifyEntries(entries, other, (f) => members.get(f.name) ?? [], { on: 'self-check', at: 0, minN: MIN_VERIFY_N });
  return entries.flatMap((e, i) => {
    const v = report.verdicts.get(e.id)!;
    if (v.verdict === 'untested' || v.delta === null) return [];
    return [{ flip: claims[i]!.flip, wrong: Math.sign(v.delta) !== Math.sign(e.claim.delta), facet: claims[i]!.cell.facet }];
  });
}

/**
 * Every inner record of a table: for each of `splits` random halves, the analysis on one half
 * checked on the other, both ways. The check reads `targets` (the raters' mean) where given, like
 * the product's check of unseen tasks. One-tool tables are not checked (no contrast between tools).
 */
export function selfCheckRecords(
  table: ScoreTable,
  targets: ScoreTable | undefined,
  facets: readonly DiscoveredFacet[],
  analyse: InnerAnalysis,
  splits = SELF_CHECK_SPLITS,
): InnerRecord[] {
  if (table.toolIds.length < 2) return [];
  const out: InnerRecord[] = [];
  for (const mask of halfMasks(table.taskIds.length, splits)) {
    const other = Uint8Array.from(mask, (m) => 1 - m);
    for (const [made, check] of [
      [mask, other],
      [other, mask],
    ] as const) {
      const half = restrictTable(table, made);
      const claims = analyse(half, computeEffects(half, facets), targets ? restrictTable(targets, made) : undefined);
      out.push(...checkOnOther(claims, facets, restrictTable(targets ?? table, check)));
    }
  }
  return out;
}

export interface AdmissionLevel {
  /** The table's flip-chance level: a claim is admitted at flip ≤ this. */
  maxFlip: number;
  /** Calibration ratio (wrong signs seen / expected, with the prior), and its evidence. */
  ratio: number;
  /** Chance of at least `wrong` wrong signs if the flip chances were right. */
  p: number;
  checked: number;
  wrong: number;
  expected: number;
}

/** P(N ≥ k) for N ~ Poisson(mean): the chance of seeing at least k wrong signs when `mean` are expected. */
export function poissonAtLeast(k: number, mean: number): number {
  if (k <= 0) return 1;
  let term = Math.exp(-mean);
  let below = term;
  for (let i = 1; i < k; i++) {
    term *= mean / i;
    below += term;
  }
  return Math.max(0, 1 - below);
}

/**
 * The table's admission level from its inner records. The default level stands unless the inner
 * checks show more wrong signs than the flip chances expect beyond chance (P(N ≥ W) < `alpha` for
 * N ~ Poisson(E), the sum of many small Bernoulli chances): then the level is divided by the ratio
 * W / E (never below `floor`). It is never loosened: a table whose inner claims fail less often than
 * expected is checked on halves of its data, a harder check than the unseen tasks a full build meets.
 */
export function admissionLevel(
  records: readonly InnerRecord[],
  base: number,
  opts: { alpha?: number; floor?: number; minRecords?: number } = {},
): AdmissionLevel {
  const wrong = records.filter((r) => r.wrong).length;
  const expected = records.reduce((a, r) => a + r.flip, 0);
  const p = poissonAtLeast(wrong, expected);
  const ratio = expected > 0 ? wrong / expected : 1;
  const enough = records.length >= (opts.minRecords ?? SELF_CHECK_MIN_RECORDS);
  const strict = enough && p < (opts.alpha ?? SELF_CHECK_ALPHA) && ratio > 1;
  const maxFlip = strict ? Math.max(opts.floor ?? SELF_CHECK_FLOOR, base / ratio) : base;
  return { maxFlip, ratio, p, checked: records.length, wrong, expected };
}

const KIND_WORDS: Record<FacetKind, string> = { category: 'dataset tags', cue: 'text cues', theme: 'themes' };

/**
 * The build note (one sentence): the table's level in plain words and why, e.g. "Claim admission (a
 * self-check on halves of the training tasks): claims on text cues made on one half showed the other
 * sign on the other half 12 times in 38 where 5.2 were expected, so they need a chance of at most 5%
 * that a new sample reverses their sign (usual: 12%)."
 */
export function admissionNote(admission: TableAdmission): string {
  const base = admission.base;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const head = 'Claim admission (a self-check on halves of the training tasks): ';
  const strict = admission.kinds.filter((k) => k.level.maxFlip < base - 1e-12);
  if (!strict.length) {
    const wrong = admission.kinds.reduce((a, k) => a + k.level.wrong, 0);
    const checked = admission.kinds.reduce((a, k) => a + k.level.checked, 0);
    const expected = admission.kinds.reduce((a, k) => a + k.level.expected, 0);
    return (
      `${head}claims made on one half showed the other sign on the other half ${wrong} times in ${checked} where ${expected.toFixed(1)} were ` +
      `expected, no more than chance allows, so a claim needs the usual chance of at most ${pct(base)} that a new sample reverses its sign.`
    );
  }
  const parts = strict.map(
    (k) =>
      `claims on ${KIND_WORDS[k.kind]} made on one half showed the other sign on the other half ${k.level.wrong} times in ${k.level.checked} ` +
      `where ${k.level.expected.toFixed(1)} were expected, so they need a chance of at most ${pct(k.level.maxFlip)} that a new sample reverses their sign`,
  );
  return `${head}${parts.join('; ')} (usual: ${pct(base)}).`;
}

/** A table's admission: one level per facet kind (dataset tags, text cues, themes), and per facet the level it gets. */
export interface TableAdmission {
  kinds: { kind: FacetKind; level: AdmissionLevel }[];
  /** The level every kind starts from (the rules' `maxFlip`). */
  base: number;
  /** Per facet (the build's order), its flip-chance level. */
  levels: number[];
}

const KINDS: readonly FacetKind[] = ['category', 'cue', 'theme'];

/**
 * The admission level of every facet kind of a table from its inner records: a table's dataset tags,
 * its generic text cues and its embedding themes are different kinds of evidence (a cue written for
 * image prompts may cut across a text set's structure), so each kind is checked on its own records.
 */
export function tableAdmission(records: readonly InnerRecord[], facets: readonly DiscoveredFacet[], base: number): TableAdmission {
  const kinds = KINDS.filter((kind) => facets.some((d) => d.facet.kind === kind)).map((kind) => ({
    kind,
    level: admissionLevel(
      records.filter((r) => facets[r.facet]!.facet.kind === kind),
      base,
    ),
  }));
  const byKind = new Map(kinds.map((k) => [k.kind, k.level.maxFlip]));
  return { kinds, base, levels: facets.map((d) => byKind.get(d.facet.kind) ?? base) };
}

/** What an inner analysis returns: every cell with a flip chance up to the cap, its effect carrying the claimed sign. */
export function innerClaims(
  effects: EffectTable,
  result: { scale: { kind: 'score' | 'logit' }; flipOf: ReadonlyMap<Effect, number> },
  cap = SELF_CHECK_CAP,
): InnerClaim[] {
  const latent = result.scale.kind === 'logit';
  return effects.effects.flatMap((cell) => {
    const flip = result.flipOf.get(cell.effect);
    return flip !== undefined && flip <= cap ? [{ cell, flip, latent }] : [];
  });
}
