import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../src/core/capability/types';
import { legendStops, legendText, matrixHasStatus } from '../../../src/ui/capability-matrix-legend';

const effect = (over: Partial<Effect> = {}): Effect => ({ n: 12, deltaOwn: 0, deltaVsOthers: 0.3, ci95: [0.1, 0.5], q: 0.04, ...over });

describe('the capability matrix legend', () => {
  it('five stops of the PuOr scale from −domain to +domain (halfway stops mixed by hand)', () => {
    // −0.5 of 1: halfway between (254, 224, 182) and (241, 163, 64); +0.5: between (216, 218, 235) and (153, 142, 195).
    expect(legendStops(1)).toBe('rgb(179, 88, 6), rgb(248, 194, 123), rgb(247, 247, 247), rgb(185, 180, 215), rgb(84, 39, 136)');
    expect(legendStops(0.4)).toBe(legendStops(1));
  });

  it('says what the ends mean, with ≤ and ≥ when the colours stop short of the largest effect', () => {
    expect(legendText({ colorDomain: 0.5, domain: 0.5 })).toBe('−0.50 worse · 0 · better +0.50 (score points vs the other tools)');
    expect(legendText({ colorDomain: 0.5, domain: 1.2 })).toBe('≤ −0.50 worse · 0 · better ≥ +0.50 (score points vs the other tools)');
  });

  it('explains the outlines only when some cell carries a claim status', () => {
    expect(matrixHasStatus({ grid: [[null, { toolId: 'A', facet: 0, entryId: null, effect: effect() }]] })).toBe(false);
    expect(matrixHasStatus({ grid: [[null], [{ toolId: 'A', facet: 0, entryId: null, effect: effect({ status: 'tentative' }) }]] })).toBe(true);
    expect(matrixHasStatus({ grid: [] })).toBe(false);
  });
});
