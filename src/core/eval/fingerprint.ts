/**
 * A fingerprint of what a prediction method is fitted on, so a fitted model can be kept until its
 * inputs change and not a moment longer (issue #35: the Predict page's cache was keyed on the number
 * of rows, and a relabel of an existing experience changed the data without changing the count).
 *
 * It reads every field of the ground truth a method may train on (task, tool, score, every rater's
 * score, prompt, categories, rubric) in their order, so a relabel, a changed rater policy (it changes
 * `score`), an edited prompt or a re-import that changes any of them gives another fingerprint. Two
 * 32-bit FNV-1a streams with different offsets, over the text with a separator between fields, plus
 * the row count: a different input that keeps all three equal is not a practical concern for a cache.
 * Linear in the data and allocation-free: cheap next to reading the rows from IndexedDB.
 */
import type { ScoredPair } from './ground-truth';

const PRIME = 0x01000193;

class Fnv2x32 {
  #a = 0x811c9dc5;
  #b = 0x050c5d1f;

  text(s: string): void {
    let [a, b] = [this.#a, this.#b];
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, PRIME) >>> 0;
      b = Math.imul(b ^ c, PRIME) >>> 0;
    }
    // A separator no field can end with ambiguously: "ab" + "c" differs from "a" + "bc".
    this.#a = Math.imul(a ^ 0x1f, PRIME) >>> 0;
    this.#b = Math.imul(b ^ 0x1e, PRIME) >>> 0;
  }

  number(n: number): void {
    // Every finite value has one shortest text (Object.is(-0, 0) aside, which no score relies on).
    this.text(String(n));
  }

  hex(): string {
    return this.#a.toString(16).padStart(8, '0') + this.#b.toString(16).padStart(8, '0');
  }
}

/** The fingerprint of `data` (in its order, as groundTruth returns it): `<rows>:<16 hex digits>`. */
export function fitFingerprint(data: readonly ScoredPair[]): string {
  const h = new Fnv2x32();
  for (const p of data) {
    h.text(p.taskId);
    h.text(p.toolId);
    h.number(p.score);
    h.number(p.ratings.length);
    for (const r of p.ratings) h.number(r);
    h.text(p.prompt);
    h.number(p.categories.length);
    for (const c of p.categories) h.text(c);
    h.text(p.rubric ?? '');
  }
  return `${data.length}:${h.hex()}`;
}
