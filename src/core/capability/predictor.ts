/**
 * The `memory` method without a stored memory: a capability memory built from the training split
 * (facets → effects → entries and dataset notes) and the joint facet model of fit.ts, as one
 * `Predictor`. Every prediction carries its contributions in score points:
 *
 *   facet applies, the tool × facet has an entry    → the entry's id and text
 *   facet applies, the facet is a dataset note      → `dataset:<facet>` (shared difficulty / ease)
 *   facet applies, neither                          → one "other facets" line
 *   facets that do NOT apply                        → one "facets this task lacks" line (the centring:
 *                                                    a task without negation is a bit easier than average)
 * They sum to raw prediction − μ_tool exactly (before clamping to the scale).
 */
import { computeEffects, type EffectTable, type ScoreTable } from './effects';
import { buildEntries, type CapabilityEntry, type DatasetNote, type EntryRules, type ProfileEntry } from './entries';
import { classifyClaims, type ClaimRules } from './claims';
import { mergeSameFacets } from './facet-merge';
import { noteSign } from './templates';
import { facetPoints, fitJoint, toolDeviation, type JointModel } from './fit';
import { isotonic } from '../predict/order-guard';
import { buildTable, taskKey } from '../predict/training-table';
import type { ScoreScale } from '../types';
import { toPrediction, type Predictor, type PredictTask, type ScorePrediction, type TrainingSet } from '../predict/types';
import { applies as facetApplies, discoverFacets, facetMembership, type DiscoverOptions, type TrainingFacetTask } from './facets';
import type { Contribution, DiscoveredFacet, FacetKind, FacetTask, SerializedCapabilityModel } from './types';

// The stored shape lives in types.ts (a snapshot names it); re-exported for callers.
export type { SerializedCapabilityModel };

export const OTHER_ID = 'other';
export const ABSENT_ID = 'absent';
export const ORDER_ID = 'order';
export const SHARED_ID = 'shared';

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
  notes: DatasetNote[] = [];
  /** Every tool × facet effect of the last fit (the capability matrix is drawn from it). */
  effects: EffectTable = { effects: [], shared: [] };
  /** The dataset-level note as one text. */
  note = '';
  model: JointModel | null = null;
  private labels: { id: string; text: string }[][] = [];
  /** Tool indices in ascending order of training mean (ties by id). */
  private order: number[] = [];
  private cache: { key: string; rows: { x: number[]; points: number[][]; guard: number[] } } | null = null;

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
    const scores: ScoreTable = { taskIds: tasks.map((t) => t.taskId), toolIds: table.tools, scores: table.truth, scale: table.scale };
    // The regression reads the RULES on the training tasks, exactly as predict() does on new ones.
    const applies = this.opts.applies;
    const x = applies ? this.facets.map((d) => Uint8Array.from(tasks, (t) => (applies(d, t) ? 1 : 0))) : facetMembership(this.facets, tasks);
    this.model = fitJoint({ scale: table.scale, tools: table.tools, facets: this.facets.map((d) => d.facet), x, target: table.target, mu: table.mean, penalty: this.facets.map((d) => this.opts.kindPenalty?.[d.facet.kind] ?? 1), ...(this.opts.lambda ? { lambda: this.opts.lambda } : {}) });
    const effects = computeEffects(scores, this.facets);
    // One fit behind what a person reads: cells shrunk jointly, a claim only where the predictor's
    // own fit agrees on the sign (claims.ts), so an entry's contribution has the sign its words say.
    const targets: ScoreTable = { ...scores, scores: table.target };
    classifyClaims(scores, this.facets, effects, this.model, this.opts.claims, targets, this.twins);
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
    // Predictions use claims only: a tentative entry's share goes to "other facets".
    const entryOf = new Map(this.entries.filter((e) => e.status === 'claim').map((e) => [`${e.toolId}\u0000${e.facet.name}`, e]));
    const noteOf = new Map(this.notes.map((n) => [n.facet.name, n]));
    this.labels = table.tools.map((tool) =>
      this.facets.map((d) => {
        const e = entryOf.get(`${tool}\u0000${d.facet.name}`);
        if (e) return { id: e.id, text: e.text };
        const n = noteOf.get(d.facet.name);
        return n ? { id: n.id, text: n.text } : { id: OTHER_ID, text: 'other facets of this task' };
      }),
    );
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
  private taskRows(task: PredictTask): { x: number[]; points: number[][]; guard: number[] } {
    const key = taskKey(task);
    if (this.cache?.key === key) return this.cache.rows;
    const model = this.model!;
    const applies = this.opts.applies ?? facetApplies;
    const x = this.facets.map((d) => (applies(d, task) ? 1 : 0));
    const points = model.tools.map((_, j) => facetPoints(model, j, x));
    const raw = points.map((p, j) => model.mu[j]! + p.reduce((s, v) => s + v, 0));
    const guard = raw.map(() => 0);
    if (this.opts.orderGuard ?? true) {
      const order = this.order;
      const fit = isotonic(order.map((j) => raw[j]!));
      const step = 1e-9 * (this.state!.scale.max - this.state!.scale.min);
      order.forEach((j, i) => {
        const ties = fit.slice(0, i).filter((v) => v === fit[i]).length;
        guard[j] = fit[i]! + step * ties - raw[j]!;
      });
    }
    const rows = { x, points, guard };
    this.cache = { key, rows };
    return rows;
  }

  predict(task: PredictTask, toolId: string): MemoryPrediction {
    const table = this.state;
    const model = this.model;
    if (!table || !model) throw new Error('memory: predict before fit');
    const j = table.toolIndex.get(toolId);
    if (j === undefined) return { ...toPrediction(table.globalMean, table.scale), explanation: { mean: table.globalMean, contributions: [] } };
    const { x, points: all, guard } = this.taskRows(task);
    const points = all[j]!;
    const byId = new Map<string, Contribution>();
    const add = (id: string, text: string, p: number) => {
      const c = byId.get(id);
      if (c) c.points += p;
      else byId.set(id, { entryId: id, text, points: p });
    };
    points.forEach((p, f) => {
      const label = x[f] ? this.labels[j]![f]! : { id: ABSENT_ID, text: 'facets this task lacks' };
      if (x[f] && label.id !== OTHER_ID) {
        // The tool's deviation from the average tool (γ_jf − γ̄_f) and what every tool shares on the
        // facet (β_f + γ̄_f) are apart, so each line has the sign its words say: a claim gets the
        // deviation (its shared part is the "shared" line); a dataset note gets the shared part
        // (the tool's own deviation goes to "other facets").
        const own = (x[f]! - model.freq[f]!) * toolDeviation(model, j, f);
        if (label.id.startsWith('dataset:')) {
          // The note's line only where its share has the sign its words state ("hard" lowers the
          // score): fitted jointly, a facet hard on its own can add a little once overlapping
          // facets have taken their share; that goes to "other facets" instead.
          const shared = p - own;
          const sign = noteSign(label.text);
          if (sign === 0 || shared === 0 || Math.sign(shared) === sign) {
            add(label.id, label.text, shared);
            add(OTHER_ID, 'other facets of this task', own);
          } else add(OTHER_ID, 'other facets of this task', p);
        } else {
          add(label.id, label.text, own);
          add(SHARED_ID, "what every tool shares on this task's facets", p - own);
        }
        return;
      }
      add(label.id, label.text, p);
    });
    if (guard[j] !== 0) add(ORDER_ID, "kept in the tools' training order", guard[j]!);
    const contributions = [...byId.values()].sort((a, b) => Math.abs(b.points) - Math.abs(a.points) || (a.entryId < b.entryId ? -1 : 1));
    const base = model.mu[j]!;
    const raw = base + points.reduce((s, p) => s + p, 0) + guard[j]!;
    const evidence = contributions.filter((c) => c.entryId !== OTHER_ID && c.entryId !== ABSENT_ID && c.entryId !== ORDER_ID && c.entryId !== SHARED_ID).map((c) => ({ kind: 'entry' as const, id: c.entryId, similarity: 1 }));
    return { ...toPrediction(raw, table.scale, evidence), explanation: { mean: base, contributions } };
  }
}
