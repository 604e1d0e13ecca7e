/**
 * The capability memory's vocabulary (issue #15): facets (what a claim is about, as a rule that can
 * be evaluated on any new task), effects (what the data says about a tool on a facet, with its
 * uncertainty), verdicts (whether a claim held on tasks the memory never saw) and contributions
 * (what an entry adds to one prediction, in score points).
 *
 * Field names of `Facet`, `Effect` and `Verdict` are part of memory file format v2: keep them.
 * Pure: no DOM, storage or model imports.
 */
import type { ScoreScale } from '../types';
import type { DetectorSet } from './detectors';

export type FacetKind = 'category' | 'cue' | 'theme';

/**
 * The applicability rule of a facet, serialisable as JSON (it travels in memory files):
 * - category: the task carries this category tag (exact match, as imported);
 * - cue: the text detector `cue` of src/core/capability/cues.ts fires on the task's prompt;
 * - theme: the task's prompt vector has cosine ≥ `minSimilarity` to the theme's centroid (the
 *   entry's stored vector), so it applies to free text once embedded.
 */
export type FacetRule = { type: 'category'; value: string } | { type: 'cue'; cue: string } | { type: 'theme'; minSimilarity: number; keywords: string[] };

export interface Facet {
  kind: FacetKind;
  /** Short human name: "negation", "counting", "theme: cats, dogs". */
  name: string;
  rule: FacetRule;
}

/** A task as facets see it: enough to evaluate any rule (free text has no categories). */
export interface FacetTask {
  prompt: string;
  categories?: readonly string[];
  /** Unit-length prompt vector, when embedded (theme rules need it; without it they do not apply). */
  vector?: Float32Array;
}

/**
 * What the data says about one tool on one facet.
 * - deltaOwn: tool's mean on the facet's tasks minus the tool's own overall mean;
 * - deltaVsOthers: (tool − mean of the other tools) on the facet's tasks, paired by task, minus the
 *   same advantage over all tasks; null when the dataset has one tool;
 * - ci95: 95% interval of the headline delta (deltaVsOthers when not null, else deltaOwn);
 * - q: Benjamini–Hochberg q-value of the headline delta across all facets × tools tested.
 */
export interface Effect {
  n: number;
  deltaOwn: number;
  deltaVsOthers: number | null;
  ci95: [number, number];
  q: number;
  /** 95% interval of deltaOwn (ci95 is the headline's). */
  ci95Own?: [number, number];
  /** The tool's mean on the facet's tasks, and its overall mean (for the entry's text). */
  mean?: number;
  toolMean?: number;
  /** 1 = best of `of` tools on the facet's tasks by mean score (highest on higher-better scales, lowest on lower-better). */
  rank?: number;
  of?: number;
  /** Two-sided p of the headline delta (Welch t-test of the facet's tasks vs the rest). */
  p?: number;
  /** p and BH q of deltaOwn (its own family: all tested tool × facet own deltas). */
  pOwn?: number;
  qOwn?: number;
  /** Facet tasks the tool has a score on (n counts the headline's tasks: paired ones for deltaVsOthers). */
  nOwn?: number;
  /** Mean of the other tools on the facet's paired tasks (scale units): the absolute standing. */
  othersMean?: number;
  /** The tool's usual lead over the other tools: its mean advantage on all paired tasks (oriented; issue #34). */
  usual?: number;
  /**
   * Shrunk cells (claims.ts): the headline delta and ci95 above are the posterior mean and 95%
   * credible interval; `lfsr` the local false sign rate; `raw` the unshrunk estimate and its
   * t-interval, kept for audit; `status` whether the cell is a claim, tentative or neither.
   */
  lfsr?: number;
  raw?: { delta: number; ci95: [number, number] };
  status?: ClaimStatus;
  /**
   * Pass/fail data (issue #34): the claim on the logit scale (latent.ts), its posterior mean and 95%
   * credible interval; `deltaVsOthers` and `ci95` then show it as points on the scale.
   */
  latent?: { delta: number; ci95: [number, number] };
}

/** claim: stated as a fact (lfsr ≤ the setting); tentative: stored and shown apart, never a claim. */
export type ClaimStatus = 'claim' | 'tentative' | 'none';

/**
 * The overall entry every tool gets (issue #25): its mean, its rank among the tools with a 95%
 * bootstrap interval over tasks, and the share of tasks where it scores best (ties shared).
 */
export interface ToolProfile {
  n: number;
  mean: number;
  rank: number;
  rankCi95: [number, number];
  of: number;
  /** Share of the tool's tasks scored by ≥ 2 tools where it scores best (a k-way tie counts 1/k). */
  bestShare: number;
  /** Mean advantage over the other tools on paired tasks (oriented: positive = better). */
  advantage: number;
}

/**
 * On unseen tasks: holds (the 95% interval lies on the claimed side of 0), inconclusive (it spans 0),
 * contradicted (it lies on the other side), untested (too few tasks). `weaker` is read from files
 * written before issue #25 only (same sign, smaller than claimed); it is never produced now.
 */
export type VerdictKind = 'holds' | 'inconclusive' | 'contradicted' | 'untested';
export type StoredVerdictKind = VerdictKind | 'weaker';
/** Verdict counts as stored (files before issue #25 have `weaker` and no `inconclusive`). */
export type VerdictCounts = { holds: number; contradicted: number; untested: number; inconclusive?: number; weaker?: number };

export interface Verdict {
  /** Never 'weaker' in a new check; files written before issue #25 may carry it. */
  verdict: StoredVerdictKind;
  /** Tasks of the unseen data the rule applied to (for this tool). */
  n: number;
  /** The headline delta recomputed on the unseen data (null when untested with n = 0). */
  delta: number | null;
  ci95: [number, number] | null;
  /** Where it was checked: 'test-split' | 'later-imports' | a free label. */
  on: string;
  checkedAt: number;
}

/** One entry's share of one prediction. */
export interface Contribution {
  /** Memory entry id, or `dataset:<facet>` for shared difficulty (the dataset-level note). */
  entryId: string;
  text: string;
  /** Score points added to the tool's mean (negative lowers the prediction). */
  points: number;
  /**
   * How much the entry's facet applies to the task, in [0, 1]: 1 for a rule that holds (a known tag,
   * a cue, a theme), the detector's probability for a tag read from free text (issue #34).
   */
  probability?: number;
}

/** A facet found in a training set, with what its rule needs beyond itself. */
export interface DiscoveredFacet {
  facet: Facet;
  /** Theme facets: the unit centroid of their members' prompt vectors. */
  centroid?: Float32Array;
  /** Training task ids the rule applies to (for evidence and effects). */
  taskIds: string[];
  /**
   * Cue facets: the trigger texts found most often in the facet's tasks (lower-cased, most frequent
   * first, ≤ 3), so an entry shows words its tasks really contain.
   */
  triggers?: string[];
  /** A typical member (closest to the members' mean direction, else of median length): the example to quote. */
  typicalTaskId?: string;
  /** Theme facets: mean member–centroid cosine (the coherence the theme was kept for). */
  coherence?: number;
  /**
   * The typical member's prompt without the text every training prompt starts with (a judge
   * template, "###Task Description: …"), whitespace collapsed: what an entry quotes.
   */
  example?: string;
}

export interface FacetDiscovery {
  facets: DiscoveredFacet[];
  /** Plain-language notes for the build report ("category column capped: 40 of 3,120 values kept"). */
  notes: string[];
  /** Category values and cues found on fewer than `minTasks` training tasks: no facet, so no entry. */
  belowMinN?: number;
  minTasks?: number;
}

/** One tested tool × facet cell of the capability matrix. */
export interface CapabilityCell {
  toolId: string;
  /** Index into CapabilitySnapshot.facets. */
  facet: number;
  effect: Effect;
  /** The entry written for this cell, if any (null: tested, no clear effect). */
  entryId: string | null;
}

/** Difficulty (or ease) shared by every tool: one dataset-level note instead of a trait per tool. */
export interface SharedNote {
  text: string;
  /** Facet names hard for every tool, and easy for every tool. */
  hard: string[];
  easy: string[];
  /** One line per facet of the note (predictions point to them as `dataset:<facet>`). */
  items: { id: string; facet: string; kind: 'difficulty' | 'ease'; n: number; delta: number; ci95: [number, number]; q: number; text: string }[];
}

/**
 * What a capability build knows beyond its entries, stored on the Memory row (`memory.capability`)
 * and in memory files v2 (`build.capability`): the facets tested, every tested cell (the matrix),
 * the shared note, and counters for the build report. The fitted predictor travels beside it.
 */
export interface CapabilitySnapshot {
  facets: { facet: Facet; n: number; centroid?: number[] }[];
  tools: string[];
  cells: CapabilityCell[];
  note: SharedNote | null;
  report: {
    facetsTested: number;
    cellsTested: number;
    entries: number;
    /** Facets with fewer than the minimum n training tasks: no entry (counted, not written). */
    belowMinN: number;
    /** Entries stated as claims, and tentative ones (issue #25; absent in older builds). */
    claims?: number;
    tentative?: number;
    notes: string[];
    /** Issue #34: the scale contrasts were fitted on and why; each category detector's held-out AUC. */
    contrastScale?: { kind: 'score' | 'logit'; why: string };
    detectors?: { facet: string; auc: number; useful: boolean }[];
    /** Pick claims checked on the held-out tasks. */
    pickVerification?: { tested: number; direction: number | null; holds: number };
    /** The claims checked on the build's held-out tasks (absent when every task was a training task). */
    verification?: {
      on: string;
      precision: number | null;
      tested: number;
      counts: VerdictCounts;
      direction?: number | null;
      confirmed?: number | null;
      calibration?: number | null;
    };
  };
  /** The fitted memory predictor (predictor.ts `toModel()`), so a stored memory predicts without its training data. */
  model?: SerializedCapabilityModel;
  /** Issue #34: every tool's level on all training tasks, and per facet (`facet` indexes `facets`). */
  overall?: LeaderRow[];
  leaderboards?: { facet: number; rows: LeaderRow[] }[];
  /** Issue #34: where a facet's likely best tool beats the overall best there (`facet` indexes `facets`). */
  picks?: SnapshotPick[];
}

/** One tool on one facet's leaderboard (leaderboard.ts). */
export interface LeaderRow {
  toolId: string;
  n: number;
  /** Its mean on the facet's tasks (scale units). */
  mean: number;
  rank: number;
  rankCi95: [number, number];
  /**
   * Probability of being the best tool on the facet; on a facet's board it reads the facet with each
   * tool's standing on all tasks (leaderboard.ts), while `mean`, `rank` and `rankCi95` are the facet's tasks alone.
   */
  pBest: number;
}

/** A pick claim (picks.ts): a facet's likely best tool where it differs from the overall best. */
export interface PickClaim {
  /** Index of the facet (the caller's facet list). */
  facet: number;
  /** The pick, and the overall best it beats on the facet. */
  toolId: string;
  over: string;
  /** P(the pick does better than `over` on the facet's tasks). */
  probability: number;
  /** Posterior mean lead of the pick over `over` on the facet (oriented score points) and its 95% interval. */
  lead: number;
  ci95: [number, number];
  /**
   * Facet tasks both are scored on, and their means there (scale units), on the claims' targets:
   * every rater's mean where a task has several (the figure the unseen check reads).
   */
  n: number;
  mean: number;
  overMean: number;
  /** The pick's probability of being the best tool on the facet (a leaderboard of the same targets). */
  pBest: number;
  verdict?: Verdict;
}

/** A pick claim as stored, with its text. */
export interface SnapshotPick extends PickClaim {
  text: string;
}

/** Plain numbers only: JSON-serialisable as is (memory files carry it). */
export interface JointModel {
  tools: string[];
  facets: Facet[];
  mu: number[];
  /** p_f: share of training tasks the facet applies to (the centring). */
  freq: number[];
  beta: number[];
  /** gamma[j][f]. */
  gamma: number[][];
  lambda: { beta: number; gamma: number };
  /** Cross-validated MSE per grid point, [λβ, λγ, mse] (empty when λ was given). */
  cv: [number, number, number][];
}

/** Everything predict() needs, as plain JSON (Float32Array centroids → number[]), for memory files (predictor.ts `toModel`). */
export interface SerializedCapabilityModel {
  version: 1;
  scale: ScoreScale;
  globalMean: number;
  model: JointModel;
  facets: { facet: Facet; centroid?: number[] }[];
  /** labels[tool][facet] = [contribution id, text] when the facet applies. */
  labels: [string, string][][];
  order: number[];
  orderGuard: boolean;
  /** [twin facet, the facet it was merged into]: the twin's share is credited to the kept facet's line (issue #34). */
  twins?: [number, number][];
  /** Text detectors of the category facets (detectors.ts), so free text is placed in tags (issue #34). */
  detectors?: DetectorSet;
  /** The joint fit with category facets as the detectors' held-out probabilities: predicts free text (issue #34). */
  textModel?: JointModel;
  /** Pick claims as the order guard reads them: on tasks of `facet`, tool index `tool` goes above `over` (issue #34). */
  picks?: { facet: number; tool: number; over: number; probability: number }[];
}
