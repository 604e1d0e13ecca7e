/**
 * A memory prediction as a waterfall (issue #15): the tool's mean, then each applying entry's
 * share in score points, largest |points| first, ending at the predicted score. Pure, for the
 * Predict page's Contributions component and its unit test.
 */
import { ABSENT_ID, ORDER_ID, OTHER_ID, SHARED_ID } from '../core/capability/predictor';
import type { Contribution } from '../core/capability/types';

/** Contribution ids that are not one entry but a remainder the model sums (its text says which). */
const AGGREGATES: ReadonlySet<string> = new Set([OTHER_ID, ABSENT_ID, ORDER_ID]);

export interface Explanation {
  mean: number;
  contributions: Contribution[];
}

/** The explanation a prediction carries, if it is well formed (only the `memory` method explains itself). */
export function explanationOf(prediction: { explanation?: Explanation | undefined }): Explanation | null {
  const e = prediction.explanation;
  return e && Number.isFinite(e.mean) && Array.isArray(e.contributions) ? e : null;
}

export interface WaterfallRow {
  entryId: string;
  text: string;
  points: number;
  /** Running total before and after this row, in score units. */
  from: number;
  to: number;
  /** `dataset:<facet>`: shared difficulty (the dataset-level note), not a trait of the tool. */
  shared: boolean;
  /** A remainder (other facets, facets the task lacks, the tools' order), not one entry. */
  aggregate: boolean;
  /** What every tool shares on the task's facets (SHARED_ID): the part of the facets that is not this tool's own. */
  common: boolean;
  /** How surely the entry's facet applies (issue #34): below 1 when a tag was read from the text by its detector. */
  probability?: number;
}

export interface Waterfall {
  mean: number;
  rows: WaterfallRow[];
  /** Contributions beyond `maxRows`, summed into one row (null when all are shown). */
  rest: { count: number; points: number; from: number; to: number } | null;
  /** mean + Σ points: the prediction before clamping to the scale. */
  total: number;
  /** Axis limits covering the mean, every running total and the score. */
  lo: number;
  hi: number;
}

/**
 * `minSpan`: the narrowest axis, in score points (the page passes a quarter of the scale), so a
 * −0.05 step does not fill the whole track and read as a large effect.
 */
export function waterfall(explanation: Explanation, score: number, maxRows = 8, minSpan = 0): Waterfall {
  const sorted = explanation.contributions
    .filter((c) => Number.isFinite(c.points))
    .slice()
    .sort((a, b) => Math.abs(b.points) - Math.abs(a.points) || a.entryId.localeCompare(b.entryId));
  let running = explanation.mean;
  let lo = Math.min(running, score);
  let hi = Math.max(running, score);
  const rows: WaterfallRow[] = sorted.slice(0, maxRows).map((c) => {
    const from = running;
    running += c.points;
    lo = Math.min(lo, running);
    hi = Math.max(hi, running);
    return {
      entryId: c.entryId,
      text: c.text,
      points: c.points,
      from,
      to: running,
      shared: c.entryId.startsWith('dataset:'),
      aggregate: AGGREGATES.has(c.entryId),
      common: c.entryId === SHARED_ID,
      ...(c.probability !== undefined ? { probability: c.probability } : {}),
    };
  });
  let rest: Waterfall['rest'] = null;
  if (sorted.length > maxRows) {
    const points = sorted.slice(maxRows).reduce((s, c) => s + c.points, 0);
    rest = { count: sorted.length - maxRows, points, from: running, to: running + points };
    running += points;
    lo = Math.min(lo, running);
    hi = Math.max(hi, running);
  }
  // A little room on both sides, never a zero-width axis, and at least minSpan around the middle.
  const pad = Math.max(0.05, (hi - lo) * 0.08);
  const widen = Math.max(0, (minSpan - (hi - lo + 2 * pad)) / 2);
  return { mean: explanation.mean, rows, rest, total: running, lo: lo - pad - widen, hi: hi + pad + widen };
}

/** Percent position of a score on the waterfall's axis. */
export function at(w: Waterfall, value: number): number {
  return ((value - w.lo) / (w.hi - w.lo)) * 100;
}

/** A segment between two running totals, as left/width percentages. */
export function segment(w: Waterfall, from: number, to: number): { left: number; width: number } {
  const a = at(w, Math.min(from, to));
  const b = at(w, Math.max(from, to));
  return { left: a, width: Math.max(0.6, b - a) };
}

/** "facet applies: 92% likely" for a facet read from the text; '' when it surely applies (a rule that holds). */
export function probabilityText(p: number | undefined): string {
  if (p === undefined || p >= 0.995) return '';
  return `facet read from the text: ${Math.round(p * 100)}% likely`;
}
