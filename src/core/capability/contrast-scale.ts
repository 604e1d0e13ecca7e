/**
 * Which scale a table's claims are admitted on, with the reason in words for the build notes
 * (issue #34): score points; a logit scale for (mostly) pass/fail scores (latent.ts); or, for
 * interval scores with heavy-tailed residuals, score points AND normal scores (tails.ts).
 */
import type { ScoreTable } from './effects';
import { excessKurtosis, tailResiduals } from './tails';

export type ContrastScaleRule = 'score' | 'logit' | 'normal' | 'auto';

/** What the entries speak in (score points, or pass rates on the logit scale) and why, as the build notes print it. */
export interface ContrastScale {
  kind: 'score' | 'logit';
  why: string;
}

/** The scale, and whether a claim must also hold on normal scores (never with logit). */
export interface ScaleChoice {
  scale: ContrastScale;
  normal: boolean;
}

/** Share of finite scores at 0 or 1 on a 0–1 scale at or above which the scale counts as pass/fail. */
export const MOSTLY_BINARY = 0.9;

/**
 * Excess kurtosis of the per-task residuals (tails.ts) at or above which interval scores count as
 * heavy-tailed: their claims must hold on normal scores too. Fixed before the tuning runs.
 */
export const HEAVY_TAILS = 3;

/** The share of finite scores at the scale's two ends. */
function boundShare(table: ScoreTable): number {
  const { min, max } = table.scale;
  let total = 0;
  let bound = 0;
  for (const row of table.scores) {
    for (let t = 0; t < row.length; t++) {
      const v = row[t]!;
      if (!Number.isFinite(v)) continue;
      total++;
      if (v === min || v === max) bound++;
    }
  }
  return total ? bound / total : 0;
}

const NORMAL_WHY = 'contrasts in score points; a claim must also hold on normal scores (every score replaced by the normal quantile of its rank in the table)';

/** Which scale the contrasts are fitted on, and whether claims must also hold on normal scores. */
export function chooseScale(table: ScoreTable, rule: ContrastScaleRule = 'auto'): ScaleChoice {
  if (rule === 'score') return { scale: { kind: 'score', why: 'score points (set by the build)' }, normal: false };
  if (rule === 'logit') return { scale: { kind: 'logit', why: 'a logit scale with task difficulty shared by the tools (set by the build)' }, normal: false };
  if (rule === 'normal') return { scale: { kind: 'score', why: `${NORMAL_WHY} (set by the build)` }, normal: true };
  const { min, max } = table.scale;
  const share = boundShare(table);
  const pct = `${Math.round(share * 100)}%`;
  if (min === 0 && max === 1 && share >= MOSTLY_BINARY) {
    const why =
      `${pct} of the scores are 0 or 1 (pass/fail): contrasts on a logit scale, with each task's difficulty shared by the tools (Rasch-style), ` +
      `so a floor or a ceiling is not read as a trait`;
    return { scale: { kind: 'logit', why }, normal: false };
  }
  const kurtosis = excessKurtosis(tailResiduals(table));
  if (kurtosis >= HEAVY_TAILS) {
    const why =
      `${NORMAL_WHY}, because the tools' per-task differences have heavy tails (excess kurtosis ${kurtosis.toFixed(1)}, at least ${HEAVY_TAILS}), ` +
      `where a mean over a few dozen tasks is not yet near normal`;
    return { scale: { kind: 'score', why }, normal: true };
  }
  const why = min === 0 && max === 1 ? `scores on 0–1 but only ${pct} of them are 0 or 1: contrasts in score points` : 'contrasts in score points';
  return { scale: { kind: 'score', why }, normal: false };
}

/** Whether a build's claims had to hold on normal scores too, read from its stored scale (the memory file keeps kind and why). */
export function admitsOnNormalScores(scale: ContrastScale): boolean {
  return scale.kind === 'score' && scale.why.startsWith(NORMAL_WHY);
}

/** The scale the contrasts are fitted on, with the reason in words. */
export function contrastScaleOf(table: ScoreTable, rule: ContrastScaleRule = 'auto'): ContrastScale {
  return chooseScale(table, rule).scale;
}
