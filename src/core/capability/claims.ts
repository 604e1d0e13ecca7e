/**
 * Which tool × facet effects are claims (issue #25). The raw contrasts of effects.ts are shrunk
 * jointly (shrink.ts); a cell becomes
 *
 *   claim       lfsr ≤ maxLfsr (default 0.05) and the 95% credible interval excludes 0 (so the
 *               numbers a person reads agree with the claim: at 0.05 the binding rule is
 *               lfsr < 0.025); a new sample of the same size would show the same sign with
 *               probability ≥ 1 − maxFlip (default 0.12); enough evidence on both sides; and the
 *               memory predictor's own fit (fit.ts: the tool's deviation from the average tool,
 *               γ_jf − γ̄_f) and the facet's own shrunk coefficient point the same way — two
 *               models that see the data differently must agree before a person is told
 *               something as a fact; and the adaptive-shrinkage posterior (ash.ts) sure of the
 *               sign too. Or, with `adaptive` (off by default; admit.ts, not with heavy tails):
 *               that adaptive posterior alone passes the lfsr, interval and flip rules, the
 *               evidence and sign agreement hold, and the claim shows its numbers;
 *   tentative   lfsr ≤ maxTentativeLfsr (default 0.2) with enough evidence, and not a claim: kept,
 *               shown apart and labelled, never counted as a claim (a prediction's line names it,
 *               labelled, only where the fits agree with its sign: contributions.ts);
 *   none        everything else (still a cell of the matrix, shrunk).
 *
 * Enough evidence = at least `minTasks` (10) facet tasks the tool has a score on, `minTasks` paired
 * facet tasks for the contrast, and `minTasks` paired tasks outside the facet (a facet on nearly
 * every task has nothing to be compared with). The interval a person reads comes from the actual n.
 *
 * Noise: the model has one noise variance per tool; where a facet's tasks are noisier, the posterior
 * sd is widened by (Welch se of the raw contrast / the model's se of it) when that exceeds 1. With
 * several raters the responses are the raters' mean (less noise; training side only).
 * The number written into the effect is the shrunk one (`deltaVsOthers` / `deltaOwn` with one tool,
 * `ci95` its 95% credible interval, `lfsr`); the raw estimate and its t-interval stay in `raw`.
 */
import type { EffectTable, ScoreTable, ToolFacetEffect } from './effects';
import { advantages, computeEffects, membership, oriented } from './effects';
import { toolDeviations, type JointModel } from './fit';
import { ci95Of, normalCdf, sdOfCi95 } from './gauss';
import { shrinkCells, type ShrinkResult, type ShrunkCell } from './shrink';
import { latentCells, type LatentCell, type LatentResult } from './latent';
import { latentContrast, pointsOf } from './latent-contrast';
import { admitClaims, type Pending } from './admit';
import { facetInflation } from './hetero';
import { innerClaims, selfCheckRecords, tableAdmission, type TableAdmission } from './self-check';
import { chooseScale, type ContrastScale, type ContrastScaleRule } from './contrast-scale';
import { normalScoreTable } from './tails';
import type { ScoreScale } from '../types';
export { contrastScaleOf, MOSTLY_BINARY } from './contrast-scale';
export { withinMeanFlip } from './admit';
import type { DiscoveredFacet, Effect } from './types';

export interface ClaimRules {
  /**
   * The scale contrasts are fitted on: 'score' (score points, shrink.ts), 'logit' (a Rasch-style
   * latent scale, latent.ts), 'normal' (score points, and a claim must also hold on normal scores,
   * tails.ts), or 'auto' (default, contrast-scale.ts): logit for 0–1 scores that are (mostly)
   * pass/fail; 'normal' for interval scores whose per-task residuals have heavy tails (excess
   * kurtosis ≥ 3: WMT MQM 3.1–6.9 on the tuning and reported seeds, GenAI-Bench 0.7–1.6, AlpacaEval
   * 1.6–2.3); else score points. On WMT MQM's tuning seeds 'normal' took direction 0.950 → 0.968
   * (100 → 62 claims, 25 → 22 confirmed); forced on GenAI-Bench it would halve the claims (docs/memory.md).
   */
  contrastScale?: ContrastScaleRule;
  maxLfsr?: number;
  maxTentativeLfsr?: number;
  /** Largest chance that a new sample of the same size shows the other sign (default 0.12). */
  maxFlip?: number;
  /**
   * When set: the claims of one table are also held to an average chance of a flipped sign on a new
   * sample of at most this much (an FDR-style control over the whole tool × facet table, like a
   * q-value over lfsr): cells are admitted from the surest while the running mean stays within it.
   */
  meanFlip?: number;
  minTasks?: number;
  /**
   * When true: widen each facet's intervals by its split-half overdispersion κ_f (hetero.ts: how much
   * more the contrast disagrees between random halves of the training tasks than its standard errors
   * allow). Off by default: on the tuning seeds (101–112) it removed 2 of WMT MQM's 5 wrong-sign
   * claims but also 4 of GenAI-Bench's 62 confirmed ones, left MMLU-Pro's direction where it was
   * (0.969 → 0.968) and made a pass/fail build about 4× slower (docs/memory.md); `claims-bench.ts --hetero` compares.
   */
  heterogeneity?: boolean;
  /**
   * When true: an inner self-check (self-check.ts: claims of one random half of the training tasks
   * checked on the other) divides a facet kind's `maxFlip` by the excess of wrong signs over its flip
   * chances, where that excess is beyond chance. Off by default: tuning seeds WMT MQM 0.950 → 0.967,
   * the rest about unchanged; reported seeds GenAI-Bench 51 → 43 confirmed, WMT 0.833 → 0.813 (docs/memory.md).
   */
  selfCheck?: boolean;
  /**
   * When true: the adaptive-shrinkage posterior alone may admit a claim the normal-prior fit does not
   * (admit.ts; not with heavy tails), the claim then showing that posterior's numbers. Off by default:
   * on the tuning seeds GenAI-Bench's confirmed claims went 106 → 177 in 24 builds at direction 0.969
   * (from 0.992), the other sets unchanged; on the reported seeds 51 → 70 confirmed but direction
   * 0.981 → 0.929 — more claims, less truth (docs/memory.md). `claims-bench.ts --adaptive` compares.
   */
  adaptive?: boolean;
  /**
   * When true: the score-point shrinkage (shrink.ts) and, on pass/fail data, the logit fit (latent.ts
   * `groups`) give each facet kind (dataset tags, text cues, themes) its own prior variance τ²·r_kind,
   * the ratios chosen by marginal likelihood, instead of one τ² for every cell. Off by default: on the
   * tuning seeds GenAI-Bench 101–112 went 106 → 108 confirmed at direction 0.992 → 0.976, WMT MQM
   * 0.968 → 0.983, AlpacaEval 0.913 → 0.909; MMLU-Pro 101–112 (logit: tags ×2.3–3.2, cues ×0.39–0.55,
   * themes ×0.26–1.08) 333 → 330 claims, direction 0.958 both (docs/memory.md). `claims-bench.ts
   * --kind-prior` compares.
   */
  kindPrior?: boolean;
  /** Per facet, its flip-chance level (the self-check sets it; overrides `maxFlip`). */
  facetMaxFlip?: readonly number[];
  /**
   * Whether a claim the normal-prior fit admits must also satisfy the adaptive-shrinkage posterior
   * (admit.ts), on light-tailed score points (pass/fail and heavy tails always keep the check).
   * Default false: on two tuning ranges (GenAI-Bench 84 builds, AlpacaEval 42) the check left
   * direction where it was (0.988 → 0.985, 0.992 → 0.981; 0.894 → 0.895, 0.913 → 0.909) and cost
   * a quarter to two fifths of the claims; on the reported seeds GenAI-Bench went from 51 to 82
   * confirmed (direction 0.981 → 0.966) and AlpacaEval from 7 claims at 1.000 to 15 at 0.867
   * (docs/memory.md). `claims-bench.ts --ash-check` compares.
   */
  ashCheck?: boolean;
}

export const DEFAULT_MAX_LFSR = 0.05;
export const DEFAULT_MAX_TENTATIVE_LFSR = 0.2;
export const MIN_CLAIM_TASKS = 10;
/** Tuned on seeds 101–130 of GenAI-Bench, AlpacaEval, WMT MQM and WMT subsets (bench/drivers/claims-bench.ts). */
export const DEFAULT_MAX_FLIP = 0.12;

/** Per tool, the response the contrasts are made of: advantage over the other tools (own score with one tool), oriented. */
export function responses(table: ScoreTable): Float64Array[] {
  const v = oriented(table);
  return v.length === 1 ? v : advantages(v);
}

export interface ClaimsResult {
  shrink: ShrinkResult | null;
  latent: LatentResult | null;
  /** The scale the contrasts were fitted on, and why (for the build notes). */
  scale: ContrastScale;
  /** Per facet, the split-half inflation κ_f its intervals were widened by (1: none; all 1 when turned off). */
  inflation: number[];
  /** The table's admission level from the self-check (null when it is off). */
  admission: TableAdmission | null;
  /** Flip chance of every cell with enough evidence and lfsr ≤ the tentative level whose two fits agree on the sign (keyed by its effect). */
  flipOf: ReadonlyMap<Effect, number>;
}

/**
 * Shrinks every tested cell of `effects` in place and sets its status. `model` is the memory
 * predictor's joint fit over the same facets (same order), or null (then its agreement is not asked).
 */
/**
 * `model` may be one fit or several (the memory predictor's fit on tags and its fit for free text,
 * issue #34): every one must give the tool's deviation the claim's sign, so its contribution line
 * has the sign its words say whichever fit predicts the task.
 */
export function classifyClaims(
  table: ScoreTable,
  facets: readonly DiscoveredFacet[],
  effects: EffectTable,
  model: JointModel | readonly JointModel[] | null,
  rules: ClaimRules = {},
  targets?: ScoreTable,
  noEntry: ReadonlySet<number> = new Set(),
): ClaimsResult {
  const { scale, normal } = chooseScale(targets ?? table, rules.contrastScale);
  const admission = rules.selfCheck === true ? selfCheck(table, facets, rules, targets, noEntry) : null;
  const used = admission ? { ...rules, facetMaxFlip: admission.levels } : rules;
  // Heavy tails: the standard errors the adaptive prior reads are unsure themselves, so there both
  // posteriors must pass (alone, the adaptive one took WMT MQM's tuning seeds from 0.968 to 0.943).
  const decides = rules.adaptive === true && !normal;
  if (scale.kind === 'score' && !normal)
    return { ...classifyOn(scale, table, facets, effects, model, used, targets, noEntry, { decides, checks: rules.ashCheck === true }), admission };
  // Pass/fail and heavy tails keep the adaptive check whatever `ashCheck` says.
  const ash: AshRole = { decides, checks: true };
  // Pass/fail: the claim lives on the logit scale, and must hold in score points too; heavy tails:
  // it lives in score points and must hold on normal scores too (two fits that read the data
  // differently agree before a person is told something as a fact).
  const points: ClaimsResult['scale'] = { kind: 'score', why: '' };
  let other: EffectTable;
  if (normal) {
    const nTable = normalScoreTable(table);
    other = computeEffects(nTable, facets);
    classifyOn(points, nTable, facets, other, model, used, targets ? normalScoreTable(targets) : undefined, noEntry, ash);
  } else {
    other = { effects: effects.effects.map((c) => ({ ...c, effect: { ...c.effect } })), shared: effects.shared };
    classifyOn(points, table, facets, other, model, used, targets, noEntry, ash);
  }
  const result = classifyOn(scale, table, facets, effects, model, used, targets, noEntry, ash);
  effects.effects.forEach((c, i) => {
    if (c.effect.status === 'claim' && other.effects[i]!.effect.status !== 'claim') c.effect.status = 'tentative';
  });
  return { ...result, admission };
}

/** The table's admission (self-check.ts): the same analysis on random halves of the training tasks, without the predictor's fits (fitted on all of them). */
function selfCheck(table: ScoreTable, facets: readonly DiscoveredFacet[], rules: ClaimRules, targets: ScoreTable | undefined, noEntry: ReadonlySet<number>) {
  const inner: ClaimRules = { ...rules, selfCheck: false };
  const records = selfCheckRecords(table, targets, facets, (half, effects, halfTargets) =>
    innerClaims(effects, classifyClaims(half, facets, effects, null, inner, halfTargets, noEntry)),
  );
  return tableAdmission(records, facets, rules.maxFlip ?? DEFAULT_MAX_FLIP);
}

/** What the adaptive-shrinkage posterior does in an admission (admit.ts): may admit alone (`decides`), must also agree (`checks`). */
interface AshRole {
  decides: boolean;
  checks: boolean;
}

function classifyOn(
  scale: ClaimsResult['scale'],
  table: ScoreTable,
  facets: readonly DiscoveredFacet[],
  effects: EffectTable,
  fits: JointModel | readonly JointModel[] | null,
  rules: ClaimRules,
  targets: ScoreTable | undefined,
  noEntry: ReadonlySet<number>,
  ash: AshRole,
): ClaimsResult {
  const x = membership(table, facets);
  // Several raters: their mean is the less noisy response (training side only); verification
  // still recomputes the contrast on the ground truth of unseen tasks.
  const basis = targets ?? table;
  const y = responses(basis);
  const basisEffects = targets ? computeEffects(targets, facets).effects : effects.effects;
  const latent = scale.kind === 'logit' ? latentCells({ v: oriented(basis), x, ...(rules.kindPrior === true ? { groups: kindGroups(facets) } : {}) }) : null;
  const shrink = latent ? null : shrinkCells({ y, x, ...(rules.kindPrior === true ? { groups: kindGroups(facets) } : {}) });
  const vBasis = latent ? oriented(basis) : null;
  const toolIndex = new Map(table.toolIds.map((id, j) => [id, j]));
  const measured = effects.effects.filter((c) => c.tested && !noEntry.has(c.facet)).map((c) => ({ j: toolIndex.get(c.toolId)!, f: c.facet }));
  const inflation =
    rules.heterogeneity !== true || !measured.length
      ? facets.map(() => 1)
      : facetInflation(vBasis ? { kind: 'logit', v: vBasis } : { kind: 'score', y }, x, measured);
  const maxLfsr = rules.maxLfsr ?? DEFAULT_MAX_LFSR;
  const ctx: CellContext = {
    table,
    x,
    y,
    single: table.toolIds.length === 1,
    models: fits === null ? [] : Array.isArray(fits) ? fits : [fits as JointModel],
    latent,
    shrink,
    vBasis,
    basisCell: new Map(basisEffects.map((c) => [`${c.toolId}\u0000${c.facet}`, c.effect])),
    inflation,
    maxLfsr,
    maxTentative: Math.max(maxLfsr, rules.maxTentativeLfsr ?? DEFAULT_MAX_TENTATIVE_LFSR),
    minTasks: rules.minTasks ?? MIN_CLAIM_TASKS,
    maxFlip: rules.maxFlip ?? DEFAULT_MAX_FLIP,
    facetMaxFlip: rules.facetMaxFlip,
    ashDecides: ash.decides,
  };
  const pending: Pending[] = [];
  for (const cell of effects.effects) {
    const j = toolIndex.get(cell.toolId)!;
    const s = (latent ? latent.cells[j]?.[cell.facet] : shrink!.cells[j]?.[cell.facet]) ?? null;
    if (!cell.tested || !s || noEntry.has(cell.facet)) cell.effect.status = 'none';
    else pending.push(assessCell(ctx, cell, j, s));
  }
  const flipOf = admitClaims(
    pending,
    { maxLfsr, level: (f) => levelOf(ctx, f), ashDecides: ash.decides, ashChecks: ash.checks, write: (e, mean, ci95) => writeShrunk(ctx, e, mean, ci95) },
    rules.meanFlip,
  );
  return { shrink, latent, scale, inflation, admission: null, flipOf };
}

/** Per facet, the index of its kind in the order kinds first appear (shrink.ts `groups`). */
function kindGroups(facets: readonly DiscoveredFacet[]): number[] {
  const seen = new Map<string, number>();
  return facets.map((d) => {
    if (!seen.has(d.facet.kind)) seen.set(d.facet.kind, seen.size);
    return seen.get(d.facet.kind)!;
  });
}

/** What every cell of one classification reads. */
interface CellContext {
  table: ScoreTable;
  x: Uint8Array[];
  /** Responses of the basis (raters' mean where there are several). */
  y: Float64Array[];
  single: boolean;
  models: readonly JointModel[];
  latent: LatentResult | null;
  shrink: ShrinkResult | null;
  /** Oriented basis scores (logit scale only). */
  vBasis: Float64Array[] | null;
  basisCell: ReadonlyMap<string, Effect>;
  inflation: readonly number[];
  maxLfsr: number;
  maxTentative: number;
  minTasks: number;
  maxFlip: number;
  facetMaxFlip: readonly number[] | undefined;
  /** Whether the adaptive-shrinkage posterior decides a claim and gives its numbers (else both posteriors must pass). */
  ashDecides: boolean;
}

const levelOf = (ctx: CellContext, f: number) => ctx.facetMaxFlip?.[f] ?? ctx.maxFlip;

/** One tested cell: its shrunk numbers written into the effect, and what the claim rules read of it. */
function assessCell(ctx: CellContext, cell: ToolFacetEffect, j: number, s: ShrunkCell | LatentCell): Pending {
  const { single } = ctx;
  const e = cell.effect;
  const rawDelta = single ? e.deltaOwn : e.deltaVsOthers!;
  const rawCi = single ? (e.ci95Own ?? e.ci95) : e.ci95;
  e.raw = { delta: rawDelta, ci95: [rawCi[0], rawCi[1]] };
  const b = ctx.basisCell.get(`${cell.toolId}\u0000${cell.facet}`) ?? e;
  const basisCi = single ? (b.ci95Own ?? b.ci95) : b.ci95;
  const { sd, seNew, pairedOut, kappa } = spreadOf(ctx, cell.facet, j, s, basisCi);
  const ci95 = ci95Of(s.mean, sd);
  const lfsr = sd > 0 ? normalCdf(-Math.abs(s.mean) / sd) : s.lfsr;
  writeShrunk(ctx, e, s.mean, ci95);
  e.lfsr = lfsr;
  const enough = (e.nOwn ?? e.n) >= ctx.minTasks && e.n >= ctx.minTasks && pairedOut >= ctx.minTasks;
  const sign = Math.sign(s.mean);
  const devs = single ? [] : toolDeviations(ctx.models, cell.toolId, cell.facet);
  const agrees = sign !== 0 && Math.sign(s.partial) === sign && devs.every((d) => Math.sign(d) === sign);
  // The 95% interval a person reads must exclude 0 too: at the default 0.05 the binding rule is lfsr < 0.025.
  const excludes0 = ci95[0] > 0 || ci95[1] < 0;
  // Would a new sample of the same size show the same sign? Its estimate varies around the truth
  // by the raw standard error, so P(flip) = Φ(−|mean| / √(sd² + se²)). Without this a claim can
  // be sure of a sign (small lfsr) yet too small to show on the next few dozen tasks.
  const flip = Number.isFinite(seNew) ? normalCdf(-Math.abs(s.mean) / Math.sqrt(sd * sd + seNew * seNew)) : 0.5;
  // The raw estimate the adaptive-shrinkage check reads: the unshrunk contrast on the claim's scale.
  const raw = ctx.vBasis ? latentContrast(ctx.vBasis, j, ctx.x[cell.facet]!) : { delta: rawDelta, ci95: basisCi };
  return {
    e,
    sign,
    f: cell.facet,
    candidate: enough && lfsr <= ctx.maxLfsr && excludes0 && agrees && flip <= levelOf(ctx, cell.facet),
    supported: enough && agrees,
    flip,
    tentative: enough && lfsr <= ctx.maxTentative && sign !== 0,
    b: raw.delta,
    s: kappa * sdOfCi95(raw.ci95),
    se: seNew,
  };
}

/** The cell's posterior sd (widened where the facet is noisier than the model; times κ) and a new sample's standard error. */
function spreadOf(ctx: CellContext, f: number, j: number, s: ShrunkCell | LatentCell, basisCi: readonly [number, number]) {
  const { shrink } = ctx;
  // Paired tasks outside the facet: the tool's paired tasks minus the paired facet tasks.
  let pairedIn = 0;
  let pairedOut = 0;
  for (let t = 0; t < ctx.table.taskIds.length; t++) {
    if (Number.isNaN(ctx.y[j]![t]!)) continue;
    if (ctx.x[f]![t]) pairedIn++;
    else pairedOut++;
  }
  // The model assumes one noise variance per tool; where the facet's tasks are noisier than that
  // (heavy tails, a hard subset), the Welch interval of the raw contrast is wider than the model's
  // for the same contrast, and the posterior sd is widened by that ratio (never narrowed).
  const total = pairedIn + pairedOut;
  const seModel = !shrink
    ? 0
    : total > 0 && pairedIn > 0 && pairedOut > 0
      ? Math.sqrt(shrink.sigma2[j]!) * (pairedOut / total) * Math.sqrt(1 / pairedIn + 1 / pairedOut)
      : 0;
  // The latent fit carries its own spread of a new sample (seRaw) and its dispersion; the score fit
  // reads the spread from the raw contrast's Welch interval.
  const seWelch: number = 'seRaw' in s ? s.seRaw : sdOfCi95(basisCi);
  const widen = seModel > 0 && Number.isFinite(seWelch) ? Math.max(1, seWelch / seModel) : 1;
  // Split-half overdispersion (hetero.ts, when turned on) widens the posterior and a new sample's spread alike.
  const kappa = ctx.inflation[f] ?? 1;
  return { sd: s.sd * widen * kappa, seNew: seWelch * kappa, pairedOut, kappa };
}

/** The shrunk contrast and its interval as the effect's headline numbers (pass-rate points on the logit scale). */
function writeShrunk(ctx: CellContext, e: Effect, mean: number, ci95: [number, number]): void {
  if (ctx.latent) {
    // The claim lives on the logit scale; a reader sees it as pass-rate points at the facet's level.
    e.latent = { delta: mean, ci95 };
    const show = (c: number) => latentPoints(c, e, ctx.table.scale);
    e.deltaVsOthers = show(mean);
    e.ci95 = [show(ci95[0]), show(ci95[1])];
    return;
  }
  if (ctx.single) {
    e.deltaOwn = mean;
    e.ci95Own = ci95;
  } else e.deltaVsOthers = mean;
  e.ci95 = ci95;
}

/** A logit-scale change as points on the scale, at the tool's (oriented) mean on the facet. */
function latentPoints(c: number, e: Effect, scale: ScoreScale): number {
  const width = scale.max - scale.min;
  const mean = e.mean ?? (scale.min + scale.max) / 2;
  const pass = scale.direction === 'lower-better' ? (scale.max - mean) / width : (mean - scale.min) / width;
  return pointsOf(c, pass, e.nOwn ?? e.n) * width;
}
