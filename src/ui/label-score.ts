/**
 * The scoring page's words and key mapping, as plain functions (the page and its tests read the same):
 * the folded filters' summary, the shortcuts help, what a pressed key does and the note a key that
 * did nothing leaves (never a silent no-op).
 */
import type { QueueFilter } from '../core/label/queue';
import { describeScoreKeys, type ScoreKey } from '../core/label/score-keys';
import type { ScoreScale } from '../core/types';

type Scale = Pick<ScoreScale, 'min' | 'max'>;

/** What a key does on the scoring page, once the image viewer has had its turn. */
export type LabelKeyAction = 'score' | 'next' | 'previous' | 'undo' | 'feedback' | 'help';

const MODE_WORDS: Record<QueueFilter['mode'], string> = {
  'unlabelled-by-me': 'not labelled by me',
  'fewer-raters': 'fewer than 3 raters',
  all: 'all items',
};

/** The folded filters' one line: "Herons · all tools · not labelled by me[ · category]". */
export function queueFilterSummary(filter: QueueFilter, datasetName: string | undefined): string {
  return [datasetName ?? '—', filter.toolIds?.[0] ?? 'all tools', MODE_WORDS[filter.mode], ...(filter.category ? [filter.category] : [])].join(' · ');
}

/** Keys that act on the item on screen: they do nothing until it is shown (a queue loading, the next item on its way). */
const ITEM_KEYS = /^([0-9]|[jksu]|Arrow(Right|Left|Up|Down))$/;

/** True when `key` acts on the item on screen (so waits until it is shown). */
export function actsOnItem(key: string): boolean {
  return ITEM_KEYS.test(key);
}

/** What `key` does, or null when it is not one of the page's keys. */
export function labelKeyAction(key: string): LabelKeyAction | null {
  if (/^[0-9]$/.test(key)) return 'score';
  if (key === 'j' || key === 'ArrowRight' || key === 'ArrowDown' || key === 's') return 'next';
  if (key === 'k' || key === 'ArrowLeft' || key === 'ArrowUp') return 'previous';
  if (key === 'u') return 'undo';
  if (key === 'f') return 'feedback';
  if (key === '?') return 'help';
  return null;
}

/** The note for a score key pressed while the next item was not on screen yet (null for any other key). */
export function notReadyNote(key: string): string | null {
  return /^[0-9]$/.test(key) ? `Key ${key} was not used: the next item was not on screen yet. Press it again now.` : null;
}

/** The note for a digit the scale has no score for: which keys do give one. */
export function noScoreNote(key: string, keys: readonly ScoreKey[], scale: Scale | undefined): string {
  return `Key ${key} gives no score on this ${scale?.min}–${scale?.max} scale: press ${describeScoreKeys(keys)}.`;
}

/** "2 other raters scored this", or that none has yet. */
export function otherRatersText(others: number): string {
  return others ? `${others} other rater${others > 1 ? 's' : ''} scored this` : 'no other rater yet';
}

/** The shortcuts help's rows: the score keys of this scale first. */
export function scoreShortcuts(keys: readonly ScoreKey[], scale: Scale | undefined): [string, string][] {
  return [
    [
      keys.length ? describeScoreKeys(keys) : '1 … 5',
      `give that score (this dataset’s scale${scale ? `, ${scale.min}–${scale.max}` : ''}) and go to the next item`,
    ],
    ['j  →  ↓', 'next item'],
    ['k  ←  ↑', 'previous item'],
    ['s', 'skip this item'],
    ['z', 'zoom the image: fit → 100% → 200% (drag or arrow keys pan, Esc back to fit)'],
    ['u', 'undo the last label'],
    ['f', 'write feedback (Esc to leave the box)'],
    ['Esc', 'leave a menu or box: while one has focus, these keys are its own (an arrow on Dataset changes the dataset)'],
    ['?', 'show these shortcuts'],
  ];
}
