/**
 * Facet discovery: what a capability claim can be about, found in a training set, each as a rule
 * (`applies`) that holds or not on any new task — free text included.
 *
 * - category: every category tag on ≥ minTasks tasks and not on all of them (no contrast); at most
 *   maxCategories, the best-supported (most tasks; ties by name); what was dropped is noted.
 * - cue: every text cue of cues.ts suiting the modality that fires on ≥ minTasks tasks, not all.
 * - theme: coherent embedding groups (themes.ts), only when the tasks carry vectors.
 * minTasks defaults to clamp(round(n / 40), 5, 20), the evidence-cluster rule of src/core/memory.
 * Names are unique: a category named like a cue label becomes "<value> (tagged)", a repeated theme
 * name gets " (2)"; entries are keyed by facet name elsewhere.
 * Deterministic: tasks are sorted by id (code-unit order, not locale) before anything else.
 */
import { CUES, cueById, cueMatches, type CueModality } from './cues';
import { discoverThemes, dot, type ThemeOptions } from './themes';
import type { DiscoveredFacet, Facet, FacetDiscovery, FacetTask } from './types';

export interface TrainingFacetTask extends FacetTask {
  taskId: string;
}

export interface DiscoverOptions {
  /** Fewest training tasks a facet must apply to; default clamp(round(n / 40), 5, 20). */
  minTasks?: number;
  /** Most category facets kept; default 40. */
  maxCategories?: number;
  /** Only cues suiting this modality (plus 'any'); default: every cue. */
  modality?: Exclude<CueModality, 'any'>;
  /** False: no theme facets. */
  themes?: boolean;
  theme?: Omit<ThemeOptions, 'minTasks'>;
}

export const DEFAULT_MAX_CATEGORIES = 40;
const fmtN = (n: number) => n.toLocaleString('en-US');
const byId = (a: TrainingFacetTask, b: TrainingFacetTask) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0);

/** `category:<value>`, `cue:<id>`, `theme:<keywords>`: a key for Maps of facets. */
export function facetKey(facet: Facet): string {
  const r = facet.rule;
  return r.type === 'category' ? `category:${r.value}` : r.type === 'cue' ? `cue:${r.cue}` : `theme:${r.keywords.join(',')}`;
}

/** Whether the facet's rule holds on a task. Themes need the task's vector and the facet's centroid. */
export function applies(facet: DiscoveredFacet | { facet: Facet; centroid?: Float32Array | readonly number[] }, task: FacetTask): boolean {
  const rule = facet.facet.rule;
  if (rule.type === 'category') return task.categories?.includes(rule.value) ?? false;
  if (rule.type === 'cue') return cueById(rule.cue)?.test(task.prompt) ?? false;
  if (!task.vector || !facet.centroid) return false;
  return dot(task.vector, facet.centroid) >= rule.minSimilarity;
}

/** Per facet, 1/0 per task (in the order given): the rules evaluated once, for effect tables. */
export function facetMembership(facets: readonly DiscoveredFacet[], tasks: readonly FacetTask[]): Uint8Array[] {
  const cueCache = new Map<string, Uint8Array>();
  return facets.map((f) => {
    const rule = f.facet.rule;
    if (rule.type === 'cue') {
      const hit = cueCache.get(rule.cue) ?? Uint8Array.from(tasks, (t) => (applies(f, t) ? 1 : 0));
      cueCache.set(rule.cue, hit);
      return hit.slice();
    }
    return Uint8Array.from(tasks, (t) => (applies(f, t) ? 1 : 0));
  });
}

/**
 * The text every prompt starts with, cut back to a whitespace boundary; '' when under 20 characters
 * (a shared "A " or "Write a " is part of the task, not boilerplate) or with fewer than 2 prompts.
 */
export function sharedPrefix(prompts: readonly string[]): string {
  if (prompts.length < 2) return '';
  let end = prompts[0]!.length;
  for (const p of prompts) {
    let i = 0;
    while (i < end && i < p.length && p[i] === prompts[0]![i]) i++;
    end = i;
  }
  if (prompts.some((p) => p.length === end)) return ''; // a whole prompt is not boilerplate
  const cut = prompts[0]!.slice(0, end);
  const atSpace = /\s/.test(prompts[0]![end] ?? '') ? cut : cut.replace(/\S*$/, '');
  return atSpace.length >= 20 ? atSpace : '';
}

/** The quotable text of a prompt: boilerplate prefix dropped, whitespace collapsed. */
export function exampleText(prompt: string, prefix: string): string {
  return (prefix && prompt.startsWith(prefix) ? prompt.slice(prefix.length) : prompt).replace(/\s+/g, ' ').trim();
}

/** The member of median length (words, then id): typical when no vectors say better. */
function medianMember(members: readonly TrainingFacetTask[]): TrainingFacetTask {
  const words = (t: TrainingFacetTask) => t.prompt.split(/\s+/).length;
  const sorted = [...members].sort((a, b) => words(a) - words(b) || byId(a, b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Closest to the members' mean direction when every member has a vector, else of median length. */
function typicalOf(members: readonly TrainingFacetTask[]): string {
  const vs = members.map((t) => t.vector);
  if (members.length === 0) return '';
  if (vs.every((v): v is Float32Array => v !== undefined && v.length > 0)) {
    const centre = new Float64Array(vs[0]!.length);
    for (const v of vs) for (let d = 0; d < centre.length; d++) centre[d] = centre[d]! + v[d]!;
    let best = 0;
    let bestDot = dot(vs[0]!, centre);
    for (let i = 1; i < vs.length; i++) {
      const d = dot(vs[i]!, centre);
      if (d > bestDot) [best, bestDot] = [i, d];
    }
    return members[best]!.taskId;
  }
  return medianMember(members).taskId;
}

function categoryFacets(tasks: readonly TrainingFacetTask[], minTasks: number, max: number, notes: string[], below: { n: number }): DiscoveredFacet[] {
  const byValue = new Map<string, TrainingFacetTask[]>();
  for (const t of tasks) {
    for (const c of new Set(t.categories ?? [])) {
      const list = byValue.get(c);
      if (list) list.push(t);
      else byValue.set(c, [t]);
    }
  }
  if (byValue.size === 0) return [];
  const everywhere = [...byValue].filter(([, m]) => m.length === tasks.length).map(([v]) => v);
  const eligible = [...byValue].filter(([, m]) => m.length >= minTasks && m.length < tasks.length);
  eligible.sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const kept = eligible.slice(0, max);
  const small = byValue.size - eligible.length - everywhere.length;
  if (eligible.length > max) {
    const cut = eligible[max]![1].length;
    notes.push(
      `Categories capped: ${fmtN(max)} of ${fmtN(byValue.size)} values kept, the best-supported (${fmtN(kept[kept.length - 1]![1].length)} tasks or ` +
        `more); ${fmtN(eligible.length - max)} more with ${fmtN(cut)} tasks or fewer dropped.`,
    );
  }
  below.n += small;
  if (small > 0) notes.push(`${fmtN(small)} of ${fmtN(byValue.size)} categories are on fewer than ${fmtN(minTasks)} training tasks: no facet.`);
  if (everywhere.length) notes.push(`On every training task, so no contrast: ${everywhere.sort().join(', ')}.`);
  const cueLabels = new Set(CUES.map((c) => c.label));
  return kept.map(([value, members]) => ({
    facet: { kind: 'category', name: cueLabels.has(value) ? `${value} (tagged)` : value, rule: { type: 'category', value } },
    taskIds: members.map((t) => t.taskId),
    typicalTaskId: typicalOf(members),
  }));
}

function cueFacets(tasks: readonly TrainingFacetTask[], minTasks: number, modality: DiscoverOptions['modality'], below: { n: number }): DiscoveredFacet[] {
  const out: DiscoveredFacet[] = [];
  for (const cue of CUES) {
    if (modality && cue.modality !== 'any' && cue.modality !== modality) continue;
    const members = tasks.filter((t) => cue.test(t.prompt));
    if (members.length > 0 && members.length < minTasks) below.n++;
    if (members.length < minTasks || members.length === tasks.length) continue;
    // Trigger texts by the number of member tasks containing them; ties alphabetical.
    const counts = new Map<string, number>();
    for (const t of members) for (const m of new Set(cueMatches(cue.id, t.prompt))) counts.set(m, (counts.get(m) ?? 0) + 1);
    const triggers = [...counts]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 3)
      .map(([w]) => w);
    // The example should show the most frequent trigger: pick the typical one among its tasks.
    const top = triggers[0];
    const showing = top === undefined ? members : members.filter((t) => cueMatches(cue.id, t.prompt).includes(top));
    out.push({
      facet: { kind: 'cue', name: cue.label, rule: { type: 'cue', cue: cue.id } },
      taskIds: members.map((t) => t.taskId),
      ...(triggers.length ? { triggers } : {}),
      typicalTaskId: typicalOf(showing.length ? showing : members),
    });
  }
  return out;
}

export function discoverFacets(input: readonly TrainingFacetTask[], opts: DiscoverOptions = {}): FacetDiscovery {
  const tasks = [...input].sort(byId);
  const n = tasks.length;
  const minTasks = opts.minTasks ?? Math.min(20, Math.max(5, Math.round(n / 40)));
  const notes: string[] = [];
  const below = { n: 0 };
  const facets = [
    ...categoryFacets(tasks, minTasks, opts.maxCategories ?? DEFAULT_MAX_CATEGORIES, notes, below),
    ...cueFacets(tasks, minTasks, opts.modality, below),
  ];
  const withVectors = tasks.filter((t) => t.vector && t.vector.length > 0).length;
  if (opts.themes !== false && withVectors > 0) {
    const r = discoverThemes(
      tasks.map((t) => t.vector),
      tasks.map((t) => t.prompt),
      { ...opts.theme, minTasks },
    );
    const seen = new Map<string, number>();
    for (const th of r.themes) {
      const base = `theme: ${th.keywords.join(', ')}`;
      const k = (seen.get(base) ?? 0) + 1;
      seen.set(base, k);
      facets.push({
        facet: { kind: 'theme', name: k > 1 ? `${base} (${k})` : base, rule: { type: 'theme', minSimilarity: th.minSimilarity, keywords: th.keywords } },
        centroid: th.centroid,
        taskIds: th.members.map((i) => tasks[i]!.taskId),
        typicalTaskId: tasks[th.typical]!.taskId,
        coherence: th.coherence,
      });
    }
    notes.push(
      r.candidates === 0
        ? `Themes: none (no group of ${fmtN(minTasks)} or more similar training tasks).`
        : `Themes: ${fmtN(r.themes.length)} kept of ${fmtN(r.candidates)} embedding groups of ${fmtN(minTasks)} tasks or more (${fmtN(r.coherent)} ` +
            `coherent: mean cosine to their centre ≥ ${r.bar.toFixed(2)}, the dataset's ${r.baseline.toFixed(2)} raised a share of the way to ` +
            `1).`,
    );
  } else if (opts.themes !== false) notes.push('Themes: none (the tasks carry no prompt vectors).');
  if (withVectors > 0 && withVectors < n) notes.push(`${fmtN(n - withVectors)} of ${fmtN(n)} training tasks have no vector: no theme applies to them.`);
  const prefix = sharedPrefix(tasks.map((t) => t.prompt));
  if (prefix) notes.push(`Every training prompt starts with the same ${fmtN(prefix.length)} characters: left out of the examples.`);
  const promptOf = new Map(tasks.map((t) => [t.taskId, t.prompt]));
  for (const f of facets) {
    const p = f.typicalTaskId === undefined ? undefined : promptOf.get(f.typicalTaskId);
    if (p !== undefined) f.example = exampleText(p, prefix);
  }
  return { facets, notes, belowMinN: below.n, minTasks };
}
