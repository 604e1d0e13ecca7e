/** Display helpers (pure). */
import type { EntryOrigin } from '../core/types';

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/**
 * "28,800": en-US digit grouping. Integers are grouped by hand: the first `toLocaleString` of a page
 * loads the browser's locale data (~25 ms on a phone, on the first paint's path: the footer count).
 * Anything else (fractions, non-finite, beyond 2^53) goes to `toLocaleString`, which agrees.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = '';
  for (let i = digits.length; i > 0; i -= 3) out = digits.slice(Math.max(0, i - 3), i) + (out ? `,${out}` : '');
  return n < 0 ? `-${out}` : out;
}

export function formatDate(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "1 experience", "2 experiences" (English plural by -s, which covers the app's nouns). */
export function formatPlural(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * Names for a list of memories that tell them apart (issue #38: an exported memory imported again
 * listed "GenAI-Bench demo memory" twice): the name, where it came from and when —
 * "GenAI-Bench demo memory — built Dec 3, 2026, 6:10 PM", "… — imported Dec 3, 2026, 6:12 PM";
 * still equal ones (the same minute) get " (2)", " (3)" in the order they were made. The stored
 * name is left as it is (an imported file exports again byte for byte).
 */
export function memoryLabels(memories: readonly { id: string; name: string; createdAt: number; imported: boolean }[]): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Map<string, number>();
  for (const m of [...memories].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))) {
    const base = `${m.name} — ${m.imported ? 'imported' : 'built'} ${formatDate(m.createdAt)}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.set(m.id, n === 1 ? base : `${base} (${n})`);
  }
  return out;
}

/** A stored memory as Predict names it: "GenAI-Bench memory — built Dec 2, 2026, 12:10 AM · 200 training tasks". */
export function memoryDescription(m: { name: string; builtAt: number; trainTasks: number | null; source: 'build' | 'imported' }): string {
  const when = formatDate(m.builtAt);
  const tasks = m.trainTasks === null ? 'every task of the dataset' : `${formatCount(m.trainTasks)} training task${m.trainTasks === 1 ? '' : 's'}`;
  return `${m.name} — ${m.source === 'imported' ? 'imported' : 'built'} ${when} · ${tasks}`;
}

/**
 * Decimals a score on `scale` is shown with: enough to read about a 300th of the scale's span
 * (10^-d ≤ span / 10^2.5), so 0–1 → 3, 1–5 → 2, MQM −25..0 → 2, 0–100 → 1. A wider scale needs
 * fewer; a degenerate span (min = max) falls back to 2.
 */
export function scoreDecimals(scale: { min: number; max: number }): number {
  const span = Math.abs(scale.max - scale.min);
  if (!Number.isFinite(span) || span === 0) return 2;
  return Math.min(6, Math.max(0, Math.ceil(2.5 - Math.log10(span))));
}

/**
 * A score as a person reads it: rounded for its dataset's scale, a whole number kept whole (a 1–5
 * rating stays `4`). The full value belongs in a `title` (scoreCell) and in exports, which never
 * go through here.
 */
export function formatScore(value: number, scale: { min: number; max: number }): string {
  return Number.isInteger(value) ? String(value) : formatMean(value, scale);
}

/** A mean of scores: always with the scale's decimals (a mean of exactly 4 reads 4.00, next to 3.67). */
export function formatMean(value: number, scale: { min: number; max: number }): string {
  if (!Number.isFinite(value)) return '—';
  const text = value.toFixed(scoreDecimals(scale));
  // −0.000 reads as a negative score: a value that rounds to zero is shown as 0.
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** What a table cell shows for a score or a mean, and the unrounded value for its tooltip (none when nothing was cut). */
export function scoreCell(value: number, scale: { min: number; max: number }, kind: 'score' | 'mean' = 'score'): { text: string; title: string | undefined } {
  const text = kind === 'mean' ? formatMean(value, scale) : formatScore(value, scale);
  return { text, title: Number(text) === value || !Number.isFinite(value) ? undefined : String(value) };
}

/**
 * Where an entry came from, in a reader's words (the stored ids `stats`, `llm`, … are the file's).
 * A stored origin comes from data, so it is looked up in a Map, never as a plain object's key; an id
 * this build does not know shows as itself.
 */
const ORIGIN_WORDS: ReadonlyMap<EntryOrigin, string> = new Map([
  ['stats', 'from the data'],
  ['llm', 'written by the language model'],
  ['critique', 'revised after a critique'],
  ['manual', 'edited by you'],
]);

export function originLabel(origin: EntryOrigin): string {
  return ORIGIN_WORDS.get(origin) ?? origin;
}
