/**
 * One capability build (issue #15): facets found on the training split, every tool × facet effect,
 * the entries and the shared note, and the fitted memory predictor — as memory rows plus the
 * snapshot the Memory page draws and memory files carry. The same function serves a build in the
 * app's worker, `toolmem build-memory` and the `memory` evaluation method (through the predictor).
 *
 * All tools are analysed together: contrasts are paired by task, so one tool alone says nothing
 * about what sets it apart. Deterministic for the same experiences and vectors.
 */
import type { Experience, ScoreScale } from '../types';
import type { MemoryEntry } from '../records';
import type { TrainingSet } from '../predict/types';
import { discoverFacets, type DiscoverOptions } from './facets';
import { CapabilityMemoryPredictor, type CapabilityMemoryOptions } from './predictor';
import { MIN_CLAIM_TASKS, type ClaimRules } from './claims';
import type { CapabilityCell, CapabilitySnapshot, FacetDiscovery, FacetKind } from './types';
import { pickText, withSource, type EvidenceSource } from './templates';
import { MIN_DETECTOR_AUC } from './detectors';
import { admissionNote } from './self-check';

/**
 * The build note on the tag detectors: each tag's held-out AUC (how well its text alone tells a task
 * that has the tag from one that has not: 0.5 chance, 1 perfect), and which are too weak to place a
 * new prompt (no claim on them).
 */
function detectorNote(list: readonly { facet: string; auc: number; useful: boolean }[]): string {
  const auc = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');
  const useless = list.filter((d) => !d.useful);
  const shown = [...list].sort((a, b) => b.auc - a.auc).map((d) => `${d.facet} ${auc(d.auc)}`);
  const skipped = useless.map((d) => d.facet).join(', ');
  const below = useless.length ? ` Below ${MIN_DETECTOR_AUC.toFixed(2)}, so no claim (a new prompt could not be placed): ${skipped}.` : '';
  return `Tags read from text alone (held-out AUC, 1 = perfect): ${shown.join(', ')}.${below}`;
}

export interface CapabilityBuildInput {
  scale: ScoreScale;
  /** Ground-truth training experiences per tool (every tool of the build). */
  experiences: ReadonlyMap<string, readonly Experience[]>;
  /** Unit prompt vectors by prompt text (themes need them; without, no theme facet). */
  vectors?: ReadonlyMap<string, Float32Array>;
  memoryId: string;
  /** Prefix of the entry ids (the build run's id: ids never collide with an earlier build's). */
  idPrefix: string;
  /** Time the entries become valid. */
  at: number;
  discover?: DiscoverOptions;
  /** Keep only facets of these kinds (default all). */
  kinds?: readonly FacetKind[];
  /** Which cells are claims (claims.ts: lfsr and evidence thresholds). */
  claims?: ClaimRules;
  /** The scores are derived (pairwise judgements): every entry's text says so; the analysis is the same. */
  source?: EvidenceSource;
}

export interface CapabilityBuild {
  entries: MemoryEntry[];
  snapshot: CapabilitySnapshot;
  predictor: CapabilityMemoryPredictor;
}

/** The experiences as a training set (ids kept: entries point to experiences by id). */
export function trainingSetOf(
  scale: ScoreScale,
  experiences: ReadonlyMap<string, readonly Experience[]>,
  vectors?: ReadonlyMap<string, Float32Array>,
): TrainingSet {
  const examples = [...experiences.values()].flat().map((e) => {
    const vector = vectors?.get(e.prompt);
    return { id: e.id, taskId: e.taskId, prompt: e.prompt, toolId: e.toolId, score: e.score, categories: e.categories, ...(vector ? { vector } : {}) };
  });
  return { scale, examples };
}

const trainingTasks = (set: TrainingSet) => new Set(set.examples.map((e) => e.taskId)).size;

export function buildCapability(input: CapabilityBuildInput): CapabilityBuild {
  const set = trainingSetOf(input.scale, input.experiences, input.vectors);
  let discovery: FacetDiscovery = { facets: [], notes: [] };
  const options: CapabilityMemoryOptions = {
    rules: { idPrefix: input.idPrefix },
    discover: (_train, tasks) => {
      discovery = discoverFacets(tasks, input.discover);
      return discovery.facets;
    },
    ...(input.kinds ? { kinds: input.kinds } : {}),
    ...(input.claims ? { claims: input.claims } : {}),
  };
  const predictor = new CapabilityMemoryPredictor(options);
  predictor.fit(set);
  const entries = memoryRows(predictor, input);
  return { entries, snapshot: snapshotOf(predictor, input, discovery, trainingTasks(set), entries.length), predictor };
}

/** The fitted predictor's profiles and facet entries as memory rows (profiles first). */
function memoryRows(predictor: CapabilityMemoryPredictor, input: CapabilityBuildInput): MemoryEntry[] {
  const row = (e: { id: string; toolId: string; level: MemoryEntry['level']; value: MemoryEntry['value']; text: string; evidence: string[] }) => ({
    id: e.id,
    memoryId: input.memoryId,
    toolId: e.toolId,
    level: e.level,
    value: e.value,
    text: withSource(e.text, input.source),
    evidence: e.evidence,
    support: e.evidence.length,
    origin: 'stats' as const,
    pinned: false,
    validFrom: input.at,
    validTo: null,
    supersededBy: null,
  });
  const profiles: MemoryEntry[] = predictor.profiles.map((p) => ({ ...row(p), profile: p.profile, createdAt: input.at, updatedAt: input.at }));
  const facetEntries: MemoryEntry[] = predictor.entries.map((e) => ({ ...row(e), facet: e.facet, effect: e.effect, createdAt: input.at, updatedAt: input.at }));
  return [...profiles, ...facetEntries];
}

/** What the Memory page draws and memory files carry: facets (matrix columns), cells, the shared note, the report, boards and picks. */
function snapshotOf(
  predictor: CapabilityMemoryPredictor,
  input: CapabilityBuildInput,
  discovery: FacetDiscovery,
  tasks: number,
  entries: number,
): CapabilitySnapshot {
  const facets = predictor.facets;
  const entryOf = new Map(predictor.entries.map((e) => [`${e.toolId}\u0000${e.facet.name}`, e.id]));
  // Matrix columns: every facet but the twins merged into another (facet-merge.ts).
  const column = new Map<number, number>();
  facets.forEach((_, f) => {
    if (!predictor.twins.has(f)) column.set(f, column.size);
  });
  const cells: CapabilityCell[] = predictor.effects.effects
    .filter((c) => c.tested && column.has(c.facet))
    .map((c) => ({
      toolId: c.toolId,
      facet: column.get(c.facet)!,
      effect: c.effect,
      entryId: entryOf.get(`${c.toolId}\u0000${facets[c.facet]!.facet.name}`) ?? null,
    }));
  const passRates = predictor.contrastScale.kind === 'logit';
  const scaleWidth = input.scale.max - input.scale.min;
  const columnOf = (f: number) => column.get(f);
  const hard = predictor.notes.filter((n) => n.kind === 'difficulty').map((n) => n.facet.name);
  const easy = predictor.notes.filter((n) => n.kind === 'ease').map((n) => n.facet.name);
  return {
    facets: facets
      .filter((_, f) => column.has(f))
      .map((d) => ({ facet: d.facet, n: d.taskIds.length, ...(d.centroid ? { centroid: Array.from(d.centroid) } : {}) })),
    tools: [...(predictor.model?.tools ?? [])],
    cells,
    note: predictor.note
      ? {
          text: predictor.note,
          hard,
          easy,
          items: predictor.notes.map((n) => ({ id: n.id, facet: n.facet.name, kind: n.kind, n: n.n, delta: n.delta, ci95: n.ci95, q: n.q, text: n.text })),
        }
      : null,
    report: reportOf(predictor, discovery, { tasks, entries, facetsTested: column.size, cellsTested: cells.length }),
    ...(predictor.model ? { model: predictor.toModel() } : {}),
    overall: predictor.overall,
    leaderboards: predictor.leaderboards.flatMap((rows, f) => (columnOf(f) === undefined ? [] : [{ facet: columnOf(f)!, rows }])),
    picks: predictor.picks.flatMap((k) => {
      const col = columnOf(k.facet);
      if (col === undefined) return [];
      return [{ ...k, facet: col, text: withSource(pickText(k, facets[k.facet]!, { scaleWidth, passRates }), input.source) }];
    }),
  };
}

/** The build report: counts, and its notes in plain words (data size first, then discovery, merges, the scale, detectors). */
function reportOf(
  predictor: CapabilityMemoryPredictor,
  discovery: FacetDiscovery,
  counts: { tasks: number; entries: number; facetsTested: number; cellsTested: number },
): CapabilitySnapshot['report'] {
  const facets = predictor.facets;
  const detectorNotes = (predictor.detectorSet?.detectors ?? []).map((d) => ({
    facet: facets.find((x) => x.facet.rule.type === 'category' && x.facet.rule.value === d.value)?.facet.name ?? d.value,
    auc: d.auc,
    useful: d.auc >= MIN_DETECTOR_AUC,
  }));
  return {
    facetsTested: counts.facetsTested,
    cellsTested: counts.cellsTested,
    entries: counts.entries,
    belowMinN: discovery.belowMinN ?? 0,
    notes: [
      // How much data there is and how much a facet and a claim need, first: plain words for small sets.
      `${counts.tasks.toLocaleString('en-US')} training tasks: a facet is tested when it applies to at ` +
        `least ${(discovery.minTasks ?? 5).toLocaleString('en-US')} of them and not to all; a claim needs ${MIN_CLAIM_TASKS} tasks of the ` +
        `tool inside the facet and ${MIN_CLAIM_TASKS} outside.`,
      ...discovery.notes,
      ...predictor.merged.map(
        (m) => `Facet "${m.dropped}" selects nearly the same tasks as "${m.kept}": merged into it (one claim; a new prompt is placed by either).`,
      ),
      `Contrasts: ${predictor.contrastScale.why}.`,
      ...(predictor.admission ? [admissionNote(predictor.admission)] : []),
      ...(detectorNotes.length ? [detectorNote(detectorNotes)] : []),
    ],
    contrastScale: predictor.contrastScale,
    ...(detectorNotes.length ? { detectors: detectorNotes } : {}),
    claims: predictor.entries.filter((e) => e.status === 'claim').length,
    tentative: predictor.entries.filter((e) => e.status === 'tentative').length,
  };
}
