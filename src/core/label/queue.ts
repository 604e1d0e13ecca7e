/**
 * The labelling queue: which (task, tool) outputs to show, in which order. Items come from
 * imported experiences (one per dataset × task × tool) and from hand-created items; labels are the
 * experiences' (rater, score) pairs.
 */
import type { Experience, LabelItem } from '../types';

export type QueueMode = 'unlabelled-by-me' | 'fewer-raters' | 'all';
export type QueueOrder = 'task' | 'suggested';

export interface QueueFilter {
  datasetIds: string[];
  /** Empty or absent: all tools. */
  toolIds?: string[];
  mode: QueueMode;
  /** With `fewer-raters`: items with fewer than this many raters. */
  minRaters?: number;
  /** Keep items whose mean existing score lies in [min, max] (unlabelled items always pass). */
  scoreRange?: [number, number];
  category?: string;
  order: QueueOrder;
}

export interface QueueLabel {
  rater: string;
  score: number;
}

export function itemId(datasetId: string, taskId: string, toolId: string): string {
  return `${datasetId}|${taskId}|${toolId}`;
}

/**
 * The output an experience scored, as a label item (its score and rater left out). The pairwise view
 * passes `withRubric: false`: it has always shown the two outputs without the rubric.
 */
export function experienceItem(e: Experience, withRubric = true): LabelItem {
  return {
    id: itemId(e.datasetId, e.taskId, e.toolId),
    datasetId: e.datasetId,
    taskId: e.taskId,
    toolId: e.toolId,
    prompt: e.prompt,
    categories: e.categories,
    createdAt: e.createdAt,
    ...(e.response !== undefined ? { response: e.response } : {}),
    ...(e.imageId !== undefined ? { imageId: e.imageId } : {}),
    ...(withRubric && e.rubric !== undefined ? { rubric: e.rubric } : {}),
  };
}

/** One item per dataset × task × tool, with the labels already given to it. */
export function itemsFromExperiences(experiences: Iterable<Experience>, created: LabelItem[] = []): { items: LabelItem[]; labels: Map<string, QueueLabel[]> } {
  const items = new Map<string, LabelItem>();
  const labels = new Map<string, QueueLabel[]>();
  // Derived items are as old as their oldest experience (a label given later does not make them new: resumeAt).
  const derived = new Set<string>();
  for (const item of created) items.set(item.id, item);
  for (const e of experiences) {
    const id = itemId(e.datasetId, e.taskId, e.toolId);
    const known = items.get(id);
    if (known && derived.has(id) && e.createdAt < known.createdAt) items.set(id, { ...known, createdAt: e.createdAt });
    if (!known) {
      derived.add(id);
      items.set(id, experienceItem(e));
    }
    (labels.get(id) ?? labels.set(id, []).get(id)!).push({ rater: e.rater, score: e.score });
  }
  return { items: [...items.values()], labels };
}

function compareTask(a: LabelItem, b: LabelItem): number {
  return a.datasetId.localeCompare(b.datasetId) || a.taskId.localeCompare(b.taskId, undefined, { numeric: true }) || a.toolId.localeCompare(b.toolId);
}

function spread(scores: number[]): number {
  if (scores.length < 2) return 0;
  const mean = scores.reduce((s, x) => s + x, 0) / scores.length;
  return Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / (scores.length - 1));
}

/**
 * "Label next": items whose label would teach the most come first. Without a predictor this uses
 * two signals: raters who disagree on the item (their score spread), and how little evidence the
 * tool has among similar tasks (same category) — thin evidence is where a memory is least sure.
 */
export function suggestionScore(item: LabelItem, labels: QueueLabel[], evidence: Map<string, number>): number {
  const disagreement = spread(labels.map((l) => l.score));
  const keys = item.categories.length ? item.categories : [''];
  const thin = Math.min(...keys.map((c) => evidence.get(`${item.toolId}\u0000${c}`) ?? 0));
  return disagreement + 1 / (1 + thin) + (labels.length === 0 ? 0.5 : 0);
}

/** Item ids in queue order. Pure and deterministic (ties broken by dataset, task, tool). */
export function buildQueue(items: LabelItem[], labels: Map<string, QueueLabel[]>, filter: QueueFilter, me: string): string[] {
  const tools = filter.toolIds?.length ? new Set(filter.toolIds) : null;
  const datasets = new Set(filter.datasetIds);
  const kept = items.filter((item) => {
    if (!datasets.has(item.datasetId)) return false;
    if (tools && !tools.has(item.toolId)) return false;
    if (filter.category && !item.categories.includes(filter.category)) return false;
    const given = labels.get(item.id) ?? [];
    if (filter.mode === 'unlabelled-by-me' && given.some((l) => l.rater === me)) return false;
    if (filter.mode === 'fewer-raters' && new Set(given.map((l) => l.rater)).size >= (filter.minRaters ?? 1)) return false;
    if (filter.scoreRange && given.length) {
      const mean = given.reduce((s, l) => s + l.score, 0) / given.length;
      if (mean < filter.scoreRange[0] || mean > filter.scoreRange[1]) return false;
    }
    return true;
  });
  if (filter.order === 'task') return kept.sort(compareTask).map((i) => i.id);
  const evidence = new Map<string, number>();
  for (const item of items) {
    if (!labels.get(item.id)?.length) continue;
    for (const c of item.categories.length ? item.categories : ['']) {
      const key = `${item.toolId}\u0000${c}`;
      evidence.set(key, (evidence.get(key) ?? 0) + 1);
    }
  }
  const score = new Map(kept.map((i) => [i.id, suggestionScore(i, labels.get(i.id) ?? [], evidence)]));
  return kept.sort((a, b) => score.get(b.id)! - score.get(a.id)! || compareTask(a, b)).map((i) => i.id);
}

/**
 * Where a queue resumes: at the item the user was on, when the queue is still the one they were in
 * the middle of — no item before it was created after that queue was built (`since`); otherwise at
 * the first item that matches the filters (0). A new import or added items that sort before the
 * saved item make it another queue: resuming there would skip them ("Item 2 of 12").
 */
export function resumeAt(ids: readonly string[], items: ReadonlyMap<string, { createdAt: number }>, itemId: string | null, since: number | undefined): number {
  if (!itemId || since === undefined) return 0;
  const at = ids.indexOf(itemId);
  if (at < 0) return 0;
  for (let i = 0; i < at; i++) if ((items.get(ids[i]!)?.createdAt ?? Infinity) > since) return 0;
  return at;
}

/** Stable left/right placement for a pairwise item (so a reload shows the same sides). */
export function leftToolFor(key: string, toolA: string, toolB: string): string {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return (h >>> 0) % 2 === 0 ? toolA : toolB;
}

/**
 * The progress line's counts (issue #28): of the items the filters select — dataset, tool,
 * category, score range, whatever is shown ("Not labelled by me" or not) — how many `me` has
 * labelled. It ignores the queue's mode on purpose: a queue of items not labelled by me shrinks
 * on every rebuild, so counting within it turned "4 of 10 labelled" into "0 of 6" after a reload;
 * these two numbers stay the same before and after one.
 */
export function selectionProgress(items: LabelItem[], labels: Map<string, QueueLabel[]>, filter: QueueFilter, me: string): { selected: number; mine: number } {
  const selected = buildQueue(items, labels, { ...filter, mode: 'all', order: 'task' }, me);
  return { selected: selected.length, mine: selected.filter((id) => labels.get(id)?.some((l) => l.rater === me)).length };
}
