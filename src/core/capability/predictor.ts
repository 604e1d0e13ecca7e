/**
 * The `memory` method without a stored memory: a capability memory built from the training split
 * (facets → effects → entries and dataset notes) and the joint facet model of fit.ts, as one
 * `Predictor`. Every prediction carries its contributions in score points:
 *
 *   facet applies, the tool × facet has an entry    → the entry's id and text (a tentative one only
 *                                                    where the fits agree with its sign)
 *   facet applies, the facet is a dataset note      → `dataset:<facet>` (shared difficulty / ease)
 *   facet applies, neither                          → one "other facets" line
 *   facets that do NOT apply                        → one "facets this task lacks" line (the centring:
 *                                                    a task without negation is a bit easier than average)
 * They sum to raw prediction − μ_tool exactly (before clamping to the scale).
 */
import { computeEffects, oriented, type EffectTable, type ScoreTable } from './effects';
import { buildEntries, type CapabilityEntry, type DatasetNote, type EntryRules, type ProfileEntry } from './entries';
import { classifyClaims, type ClaimRules } from './claims';
import type { TableAdmission } from './self-check';
import { mergeSameFacets } from './facet-merge';
import { ABSENT_ID, contributionLabels, contributionLines, ORDER_ID, OTHER_ID, SHARED_ID } from './contributions';
import { facetPoints, fitJoint, type JointModel } from './fit';
import { isotonic } from '../predict/order-guard';
import { buildTable, taskKey } from '../predict/training-table';
import type { ScoreScale } from '../types';
import { toPrediction, type Predictor, type PredictTask, type ScorePrediction, type TrainingSet } from '../predict/types';
import { applies as facetApplies, discoverFacets, facetMembership, type DiscoverOptions, type TrainingFacetTask } from './facets';
import type { Contribution, DiscoveredFacet, FacetKind, FacetTask, LeaderRow, SerializedCapabilityModel } from './types';
import { FacetDetectors, type DetectorOptions, type DetectorSet } from './detectors';
import { learnPlacement, tagsKnown, textMembership } from './free-text';
import { facetBoards, facetLeaderboard, type BoardPrior } from './leaderboard';
import { picksOf, type PickClaim, type PickInput } from './picks';

// The stored shape lives in types.ts (a snapshot names it); re-exported for callers.
export type { SerializedCapabilityModel };

export { ABSENT_ID, ORDER_ID, OTHER_ID, SHARED_ID } from './contributions';

/** Every capability-memory prediction explains itself: `mean` is the tool's training mean, Σ contributions' points = raw prediction − mean. */
export interface MemoryPrediction extends ScorePrediction {
  explanation: { mean: number; contributions: Contribution[] };
}

export interface CapabilityMemoryOptions {
  /** Facets of a training set (default: `discoverFacets` of facets.ts with `discoverOptions`). */
  discover?: (train: TrainingSet, tasks: readonly TrainingFacetTask[]) => DiscoveredFacet[];
  discoverOptions?: DiscoverOptions;
  /** Keep only facets of these kinds (e.g. ['cue', 'theme']: no category tags); default all. */
  kinds?: readonly FacetKind[];
  /** Whether the rule of a facet applies to a task (default: `applies` of facets.ts). */
  applies?: (facet: DiscoveredFacet, task: FacetTask) => boolean;
  rules?: EntryRules;
  /** Which cells are claims (lfsr and evidence thresholds, claims.ts). */
  claims?: ClaimRules;
  lambda?: { beta: number; gamma: number };
  /** Penalty multiplier per facet kind (default 1 each). */
  kindPenalty?: Partial<Record<FacetKind, number>>;
  /** Targets: the mean of all raters (default true) or the rater policy's score only. */
  useAllRaters?: boolean;
  /** Keep each task's predictions in the tools' training-mean order (default true; see predict). */
  orderGuard?: boolean;
  /** Text detectors of the category facets (detectors.ts); false: none (a new prompt is never placed in a tag). */
  detectors?: DetectorOptions | false;
}

export { tagsKnown };

interface TaskRows {
  x: number[];
  points: number[][];
  guard: number[];
  model: JointModel;
}

export class CapabilityMemoryPredictor implements Predictor {
  readonly kind = 'sync' as const;
  readonly id = 'memory';
  readonly needs = { vectors: 'optional' as const };
  private state: { scale: ScoreScale; globalMean: number; toolIndex: Map<string, number> } | null = null;
  facets: DiscoveredFacet[] = [];
  entries: CapabilityEntry[] = [];
  /** One overall entry per tool (every tool has one). */
  profiles: ProfileEntry[] = [];
  /** Facets dropped because another facet selects (nearly) the same training tasks, with the kept one's name. */
  merged: { dropped: string; kept: string }[] = [];
  /** Indices of those facets (no entry, no matrix column). */
  twins: ReadonlySet<number> = new Set();
  /** Twin facet index → the index of the facet it was merged into (its share is credited there). */
  keptOf: ReadonlyMap<number, number> = new Map();
  /** Text detectors of the category facets (null: no category facet, or turned off). */
  detectorSet: DetectorSet | null = null;
  private detectors: FacetDetectors | null = null;
  /** Category facets whose detector cannot place a new prompt (AUC below MIN_DETECTOR_AUC, or none): no entry. */
  undetectable: ReadonlySet<number> = new Set();
  notes: DatasetNote[] = [];
  /** Every tool × facet effect of the last fit (the capability matrix is drawn from it). */
  effects: EffectTable = { effects: [], shared: [] };
  /** The dataset-level note as one text. */
  note = '';
  /** The scale the claims' contrasts were fitted on, and why (claims.ts). */
  contrastScale: { kind: 'score' | 'logit'; why: string } = { kind: 'score', why: '' };
  /** Per facet, the split-half inflation of its claim intervals (claims.ts, hetero.ts). */
  inflation: number[] = [];
  /** The table's claim admission level from the self-check (claims.ts, self-check.ts), or null when off. */
  admission: TableAdmission | null = null;
  /** Every tool's level on all training tasks, and per facet (same order as `facets`). */
  overall: LeaderRow[] = [];
  leaderboards: LeaderRow[][] = [];
  /** Facets whose likely best tool beats the overall best there (picks.ts); `facet` indexes `facets`. */
  picks: PickClaim[] = [];
  /** What the picks were chosen from (benchmarks re-check pick rules on it); null before a fit. */
  pickInput: PickInput | null = null;
  /** What the facet boards were read from (oriented scores, scores, membership, prior): benchmarks re-read their posteriors. */
  boardInput: { v: readonly Float64Array[]; scores: readonly ArrayLike<number>[]; x: readonly ArrayLike<number>[]; prior: BoardPrior } | null = null;
  model: JointModel | null = null;
  /**
   * The same joint fit with each category facet read the way free text reads it: the detector's
   * held-out probability on every training task instead of the tag (issue #34). It predicts tasks
   * whose tags are unknown; null without detectors.
   */
  textModel: JointModel | null = null;
  private labels: { id: string; text: string }[][] = [];
  /** Picks as the order guard reads them (tool indices); from `picks` after a fit, from the file after `fromModel`. */
  private pickRules: { facet: number; tool: number; over: number; probability: number }[] = [];
  /** Tool indices in ascending order of training mean (ties by id). */
  private order: number[] = [];
  private cache: { key: string; rows: TaskRows } | null = null;

  constructor(private readonly opts: CapabilityMemoryOptions = {}) {}

  fit(train: TrainingSet): void {
    const table = buildTable(train, { useAllRaters: this.opts.useAllRaters ?? true });
    this.state = { scale: table.scale, globalMean: table.globalMean, toolIndex: new Map(table.toolIndex) };
    const tasks = table.tasks;
    const found = this.opts.discover ? this.opts.discover(train, tasks) : discoverFacets(tasks, this.opts.discoverOptions).facets;
    const kinds = this.opts.kinds;
    this.facets = kinds ? found.filter((d) => kinds.includes(d.facet.kind)) : found;
    // Twins (facets selecting nearly the same tasks) stay in the regression — dropping them was
    // measured to cost accuracy — but make no entry and no matrix column of their own.
    const merged = mergeSameFacets(this.facets);
    this.merged = merged.dropped;
    const twins = new Set(merged.dropped.map((m) => m.dropped));
    this.twins = new Set(this.facets.flatMap((d, f) => (twins.has(d.facet.name) ? [f] : [])));
    const indexOf = new Map(this.facets.map((d, f) => [d.facet.name, f]));
    this.keptOf = new Map(merged.dropped.map((m) => [indexOf.get(m.dropped)!, indexOf.get(m.kept)!]));
    // Detectors place free text in the category facets; a facet they cannot place makes no claim.
    const placed = learnPlacement(this.facets, this.keptOf, tasks, this.opts.detectors);
    this.detectorSet = placed.set;
    this.detectors = placed.detectors;
    this.undetectable = placed.undetectable;
    const scores: ScoreTable = { taskIds: tasks.map((t) => t.taskId), toolIds: table.tools, scores: table.truth, scale: table.scale };
    // The regression reads the RULES on the training tasks, exactly as predict() does on new ones.
    const applies = this.opts.applies;
    const x = applies ? this.facets.map((d) => Uint8Array.from(tasks, (t) => (applies(d, t) ? 1 : 0))) : facetMembership(this.facets, tasks);
    const fitInput = {
      scale: table.scale,
      tools: table.tools,
      facets: this.facets.map((d) => d.facet),
      target: table.target,
      mu: table.mean,
      penalty: this.facets.map((d) => this.opts.kindPenalty?.[d.facet.kind] ?? 1),
    };
    this.model = fitJoint({ ...fitInput, x, ...(this.opts.lambda ? { lambda: this.opts.lambda } : {}) });
    // The same fit on what free text shows, with the penalties the main fit chose by cross-validation
    // (a second search would cost as much as the fit). It predicts tasks whose tags are unknown.
    this.textModel = placed.heldOut ? fitJoint({ ...fitInput, x: textMembership(this.facets, x, placed.heldOut), lambda: this.model.lambda }) : null;
    const effects = computeEffects(scores, this.facets);
    // One fit behind what a person reads: cells shrunk jointly, a claim only where the predictor's
    // own fit agrees on the sign (claims.ts), so an entry's contribution has the sign its words say.
    const targets: ScoreTable = { ...scores, scores: table.target };
    const fits = this.textModel ? [this.model, this.textModel] : this.model;
    const classified = classifyClaims(scores, this.facets, effects, fits, this.opts.claims, targets, new Set([...this.twins, ...this.undetectable]));
    this.contrastScale = classified.scale;
    this.inflation = classified.inflation;
    this.admission = classified.admission;
    this.effects = effects;
    const prompts = new Map(tasks.map((t) => [t.taskId, t.prompt]));
    const built = buildEntries(
      { table: scores, facets: this.facets, effects, experienceId: (j, t) => table.exampleId[j]![t]!, prompt: (id) => prompts.get(id) },
      this.opts.rules,
    );
    this.entries = built.entries;
    this.profiles = built.profiles;
    this.notes = built.notes;
    this.note = built.note;
    this.cache = null;
    this.order = table.tools.map((_, j) => j).sort((a, b) => table.mean[a]! - table.mean[b]! || a - b);
    this.rankTools(scores, x, targets);
    this.labels = contributionLabels({
      tools: table.tools,
      facets: this.facets,
      keptOf: this.keptOf,
      entries: this.entries,
      notes: this.notes,
      fits: [fits].flat(),
    });
  }

  /**
   * Leaderboards of every facet and of all tasks, and the pick claims (leaderboard.ts, picks.ts). A
   * facet merged into another or whose detector cannot place free text has no pick. The boards show
   * the ground truth (the rater policy); picks are chosen and sized on the claims' targets (every
   * rater's mean where there are several): the figure a pick is checked against on unseen tasks.
   */
  private rankTools(scores: ScoreTable, x: readonly ArrayLike<number>[], targets: ScoreTable): void {
    const v = oriented(scores);
    const all = new Uint8Array(scores.taskIds.length).fill(1);
    this.overall = facetLeaderboard(scores.toolIds, v, scores.scores, all);
    // A facet's board is read together with each tool's standing on all tasks (leaderboard.ts).
    const { boards, prior } = facetBoards(scores.toolIds, v, scores.scores, x);
    this.leaderboards = boards;
    this.boardInput = { v, scores: scores.scores, x, prior };
    const best = this.order.at(-1);
    const eligible = (f: number) => !this.twins.has(f) && !this.undetectable.has(f);
    const made = best === undefined ? null : picksOf(targets, x, best, eligible);
    this.pickInput = made?.input ?? null;
    this.picks = made?.picks ?? [];
    const toolIndex = new Map(scores.toolIds.map((id, j) => [id, j]));
    this.pickRules = made ? made.picks.map((k) => ({ facet: k.facet, tool: toolIndex.get(k.toolId)!, over: made.input.best, probability: k.probability })) : [];
  }

  /**
   * The order the guard keeps on a task: the tools' training-mean order, except that a pick claim
   * whose facet applies puts its pick just above the overall best (most probable pick on top).
   */
  private orderFor(x: readonly number[]): number[] {
    const applying = this.pickRules.filter((k) => x[k.facet]! >= 0.5).sort((a, b) => b.probability - a.probability || a.tool - b.tool);
    if (!applying.length) return this.order;
    const order = [...this.order];
    const moved = new Set<number>();
    for (const k of applying) {
      if (moved.has(k.tool)) continue;
      moved.add(k.tool);
      order.splice(order.indexOf(k.tool), 1);
      order.splice(order.indexOf(k.over) + 1, 0, k.tool);
    }
    return order;
  }

  /** How much each facet applies to a task (as `facetValues`), from the per-task cache predictions share. */
  applying(task: PredictTask): { facets: readonly DiscoveredFacet[]; x: readonly number[]; keptOf: ReadonlyMap<number, number> } {
    return { facets: this.facets, x: this.taskRows(task).x, keptOf: this.keptOf };
  }

  /** The pick claims whose facets apply to a task (most probable first), with the facet's value there. */
  picksFor(task: PredictTask): { facet: number; toolId: string; over: string; probability: number; applies: number }[] {
    if (!this.model) return [];
    const { x } = this.taskRows(task);
    return this.pickRules
      .filter((k) => x[k.facet]! >= 0.5)
      .sort((a, b) => b.probability - a.probability || a.tool - b.tool)
      .map((k) => ({ facet: k.facet, toolId: this.model!.tools[k.tool]!, over: this.model!.tools[k.over]!, probability: k.probability, applies: x[k.facet]! }));
  }

  /**
   * How much each facet applies to a task, in [0, 1]: 1/0 by its rule, except a category facet on a
   * task whose tags are unknown (free text): the probability its detector gives.
   */
  facetValues(task: PredictTask): number[] {
    const applies = this.opts.applies ?? facetApplies;
    const probs = this.detectors && !tagsKnown(task) ? this.detectors.probabilities(task) : null;
    return this.facets.map((d) => {
      const rule = d.facet.rule;
      if (probs && rule.type === 'category') return probs.get(rule.value) ?? 0;
      return applies(d, task) ? 1 : 0;
    });
  }

  /** The fitted model as plain JSON. */
  toModel(): SerializedCapabilityModel {
    if (!this.state || !this.model) throw new Error('memory: toModel before fit');
    return {
      version: 1,
      scale: { ...this.state.scale },
      globalMean: this.state.globalMean,
      model: this.model,
      facets: this.facets.map((d) => ({ facet: d.facet, ...(d.centroid ? { centroid: Array.from(d.centroid) } : {}) })),
      labels: this.labels.map((row) => row.map((l) => [l.id, l.text] as [string, string])),
      order: [...this.order],
      orderGuard: this.opts.orderGuard ?? true,
      ...(this.keptOf.size ? { twins: [...this.keptOf].sort((a, b) => a[0] - b[0]) } : {}),
      ...(this.detectorSet ? { detectors: this.detectorSet } : {}),
      ...(this.textModel ? { textModel: this.textModel } : {}),
      ...(this.picks.length
        ? {
            picks: this.picks.map((k) => ({
              facet: k.facet,
              tool: this.model!.tools.indexOf(k.toolId),
              over: this.model!.tools.indexOf(k.over),
              probability: k.probability,
            })),
          }
        : {}),
    };
  }

  /**
   * A predictor ready to predict from a stored model (no training data needed). `applies` replaces
   * the facet rule test (a server passes one that remembers its answers per task).
   */
  static fromModel(m: SerializedCapabilityModel, opts: Pick<CapabilityMemoryOptions, 'applies'> = {}): CapabilityMemoryPredictor {
    const p = new CapabilityMemoryPredictor({ orderGuard: m.orderGuard, ...opts });
    p.state = { scale: m.scale, globalMean: m.globalMean, toolIndex: new Map(m.model.tools.map((t, j) => [t, j])) };
    p.model = m.model;
    p.facets = m.facets.map((f) => ({ facet: f.facet, taskIds: [], ...(f.centroid ? { centroid: Float32Array.from(f.centroid) } : {}) }));
    p.labels = m.labels.map((row) => row.map(([id, text]) => ({ id, text })));
    p.order = [...m.order];
    p.keptOf = new Map(m.twins ?? []);
    p.detectorSet = m.detectors ?? null;
    p.detectors = m.detectors ? new FacetDetectors(m.detectors) : null;
    p.textModel = m.textModel ?? null;
    p.pickRules = m.picks ?? [];
    return p;
  }

  /**
   * Raw prediction and per-facet points of every tool on one task (cached for the task's other
   * tools). Order guard: the tools' raw predictions are projected (isotonic regression) onto the
   * order of their training means, with a 1e-9-of-range step between pooled tools; the change is
   * its own contribution line. Why: tool-specific facet deviations fitted on a few hundred tasks
   * flip pairs of tools more often wrongly than rightly (docs/evaluation.md: no per-task pairwise
   * signal beat "always the stronger tool"), while they do help each tool's own score level.
   */
  private taskRows(task: PredictTask): TaskRows {
    const key = `${taskKey(task)}\u0000${tagsKnown(task) ? 'tags' : 'text'}`;
    if (this.cache?.key === key) return this.cache.rows;
    const model = this.modelFor(task);
    const x = this.facetValues(task);
    const points = model.tools.map((_, j) => facetPoints(model, j, x));
    const raw = points.map((p, j) => model.mu[j]! + p.reduce((s, v) => s + v, 0));
    const guard = raw.map(() => 0);
    if (this.opts.orderGuard ?? true) {
      const order = this.orderFor(x);
      const fit = isotonic(order.map((j) => raw[j]!));
      const step = 1e-9 * (this.state!.scale.max - this.state!.scale.min);
      order.forEach((j, i) => {
        const ties = fit.slice(0, i).filter((v) => v === fit[i]).length;
        guard[j] = fit[i]! + step * ties - raw[j]!;
      });
    }
    const rows = { x, points, guard, model };
    this.cache = { key, rows };
    return rows;
  }

  /** The fit that predicts this task: the text model for free text when there is one. */
  private modelFor(task: PredictTask): JointModel {
    return this.textModel && this.detectors && !tagsKnown(task) ? this.textModel : this.model!;
  }

  predict(task: PredictTask, toolId: string): MemoryPrediction {
    const table = this.state;
    if (!table || !this.model) throw new Error('memory: predict before fit');
    const j = table.toolIndex.get(toolId);
    if (j === undefined) return { ...toPrediction(table.globalMean, table.scale), explanation: { mean: table.globalMean, contributions: [] } };
    const { x, points: all, guard, model } = this.taskRows(task);
    const points = all[j]!;
    const contributions = contributionLines({ tool: j, points, x, labels: this.labels[j]!, keptOf: this.keptOf, model, guard: guard[j]! });
    const base = model.mu[j]!;
    const raw = base + points.reduce((s, p) => s + p, 0) + guard[j]!;
    const evidence = contributions
      .filter((c) => c.entryId !== OTHER_ID && c.entryId !== ABSENT_ID && c.entryId !== ORDER_ID && c.entryId !== SHARED_ID)
      .map((c) => ({ kind: 'entry' as const, id: c.entryId, similarity: 1 }));
    return { ...toPrediction(raw, table.scale, evidence), explanation: { mean: base, contributions } };
  }
}
