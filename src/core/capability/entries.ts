/**
 * Entries: which tool × facet cells become memory entries, at which level, the overall profile of
 * every tool, and which facets become the dataset-level note instead (issues #15, #25).
 *
 * Cells were shrunk and classified by claims.ts: a cell of status `claim` or `tentative` becomes one
 * entry (tentative ones are labelled as such), every other cell none. With ≥ 2 tools the entry's
 * claim is the relative contrast (vs the other tools, paired by task, beyond the tool's usual
 * margin); with one tool it is the tool's own deviation. Level from the shrunk size in units of the
 * tool's own sd of (oriented) scores, d = delta / sd_tool: proficient / weak when |d| ≥ `strongD`
 * (default 0.5), else good / bad.
 * Every tool also gets one profile entry (`<prefix>:<tool>:overall`): its mean, rank among the
 * tools with a bootstrap interval, and the share of tasks where it scores best — so no tool is ever
 * blank. Its level follows its mean advantage over the other tools (proficient / weak only when the
 * rank interval is the first / last place alone).
 * Dataset-level notes: a facet whose shared effect (mean deviation over all tools) is clear (BH q ≤
 * `alpha`, interval excludes 0, |d| ≥ `minD`) and on which EVERY tool deviates from its own mean
 * the same way becomes ONE note, `dataset:<facet name>`, never an entry of each tool.
 * Evidence: the tool's experiences on the facet's tasks. Typical member: the member task whose
 * score for the tool is nearest the tool's facet mean (ties: smaller task id) — for a cue facet,
 * among members whose prompt shows one of the cue's words, for a theme among members whose prompt
 * has one of its name's words. Texts: templates.ts.
 */
import { LEVEL_VALUE, type Level, type ScoreDirection } from '../types';
import type { EffectTable, ScoreTable } from './effects';
import { cueMatches } from './cues';
import { profiles as toolProfiles } from './profile';
import { contains, entryText, profileText, sharedDifficultyNote, sharedEaseNote, standing } from './templates';
import { numberStyle, roundShown } from './number-style';
import type { ClaimStatus, DiscoveredFacet, Effect, Facet, ToolProfile } from './types';

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
  /** The claim verification checks: the headline delta (deltaVsOthers with ≥ 2 tools, else deltaOwn), shrunk. */
  claim: { measure: 'vsOthers' | 'own' | 'latent'; delta: number; ci95: [number, number] };
  status: Exclude<ClaimStatus, 'none'>;
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

/** A tool's overall entry (no facet). */
export interface ProfileEntry {
  id: string;
  toolId: string;
  level: Level;
  value: 2 | 1 | -1 | -2;
  profile: ToolProfile;
  evidence: string[];
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

/**
 * The level of a relative entry names where the tool stands on the facet (issue #34): above or
 * level with the other tools (as the text prints them) is good, and proficient when it is the best
 * there; below them is bad, and weak when it is the worst. The claimed change from its usual margin
 * is the second sentence of the text, so a tool best on a facet is never listed under bad.
 * Without the two means (older effects), the change's sign decides, as before.
 */
export function standingLevel(effect: Effect, change: number, scaleWidth: number, direction: ScoreDirection): Level {
  const stand = standing(effect, numberStyle(scaleWidth, effect.latent !== undefined), direction);
  if (!stand) return change >= 0 ? 'good' : 'bad';
  if (stand.here >= 0) return effect.rank === 1 ? 'proficient' : 'good';
  return effect.rank !== undefined && effect.rank === effect.of ? 'weak' : 'bad';
}

export interface BuiltEntries {
  entries: CapabilityEntry[];
  profiles: ProfileEntry[];
  /** Per facet of the dataset-level note (contributions point here). */
  notes: DatasetNote[];
  /** The dataset-level note as one text ('' when no facet is shared): hardest / easiest first. */
  note: string;
}

export function buildEntries(input: EntryInput, rules: EntryRules = {}): BuiltEntries {
  const prefix = rules.idPrefix ?? 'cap';
  const { table } = input;
  const expId = input.experienceId ?? ((j: number, t: number) => `${table.taskIds[t]}|${table.toolIds[j]}`);
  const sd = table.scores.map((row) => {
    const v = Array.from(row).filter((x) => !Number.isNaN(x));
    const m = v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
    const s = Math.sqrt(v.reduce((a, x) => a + (x - m) ** 2, 0) / Math.max(1, v.length - 1));
    return Math.max(s, 1e-3 * (table.scale.max - table.scale.min));
  });
  const entries = facetEntries(input, { prefix, expId, sd, strongD: rules.strongD ?? 0.5 });
  const profiles = profileEntries(table, input.effects, prefix, expId);
  const { notes, note } = datasetNotes(input, sd, rules);
  return { entries, profiles, notes, note };
}

/** Per tool × facet, the cells classified claim or tentative as entries (level, text, evidence, typical member). */
function facetEntries(
  input: EntryInput,
  ctx: { prefix: string; expId: (j: number, t: number) => string; sd: readonly number[]; strongD: number },
): CapabilityEntry[] {
  const { prefix, expId, sd, strongD } = ctx;
  const { table, facets } = input;
  const scaleWidth = table.scale.max - table.scale.min;
  const toolIndex = new Map(table.toolIds.map((id, j) => [id, j]));
  const taskIndex = new Map(table.taskIds.map((id, t) => [id, t]));
  const entries: CapabilityEntry[] = [];
  for (const { toolId, facet: f, tested, effect } of input.effects.effects) {
    const status = effect.status;
    if (!tested || (status !== 'claim' && status !== 'tentative')) continue;
    const j = toolIndex.get(toolId)!;
    const own = effect.deltaVsOthers === null;
    const delta = own ? effect.deltaOwn : effect.deltaVsOthers!;
    if (delta === 0) continue;
    const kind: EntryKind = own ? 'own' : 'relative';
    const disc = facets[f]!;
    const lv = own ? level(delta / sd[j]!, strongD) : standingLevel(effect, delta, scaleWidth, table.scale.direction);
    const members = disc.taskIds
      .map((id) => taskIndex.get(id))
      .filter((t): t is number => t !== undefined && !Number.isNaN(table.scores[j]![t]!))
      .sort((a, b) => (table.taskIds[a]! < table.taskIds[b]! ? -1 : 1));
    const typical = typicalMember(members, disc, table.scores[j]!, effect.mean ?? NaN, (t) => input.prompt?.(table.taskIds[t]!));
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
      claim: own
        ? { measure: 'own', delta: effect.deltaOwn, ci95: effect.ci95Own ?? effect.ci95 }
        : effect.latent
          ? { measure: 'latent', delta: effect.latent.delta, ci95: effect.latent.ci95 }
          : { measure: 'vsOthers', delta: effect.deltaVsOthers!, ci95: effect.ci95 },
      status,
      evidence: members.map((t) => expId(j, t)),
      evidenceTasks: members.map((t) => table.taskIds[t]!),
      typical: { taskId: typicalTask, score: table.scores[j]![typical]!, ...(prompt !== undefined ? { prompt } : {}) },
    };
    const textKind = `${kind}-${delta > 0 ? 'strength' : 'weakness'}` as const;
    const text = entryText(textKind, disc, effect, toolId, {
      level: lv,
      direction: table.scale.direction,
      scaleWidth,
      tentative: status === 'tentative',
      ...(prompt !== undefined ? { example: prompt } : { showExample: false }),
    });
    entries.push({ ...base, text });
  }
  return entries;
}

/** Every tool's profile entry (its overall standing), in pass rates where the claims live on the logit scale. */
function profileEntries(table: ScoreTable, effects: EffectTable, prefix: string, expId: (j: number, t: number) => string): ProfileEntry[] {
  const scaleWidth = table.scale.max - table.scale.min;
  const computed = toolProfiles(table);
  // Pass/fail data whose claims live on the logit scale speak in pass rates (the profile too).
  const passRates = effects.effects.some((c) => c.effect.latent !== undefined);
  return table.toolIds.map((toolId, j) => {
    const profile = computed[j]!;
    // Its advantage as the text prints it decides good / bad: "0.0 vs the other tools" is not bad.
    const shown = roundShown(profile.advantage, numberStyle(scaleWidth, passRates));
    const lv: Level =
      profile.of >= 2 && profile.rankCi95[1] === 1
        ? 'proficient'
        : profile.of >= 2 && profile.rankCi95[0] === profile.of
          ? 'weak'
          : shown >= 0
            ? 'good'
            : 'bad';
    const evidence: string[] = [];
    for (let t = 0; t < table.taskIds.length; t++) if (!Number.isNaN(table.scores[j]![t]!)) evidence.push(expId(j, t));
    const text = profileText(profile, {
      direction: table.scale.direction,
      scaleWidth,
      scale: `the ${formatScale(table.scale.min)}–${formatScale(table.scale.max)} scale`,
      passRates,
    });
    return { id: `${prefix}:${toolId}:overall`, toolId, level: lv, value: LEVEL_VALUE[lv], profile, evidence, text };
  });
}

/** The dataset-level note: facets every tool finds harder (or easier) than usual, one note per facet and one text. */
function datasetNotes(input: EntryInput, sd: readonly number[], rules: EntryRules): { notes: DatasetNote[]; note: string } {
  const alpha = rules.alpha ?? 0.1;
  const minD = rules.minD ?? 0.2;
  const { table, facets } = input;
  const scaleWidth = table.scale.max - table.scale.min;
  const excludes0 = (c: [number, number]) => c[0] > 0 || c[1] < 0;
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
  const list = (k: DatasetNote['kind']) =>
    notes
      .filter((n) => n.kind === k)
      .sort((a, b) => a.delta - b.delta)
      .map((n) => ({ facet: n.facet, delta: n.delta }));
  const note = [sharedDifficultyNote(list('difficulty'), { scaleWidth }), sharedEaseNote(list('ease').reverse(), { scaleWidth })]
    .filter((x): x is string => x !== null)
    .join(' ');
  return { notes, note };
}

const formatScale = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2)).replace('-', '−');

/**
 * The member quoted as the example: nearest the tool's facet mean (ties: earlier task). For a cue
 * facet, only members whose prompt shows one of the cue's words qualify (a reader checks the claim
 * against the example), when any does.
 */
function typicalMember(
  members: readonly number[],
  disc: DiscoveredFacet,
  scores: ArrayLike<number>,
  mean: number,
  prompt: (t: number) => string | undefined,
): number {
  const rule = disc.facet.rule;
  let pool = members;
  if (rule.type === 'cue') {
    const showing = members.filter((t) => {
      const p = prompt(t);
      return p !== undefined && cueMatches(rule.cue, p).some((w) => w !== 'quoted text');
    });
    if (showing.length) pool = showing;
  } else if (rule.type === 'theme') {
    // A theme's example shows one of its name's words ("theme: man, wearing, boy" never quotes a cat).
    const showing = members.filter((t) => {
      const p = prompt(t);
      return p !== undefined && rule.keywords.some((k) => contains(p, k));
    });
    if (showing.length) pool = showing;
  }
  let best = pool[0]!;
  for (const t of pool) if (Math.abs(scores[t]! - mean) < Math.abs(scores[best]! - mean)) best = t;
  return best;
}
