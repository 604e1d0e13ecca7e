import { describe, expect, it } from 'vitest';
import { claimCountsText, formatLfsr, profileFigures, statusText, verdictBadge, verificationText } from '../../../src/ui/capability-format';
import type { Effect } from '../../../src/core/capability/types';

const effect = (status?: Effect['status']): Effect => ({
  n: 20,
  deltaOwn: -0.3,
  deltaVsOthers: -0.4,
  ci95: [-0.7, -0.1],
  q: 0.01,
  ...(status ? { status } : {}),
});

describe('claims in words (Memory page, tool cards)', () => {
  it('the chance of a wrong sign, as a person reads it', () => {
    expect(formatLfsr(0.0004)).toBe('< 0.1%');
    expect(formatLfsr(0.0042)).toBe('0.4%');
    expect(formatLfsr(0.01)).toBe('1%');
    expect(formatLfsr(0.137)).toBe('14%');
    expect(formatLfsr(NaN)).toBe('–');
  });

  it('status lines for claims, tentative entries and cells; none for effects before claims had a status', () => {
    expect(statusText(effect('claim'))).toBe('claim: the sign is settled (chance it is wrong ≤ 5%)');
    expect(statusText(effect('tentative'))).toBe('tentative, not a claim: likely, but not settled enough to state as a fact');
    expect(statusText(effect('none'))).toBe('no claim: the data does not settle the sign');
    expect(statusText(effect())).toBe('');
  });

  it('verdict badges: inconclusive is new, weaker reads as an older check', () => {
    expect(verdictBadge('inconclusive').label).not.toBe(verdictBadge('untested').label);
    expect(verdictBadge('weaker').label).toMatch(/weaker/);
    expect(verdictBadge('something newer').label).toBe(verdictBadge('untested').label);
  });

  it('build report lines: counts, then the held-out figures', () => {
    expect(claimCountsText({ claims: 1, tentative: 3 })).toBe('1 claim · 3 tentative (shown apart, not claims)');
    expect(claimCountsText({})).toBeNull();
    expect(
      verificationText({
        on: 'test-split',
        precision: 0.9,
        tested: 10,
        counts: { holds: 7, inconclusive: 2, contradicted: 1, untested: 4 },
        direction: 0.9,
        confirmed: 0.7,
        calibration: 0.95,
      }),
    ).toBe('direction 0.90 · confirmed 0.70 · precision 0.90 · calibration 0.95 over 10 tested (7 hold, 2 inconclusive, 1 contradicted, 4 untested)');
    expect(verificationText({ on: 'x', precision: null, tested: 0, counts: { holds: 0, contradicted: 0, untested: 3 } })).toBe('no claim could be tested');
  });

  it("a profile's figures", () => {
    expect(profileFigures({ n: 200, mean: 3.81, rank: 1, rankCi95: [1, 2], of: 6, bestShare: 0.314, advantage: 0.42 })).toEqual([
      { label: 'mean', value: '3.8' },
      { label: 'rank', value: '1 of 6 (95% interval 1–2)' },
      { label: 'best on', value: '31% of its tasks' },
      { label: 'vs the others', value: '+0.4' },
      { label: 'tasks', value: '200' },
    ]);
    expect(profileFigures({ n: 5, mean: 0.5, rank: 1, rankCi95: [1, 1], of: 1, bestShare: 0, advantage: 0 }).map((f) => f.label)).toEqual(['mean', 'tasks']);
  });
});
