/**
 * How an Inspect log's score values become numbers, and which keys of a dictionary score are scores
 * (issue #35: ifeval's `{prompt_level_strict, inst_level_strict, prompt_level_loose,
 * inst_level_loose, num_instructions}` and browse-comp's `{score: "I", confidence: 90}` imported
 * nothing).
 *
 * Values are read the way Inspect's own metrics read them (inspect_ai.scorer `value_to_float`,
 * reimplemented here): true/false → 1/0; the letters C, I, P, N (correct, incorrect, partial, no
 * answer) → 1, 0, 0.5, 0; the words yes/true and no/false in any case → 1/0; numbers as they are;
 * a numeric string is left to the row validator, which reads it as a number.
 *
 * A dictionary's keys are scores when the log's results name them: an EvalScore named after the key
 * (Inspect's form for metrics given per key) or a metric named after it. Otherwise every key that is
 * a score on 0–1: a grade (the values above) in every sample, or a number within 0–1 in every
 * sample of the file. Numbers are decided only at the end of the file, because a count such as
 * `num_instructions` or a confidence of 0–100 may be 0 or 1 in some samples; until then their rows
 * are held back (`HeldKeys`). Counts and confidences therefore stay unread.
 */
import { own } from '../../data-keys';
import { quote } from '../../text/quote';
import { UNIT_CONTINUOUS } from './shared';
import type { CanonicalRow, ScaleHint } from '../types';

/** Inspect's letter values (inspect_ai.scorer: CORRECT, INCORRECT, PARTIAL, NOANSWER). */
const LETTERS = new Map<string, number>([
  ['C', 1],
  ['I', 0],
  ['P', 0.5],
  ['N', 0],
]);
/** The words Inspect's value_to_float reads as true and false (compared in lower case). */
const WORDS = new Map<string, number>([
  ['yes', 1],
  ['true', 1],
  ['no', 0],
  ['false', 0],
]);

/** The number a grade stands for (boolean, letter or word), or undefined when `value` is no grade. */
export function gradeOf(value: unknown): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return undefined;
  return LETTERS.get(value.trim()) ?? WORDS.get(value.trim().toLowerCase());
}

/** A score value as the row validator takes it: a grade's number, a number, or the text as it is. */
export function scoreValue(value: unknown): number | string | null | undefined {
  const grade = gradeOf(value);
  if (grade !== undefined) return grade;
  if (typeof value === 'string' || typeof value === 'number' || value === null || value === undefined) return value;
  return JSON.stringify(value);
}

/** Grades are a binary (or C/P/I) judgement: the scale is 0–1 whatever values this log holds. */
export function gradeHint(value: unknown, name: string): ScaleHint | undefined {
  if (typeof value === 'boolean') return { scale: UNIT_CONTINUOUS, reason: `binary scorer ${quote(name)} (true/false)` };
  if (typeof value === 'string' && LETTERS.has(value.trim())) return { scale: UNIT_CONTINUOUS, reason: `binary scorer ${quote(name)} (C/I)` };
  if (typeof value === 'string' && gradeOf(value) !== undefined) return { scale: UNIT_CONTINUOUS, reason: `binary scorer ${quote(name)} (yes/no)` };
  return undefined;
}

/** A score the log's results declare: `name` in a sample's scores, or key `name` of scorer `scorer`'s dictionary. */
export interface Declared {
  name: string;
  scorer: string;
  /** The metric names of that EvalScore (accuracy, stderr, prompt_strict_acc, …). */
  metrics: string[];
}

/**
 * The keys of scorer `scorer`'s dictionary value that the results name as scores, other than those
 * an EvalScore of their own reads (`name` ≠ scorer): metric names that are keys of `value`.
 */
export function keysNamedByMetrics(declared: readonly Declared[], scorer: string, value: Record<string, unknown>): string[] {
  const ownEntries = new Set(declared.filter((d) => d.scorer === scorer && d.name !== scorer).map((d) => d.name));
  const named = declared.filter((d) => d.scorer === scorer).flatMap((d) => d.metrics);
  return [...new Set(named)].filter((k) => own(value, k) !== undefined && !ownEntries.has(k));
}

/** Keys of a dictionary that an EvalScore of their own reads (they are not read again as part of their scorer). */
export function keysWithOwnEntry(declared: readonly Declared[], scorer: string): Set<string> {
  return new Set(declared.filter((d) => d.scorer === scorer && d.name !== scorer).map((d) => d.name));
}

/**
 * Keys named as counts or confidences (`num_instructions`, `n_claims`, `tokens_count`, `confidence`):
 * never a score, even in a log so small that all their values happen to lie within 0–1.
 */
const COUNT_NAME = /^(num|n)_|_count$|^count$|^confidence$/i;

/** True when a dictionary key's name says it holds a count or a confidence, not a score. */
export function isCountName(key: string): boolean {
  return COUNT_NAME.test(key);
}

/**
 * Rows of numeric dictionary keys held back to the end of the file, where a key whose every value
 * was a number within 0–1 is released and any other key is dropped (a count, a confidence). Keys
 * are data (any string): a Map. Each held row keeps a slim copy of its sample (id, epoch, scores),
 * not the whole sample with its messages, so a long log does not stay in memory.
 */
export class HeldKeys {
  readonly #rows = new Map<string, CanonicalRow[]>();
  readonly #outside = new Set<string>();

  /** Holds `row` (its score is `value`) for key `rater`; a value outside 0–1 rules the key out. */
  hold(rater: string, value: number, row: CanonicalRow): void {
    if (!Number.isFinite(value) || value < 0 || value > 1) this.#outside.add(rater);
    if (this.#outside.has(rater)) {
      this.#rows.delete(rater);
      return;
    }
    const rows = this.#rows.get(rater) ?? [];
    rows.push(row);
    this.#rows.set(rater, rows);
  }

  /** A key that is not a number in some sample (text, a list) is not a 0–1 key either. */
  exclude(rater: string): void {
    this.#outside.add(rater);
    this.#rows.delete(rater);
  }

  /** At the end of the file: the rows of every key that stayed within 0–1, each with the 0–1 hint. */
  release(): CanonicalRow[] {
    const out: CanonicalRow[] = [];
    for (const [rater, rows] of this.#rows) {
      if (this.#outside.has(rater)) continue;
      const scaleHint = { scale: UNIT_CONTINUOUS, reason: `dictionary score ${quote(rater)} (every value within 0–1)` };
      for (const row of rows) out.push({ ...row, scaleHint });
    }
    this.#rows.clear();
    return out;
  }
}

/** What a held row keeps of its sample: enough for the validator and for a rejected row's report. */
export function slimSample(d: Record<string, unknown>): Record<string, unknown> {
  const slim = Object.create(null) as Record<string, unknown>;
  for (const k of ['id', 'epoch', 'scores']) if (own(d, k) !== undefined) slim[k] = own(d, k);
  return slim;
}
