/**
 * Entries: which tool × facet effects become memory entries, at which level, and which facets
 * become the dataset-level note instead (issue #15, part 3).
 *
 * Sizes are standardised by the tool's own sd of (oriented) scores, d = delta / sd_tool, so the
 * same rule serves a 1–5 rating and a 0–1 win probability. "Clear" = q ≤ `alpha` (BH, default
 * 0.10) AND the 95% interval excludes 0 AND |d| ≥ `minD` (default 0.2).
 *
 * Per tool × facet, at most one entry:
 *  - kind 'own' (the tool's own deviation, "weak at negation"): deltaOwn clear (qOwn) AND the
 *    contrast against the other tools points the same way with p ≤ alpha — otherwise the dip is
 *    (mostly) difficulty every tool shares, which is not a trait of this tool. Level: weak /
 *    proficient when |dOwn| ≥ `strongD` (default 0.5), else bad / good. In a one-tool table there
 *    is no contrast, and a clear deltaOwn suffices.
 *  - kind 'relative' ("holds up better than the others on negation"): deltaVsOthers clear while no
 *    'own' entry was made. Level from |dVsOthers| the same way.
 * Dataset-level notes: a facet whose shared effect (mean deviation over all tools) is clear, and
 * on which EVERY tool deviates from its own mean the same way, becomes ONE note,
 * `dataset:<facet name>`, difficulty when negative and ease when positive — never an entry of
 * each tool (one tool's failure alone is that tool's entry, not a note).
 * Evidence: the tool's experiences on the facet's tasks. Typical member: the member task whose
 * score for the tool is nearest the tool's facet mean (ties: smaller task id); its prompt is the
 * entry's example. Texts: templates.ts (`entryText`, `sharedDifficultyNote` / `sharedEaseNote`).
 */
import { LEVEL_VALUE, type Level } from '../types';
import type { EffectTable, ScoreTable } from './effects';
import { entryText, sharedDifficultyNote, sharedEaseNote } from './templates';
import type { DiscoveredFacet, Effect, Facet } from './types';

export type EntryKind = 'own' | 'relative';

export interface CapabilityEntry {
  /** `<prefix>:<tool>:<facet name>`: stable across builds of the same facets. */
  id: string;
  toolId: string;
  level: Level;
  value: 2 | 1 | -1 | -2;
  kind: EntryKind;
  facet: Facet;
  /** Theme facets: the centroid their rule needs. */
  centroid?: Float32Array;
  effect: Effect;
  /** The claim verification checks: the headline delta (deltaVsOthers with ≥ 2 tools, else deltaOwn). */
  claim: { measure: 'vsOthers' | 'own'; delta: number; ci95: [number, number] };
  evidence: string[];
  evidenceTasks: string[];
  typical: { taskId: string; score: number; prompt?: string };
  text: string;
}

/** One facet of the dataset-level note (contributions point to it by id). */
export interface DatasetNote {
  id: string;
  facet: Facet;
  kind: 'difficulty' | 'ease';
  n: number;
  delta: number;
  ci95: [number, number];
  q: number;
  text: string;
}

export interface EntryRules {
  alpha?: number;
  minD?: number;
  strongD?: number;
  idPrefix?: string;
}

export interface EntryInput {
  table: ScoreTable;
  facets: readonly DiscoveredFacet[];
  effects: EffectTable;
  /** Experience id of (tool index, task index); default `taskId|toolId`. */
  experienceId?: (j: number, t: number) => string;
  /** Prompt of a task id, for the typical member's text. */
  prompt?: (taskId: string) => string | undefined;
}

function level(d: number, strongD: number): Level {
  if (d >= 0) return d >= strongD ? 'proficient' : 'good';
  return -d >= strongD ? 'weak' : 'bad';
}

export interface BuiltEntries {
  entries: CapabilityEntry[];
  /** Per facet of the dataset-level note (contributions point here). */
  notes: DatasetNote[];
  /** The dataset-level note as one text ('' when no facet is shared): hardest / easiest first. */
  note: string;
}

export function buildEntries(input: EntryInput, rules: EntryRules = {}): BuiltEntries {
  const alpha = rules.alpha ?? 0.1;
  const minD = rules.minD ?? 0.2;
  const strongD = rules.strongD ?? 0.5;
  const prefix = rules.idPrefix ?? 'cap';
  const { table, facets } = input;
  const scaleWidth = table.scale.max - table.scale.min;
  const toolIndex = new Map(table.toolIds.map((id, j) => [id, j]));
  const taskIndex = new Map(table.taskIds.map((id, t) => [id, t]));
  const expId = input.experienceId ?? ((j: number, t: number) => `${table.taskIds[t]}|${table.toolIds[j]}`);
  const sd = table.scores.map((row) => {
    const v = Array.from(row).filter((x) => !Number.isNaN(x));
    const m = v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
    const s = Math.sqrt(v.reduce((a, x) => a + (x - m) ** 2, 0) / Math.max(1, v.length - 1));
    return Math.max(s, 1e-3 * (table.scale.max - table.scale.min));
  });
  const excludes0 = (c: [number, number]) => c[0] > 0 || c[1] < 0;
  const entries: CapabilityEntry[] = [];
  for (const { toolId, facet: f, tested, effect } of input.effects.effects) {
    if (!tested) continue;
    const j = toolIndex.get(toolId)!;
    const dOwn = effect.deltaOwn / sd[j]!;
    const ownClear = (effect.qOwn ?? 1) <= alpha && excludes0(effect.ci95Own ?? effect.ci95) && Math.abs(dOwn) >= minD;
    let kind: EntryKind | null = null;
    let d = 0;
    if (effect.deltaVsOthers === null) {
      if (ownClear) {
        kind = 'own';
        d = dOwn;
      }
    } else {
      const dRel = effect.deltaVsOthers / sd[j]!;
      const relClear = effect.q <= alpha && excludes0(effect.ci95) && Math.abs(dRel) >= minD;
      if (ownClear && Math.sign(dRel) === Math.sign(dOwn) && (effect.p ?? 1) <= alpha) {
        kind = 'own';
        d = dOwn;
      } else if (relClear) {
        kind = 'relative';
        d = dRel;
      }
    }
    if (!kind) continue;
    const disc = facets[f]!;
    const lv = level(d, strongD);
    const members = disc.taskIds
      .map((id) => taskIndex.get(id))
      .filter((t): t is number => t !== undefined && !Number.isNaN(table.scores[j]![t]!))
      .sort((a, b) => (table.taskIds[a]! < table.taskIds[b]! ? -1 : 1));
    const mean = effect.mean ?? NaN;
    let typical = members[0]!;
    for (const t of members) if (Math.abs(table.scores[j]![t]! - mean) < Math.abs(table.scores[j]![typical]! - mean)) typical = t;
    const typicalTask = table.taskIds[typical]!;
    const prompt = input.prompt?.(typicalTask);
    const base: Omit<CapabilityEntry, 'text'> = {
      id: `${prefix}:${toolId}:${disc.facet.name}`,
      toolId,
      level: lv,
      value: LEVEL_VALUE[lv],
      kind,
      facet: disc.facet,
      ...(disc.centroid ? { centroid: disc.centroid } : {}),
      effect,
      claim: effect.deltaVsOthers === null ? { measure: 'own', delta: effect.deltaOwn, ci95: effect.ci95Own ?? effect.ci95 } : { measure: 'vsOthers', delta: effect.deltaVsOthers, ci95: effect.ci95 },
      evidence: members.map((t) => expId(j, t)),
      evidenceTasks: members.map((t) => table.taskIds[t]!),
      typical: { taskId: typicalTask, score: table.scores[j]![typical]!, ...(prompt !== undefined ? { prompt } : {}) },
    };
    const textKind = `${kind}-${lv === 'proficient' || lv === 'good' ? 'strength' : 'weakness'}` as const;
    const text = entryText(textKind, disc, effect, toolId, { level: lv, direction: table.scale.direction, scaleWidth, ...(prompt !== undefined ? { example: prompt } : { showExample: false }) });
    entries.push({ ...base, text });
  }
  const pooledSd = sd.reduce((a, b) => a + b, 0) / Math.max(1, sd.length);
  const notes: DatasetNote[] = [];
  for (const s of input.effects.shared) {
    if (!s.tested || s.q > alpha || !excludes0(s.ci95) || Math.abs(s.delta) / pooledSd < minD) continue;
    // Shared means every tool: one tool's failure must not read as "harder for every tool".
    const own = input.effects.effects.filter((e) => e.facet === s.facet && e.effect.nOwn !== undefined && e.effect.nOwn > 0);
    if (own.some((e) => Math.sign(e.effect.deltaOwn) !== Math.sign(s.delta))) continue;
    const facet = facets[s.facet]!.facet;
    const kind: DatasetNote['kind'] = s.delta < 0 ? 'difficulty' : 'ease';
    const item = [{ facet, delta: s.delta }];
    const text = (kind === 'difficulty' ? sharedDifficultyNote(item, { scaleWidth }) : sharedEaseNote(item, { scaleWidth }))!;
    notes.push({ id: `dataset:${facet.name}`, facet, kind, n: s.n, delta: s.delta, ci95: s.ci95, q: s.q, text });
  }
  const list = (k: DatasetNote['kind']) => notes.filter((n) => n.kind === k).sort((a, b) => a.delta - b.delta).map((n) => ({ facet: n.facet, delta: n.delta }));
  const note = [sharedDifficultyNote(list('difficulty'), { scaleWidth }), sharedEaseNote(list('ease').reverse(), { scaleWidth })].filter((x): x is string => x !== null).join(' ');
  return { entries, notes, note };
}
