import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../src/core/capability/types';
import {
  clearOfZero,
  effectBar,
  effectSummary,
  formatInterval,
  formatNumber,
  formatQ,
  formatSigned,
  headline,
  headlineBasis,
  MINUS,
  niceDomain,
  rankText,
  sharedNoteText,
  verdictBadge,
} from '../../../src/ui/capability-format';
import { numberStyle } from '../../../src/core/capability/number-style';

const effect = (over: Partial<Effect> = {}): Effect => ({ n: 23, deltaOwn: -0.3, deltaVsOthers: -0.42, ci95: [-0.7, -0.1], q: 0.012, rank: 6, of: 6, ...over });

describe('signed numbers', () => {
  it('uses a real minus sign and a plus on positive values', () => {
    expect(formatSigned(-0.421)).toBe(`${MINUS}0.42`);
    expect(formatSigned(-0.421)).not.toContain('-');
    expect(formatSigned(0.5)).toBe('+0.50');
    expect(formatSigned(1.234, 1)).toBe('+1.2');
  });

  it('gives a value that rounds to zero no sign', () => {
    expect(formatSigned(-0.001)).toBe('0.00');
    expect(formatSigned(0.004)).toBe('0.00');
    expect(formatNumber(-0.001)).toBe('0.00');
    expect(formatNumber(-1.5)).toBe(`${MINUS}1.50`);
    expect(formatNumber(3.42)).toBe('3.42');
  });

  it('shows a dash for non-finite values', () => {
    expect(formatSigned(Number.NaN)).toBe('–');
    expect(formatNumber(Infinity)).toBe('–');
  });

  it('formats intervals and q-values', () => {
    expect(formatInterval([-0.7, 0.1])).toBe(`[${MINUS}0.70, +0.10]`);
    expect(formatQ(0.0004)).toBe('q < 0.001');
    expect(formatQ(0.0123)).toBe('q = 0.012');
    expect(formatQ(0.456)).toBe('q = 0.46');
  });
});

describe('ranks, headline and verdicts', () => {
  it('names the best, the lowest and the ones between', () => {
    expect(rankText(1, 6)).toBe('best of 6 tools');
    expect(rankText(6, 6)).toBe('lowest of 6 tools');
    expect(rankText(2, 6)).toBe('2nd of 6 tools');
    expect(rankText(3, 10)).toBe('3rd of 10 tools');
    expect(rankText(11, 12)).toBe('11th of 12 tools');
    expect(rankText(1, 1)).toBe('');
    expect(rankText(undefined, 6)).toBe('');
  });

  it('takes deltaVsOthers as the headline, deltaOwn with one tool', () => {
    expect(headline(effect())).toBe(-0.42);
    expect(headlineBasis(effect())).toBe('vs other tools');
    expect(headline(effect({ deltaVsOthers: null }))).toBe(-0.3);
    expect(headlineBasis(effect({ deltaVsOthers: null }))).toBe('vs its own mean');
  });

  it('tells whether an interval leaves out zero', () => {
    expect(clearOfZero([-0.7, -0.1])).toBe(true);
    expect(clearOfZero([0.2, 0.9])).toBe(true);
    expect(clearOfZero([-0.2, 0.1])).toBe(false);
  });

  it('badges every verdict, and an unknown one as untested', () => {
    expect(verdictBadge('holds')).toMatchObject({ label: 'holds ✓', tone: 'ok' });
    expect(verdictBadge('contradicted')).toMatchObject({ label: 'contradicted ✗', tone: 'danger' });
    expect(verdictBadge('weaker').tone).toBe('warn');
    expect(verdictBadge('__proto__').label).toBe('untested');
  });

  it('summarises an effect in one line', () => {
    // One rounding rule with the entry's words (issue #34): 1 decimal on a 1–5 scale, 2 on 0–1, points for pass rates.
    expect(effectSummary(effect())).toBe(
      `${MINUS}0.4 (95% CI ${MINUS}0.7 to ${MINUS}0.1) against its usual margin over the others · n = 23 · q = 0.012 · lowest of 6 tools`,
    );
    expect(effectSummary(effect({ deltaVsOthers: null, rank: undefined, of: undefined }))).toBe(
      `${MINUS}0.3 (95% CI ${MINUS}0.7 to ${MINUS}0.1) vs its own mean · n = 23 · q = 0.012`,
    );
    expect(effectSummary(effect(), numberStyle(1))).toBe(
      `${MINUS}0.42 (95% CI ${MINUS}0.70 to ${MINUS}0.10) against its usual margin over the others · n = 23 · q = 0.012 · lowest of 6 tools`,
    );
    expect(effectSummary(effect({ deltaVsOthers: -0.09, ci95: [-0.14, -0.04] }), numberStyle(1, true))).toBe(
      `${MINUS}9 points (95% CI ${MINUS}14 to ${MINUS}4 points) against its usual margin over the others · n = 23 · q = 0.012 · lowest of 6 tools`,
    );
  });

  it('reads the shared note, or makes it from its lists', () => {
    expect(sharedNoteText({ text: 'Hard for every tool: counting.', hard: ['counting'], easy: [], items: [] })).toBe('Hard for every tool: counting.');
    expect(sharedNoteText({ text: '', hard: ['counting', 'negation'], easy: ['short prompt'], items: [] })).toBe(
      'Hard for every tool: counting, negation. Easy for every tool: short prompt.',
    );
  });
});

describe('effect bar geometry', () => {
  it('rounds the axis up to 1, 2, 2.5 or 5 × 10^k', () => {
    expect(niceDomain([0.42, -0.7])).toBe(1);
    expect(niceDomain([1.3])).toBe(2);
    expect(niceDomain([2.2])).toBe(2.5);
    expect(niceDomain([0.03])).toBe(0.1);
    expect(niceDomain([])).toBe(0.1);
    expect(niceDomain([Number.NaN, 3.1])).toBe(5);
  });

  it('draws the bar from zero to the delta and the whisker over the interval', () => {
    const neg = effectBar(-0.5, [-0.8, -0.2], 1);
    expect(neg).toMatchObject({ zero: 50, barLeft: 25, barWidth: 25, positive: false, clippedLow: false, clippedHigh: false });
    expect(neg.ciLeft).toBeCloseTo(10);
    expect(neg.ciWidth).toBeCloseTo(30);
    const pos = effectBar(0.5, [0.1, 0.9], 1);
    expect(pos).toMatchObject({ barLeft: 50, barWidth: 25, positive: true });
  });

  it('clips an interval wider than the axis and marks the open end', () => {
    const g = effectBar(0.5, [-1.5, 2], 1);
    expect(g.ciLeft).toBe(0);
    expect(g.ciWidth).toBe(100);
    expect(g.clippedLow).toBe(true);
    expect(g.clippedHigh).toBe(true);
  });
});
