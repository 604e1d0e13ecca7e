/**
 * Deciding a score scale the file does not state (issue #27). In order:
 *
 * 1. The format's own knowledge (CanonicalRow.scaleHint): a binary scorer (C/I, true/false,
 *    pass/fail) or a metric defined on 0–1 is 0–1 whatever values this file happens to hold — an
 *    all-correct log is 0–1, not 1–5.
 * 2. Values that cannot tell (every score equal, or a single score) decide nothing, and neither do
 *    no values at all (a file of outputs to label, issue #38: it silently became 1–5): the import
 *    is refused with ScaleUndecidedError, which asks for the scale (dialog: Score scale; CLI: --scale).
 * 3. Otherwise the smallest common scale holding the scores (inferScale). When a handful of scores
 *    lie far outside a common scale that holds all the others (one −4 among ratings 1–5), that
 *    scale is chosen and those rows become row errors instead of widening it (this needs the
 *    scores before any row is written: the pipeline's pre-scan, ImportOptions.reopen).
 *
 * Memory: counts per distinct value, at most DISTINCT_MAX of them (past that the values can tell
 * the scale anyway, and outliers are no longer looked for).
 */
import { ValidationError } from '../errors';
import type { ScoreScale } from '../types';
import type { ScaleHint } from './types';
import { formatNumber, formatScale } from './validate';

const DISTINCT_MAX = 1000;
/** At most this share of the scores (and at least one) may be set aside as far outside. */
const OUTLIER_SHARE = 0.01;
/** Scores needed inside the scale before the others may be called far outside it. */
const OUTLIER_MIN_INSIDE = 10;

/** Raised when the scores cannot tell the scale and neither the caller nor the format gave one. */
export class ScaleUndecidedError extends ValidationError {
  override name = 'ScaleUndecidedError';
}

const scaleOf = (min: number, max: number, integer: boolean): ScoreScale => ({ min, max, direction: 'higher-better', integer });

/** Scale for data without a declared one: the smallest common scale that holds every score seen. */
export function inferScale(min: number, max: number, allIntegers: boolean): ScoreScale {
  if (!Number.isFinite(min)) return scaleOf(1, 5, true);
  if (allIntegers && min >= 1 && max <= 5) return scaleOf(1, 5, true);
  if (min >= 0 && max <= 1) return scaleOf(0, 1, allIntegers);
  if (allIntegers && min >= 1 && max <= 10) return scaleOf(1, 10, true);
  if (min >= 0 && max <= 10) return scaleOf(0, 10, allIntegers);
  if (min >= 0 && max <= 100) return scaleOf(0, 100, allIntegers);
  return scaleOf(min, max, allIntegers);
}

/** Common scales an outlier test may settle on, narrowest first. */
const COMMON: readonly ScoreScale[] = [scaleOf(0, 1, false), scaleOf(1, 5, true), scaleOf(1, 10, true), scaleOf(0, 10, false), scaleOf(0, 100, false)];

export interface ScaleDecision {
  scale: ScoreScale;
  /** Where the scale came from, in words, for the summary. */
  note: string;
  /** True when it came from the scores (not the format). */
  inferred: boolean;
  /** A guess the scores could not back (no score, or all equal): an import without a pre-scan took it; a person should be asked. */
  undecided?: boolean;
}

/** Collects the accepted scores (and the format's hints) of one import. */
export class ScoreObserver {
  count = 0;
  /** Rows without a score (outputs awaiting labels): with no scored row, their labels' scale must be given. */
  unscored = 0;
  min = Infinity;
  max = -Infinity;
  allIntegers = true;
  private readonly values = new Map<number, number>();
  private overflow = false;
  /** Hint reason → its scale, in order of first appearance. */
  private readonly hints = new Map<string, ScoreScale>();

  add(score: number, hint?: ScaleHint): void {
    this.count += 1;
    this.min = Math.min(this.min, score);
    this.max = Math.max(this.max, score);
    if (!Number.isInteger(score)) this.allIntegers = false;
    if (!this.overflow) {
      this.values.set(score, (this.values.get(score) ?? 0) + 1);
      if (this.values.size > DISTINCT_MAX) {
        this.overflow = true;
        this.values.clear();
      }
    }
    if (hint && !this.hints.has(hint.reason) && this.hints.size < 20) this.hints.set(hint.reason, hint.scale);
  }

  /**
   * The scale, or ScaleUndecidedError (`fileName` for the message). `refuse: false` (an import
   * without a pre-scan, whose rows are already written) takes the common guess instead and says so
   * in the note: the CLI and the app always pre-scan, so their users are asked.
   */
  decide(fileName: string, refuse = true): ScaleDecision {
    if (this.hints.size > 0) {
      const scales = [...this.hints.values()];
      const scale = scaleOf(
        Math.min(...scales.map((s) => s.min)),
        Math.max(...scales.map((s) => s.max)),
        scales.every((s) => s.integer),
      );
      const reasons = [...this.hints.keys()];
      return {
        scale,
        note: `${formatScale(scale)} from the format: ${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? `; … (${reasons.length - 3} more)` : ''}`,
        inferred: false,
      };
    }
    if (this.count === 0 && this.unscored > 0 && refuse) {
      const n = this.unscored.toLocaleString('en-US');
      throw new ScaleUndecidedError(
        (
          `The file has no score (${n} output${this.unscored === 1 ? '' : 's'} to label), so it cannot tell the scale their labels will use. Give the ` +
          `scale (dialog: Score scale, Min and Max; CLI: --scale MIN:MAX, e.g. --scale 1:5 or --scale ` +
          `0:1). ${fileName ? `File: ${fileName}.` : ''}`
        ).trim(),
      );
    }
    if (this.count === 0)
      return {
        scale: inferScale(Infinity, -Infinity, true),
        note: 'no score was accepted, so none could be inferred',
        inferred: true,
        ...(this.unscored > 0 ? { undecided: true } : {}),
      };
    if (!this.overflow && this.values.size === 1 && !refuse) {
      const scale = inferScale(this.min, this.max, this.allIntegers);
      return {
        scale,
        note:
          `${formatScale(scale)} assumed: the scores cannot tell it (all ${this.count.toLocaleString('en-US')} are ${formatNumber(this.min)}); ` +
          `give the scale to be sure`,
        inferred: true,
        undecided: true,
      };
    }
    if (!this.overflow && this.values.size === 1) {
      const only = formatNumber(this.min);
      const what = this.count === 1 ? `the file has a single score, ${only}` : `all ${this.count.toLocaleString('en-US')} scores are ${only}`;
      throw new ScaleUndecidedError(
        (
          `The scores cannot tell the scale: ${what}, which fits 0–1, 1–5, 0–10 and more alike. Give the scale (dialog: Score scale, Min and Max; ` +
          `CLI: --scale MIN:MAX, e.g. --scale 0:1 or --scale 1:5). ${fileName ? `File: ${fileName}.` : ''}`
        ).trim(),
      );
    }
    const all = inferScale(this.min, this.max, this.allIntegers);
    const narrower = this.overflow ? undefined : this.withoutOutliers(all);
    if (narrower) return narrower;
    return {
      scale: all,
      note:
        `${formatScale(all)} inferred from the ${this.count.toLocaleString('en-US')} scores (lowest ${formatNumber(this.min)}, ` +
        `highest ${formatNumber(this.max)})`,
      inferred: true,
    };
  }

  /** A common scale narrower than `all` that holds every score but a few far outside it. */
  private withoutOutliers(all: ScoreScale): ScaleDecision | undefined {
    const allowed = Math.max(1, Math.floor(this.count * OUTLIER_SHARE));
    for (const scale of COMMON) {
      if (scale.max - scale.min >= all.max - all.min) continue;
      const reach = (scale.max - scale.min) / 2;
      let outside = 0;
      let far = true;
      let inside = 0;
      let insideIntegers = true;
      for (const [value, n] of this.values) {
        if (value >= scale.min && value <= scale.max) {
          inside += n;
          if (!Number.isInteger(value)) insideIntegers = false;
          continue;
        }
        outside += n;
        if (value > scale.min - reach && value < scale.max + reach) far = false;
      }
      if (outside === 0 || outside > allowed || !far || inside < OUTLIER_MIN_INSIDE) continue;
      if (scale.integer && !insideIntegers) continue;
      const chosen = scaleOf(scale.min, scale.max, scale.integer && insideIntegers);
      return {
        scale: chosen,
        note:
          `${formatScale(chosen)} inferred from ${inside.toLocaleString('en-US')} of the ${this.count.toLocaleString('en-US')} ` +
          `scores; ${outside} far outside it ${outside === 1 ? 'is a row error' : 'are row errors'}, not a wider scale`,
        inferred: true,
      };
    }
    return undefined;
  }
}
