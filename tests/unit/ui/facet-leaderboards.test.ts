/**
 * The Memory page's facet view as data (src/ui/facet-leaderboards.ts): which boards it offers and in
 * what order, each row's rank with its interval, level and chance of being best, and the pick and
 * overall-best marks — values written out by hand. The e2e test meets a pick only when the demo's
 * build makes one (it makes none), so the pick row is proved here.
 */
import { describe, expect, it } from 'vitest';
import type { CapabilitySnapshot, Facet, LeaderRow, SnapshotPick } from '../../../src/core/capability/types';
import { boardChoices, boardRows, overallBest, rowsOf } from '../../../src/ui/facet-leaderboards';
import { numberStyle } from '../../../src/core/capability/number-style';

const facet = (name: string): Facet => ({ kind: 'category', name, rule: { type: 'category', value: name } });
const row = (toolId: string, mean: number, rank: number, ci: [number, number], pBest: number, n = 40): LeaderRow => ({
  toolId,
  n,
  mean,
  rank,
  rankCi95: ci,
  pBest,
});

const overall = [row('DALLE_3', 3.87, 1, [1, 1], 0.996, 200), row('SDXL_2_1', 3.2, 2, [2, 3], 0.004, 200), row('Midjourney_6', 3.1, 3, [2, 3], 0, 200)];
const negation = [row('SDXL_2_1', 3.04, 1, [1, 2], 0.9512, 32), row('Midjourney_6', 2.96, 2, [1, 3], 0.0488, 32), row('DALLE_3', 2.75, 3, [2, 3], 0.0001, 32)];
const pick: SnapshotPick = {
  facet: 1,
  toolId: 'SDXL_2_1',
  over: 'DALLE_3',
  probability: 0.93,
  lead: 0.29,
  ci95: [0.02, 0.56],
  n: 32,
  mean: 3.04,
  overMean: 2.75,
  pBest: 0.9512,
  text: 'For tasks tagged "negation", pick SDXL_2_1: …',
};
const snapshot = {
  facets: [
    { facet: facet('spatial'), n: 60 },
    { facet: facet('negation'), n: 32 },
    { facet: facet('attribute'), n: 75 },
  ],
  tools: ['DALLE_3', 'Midjourney_6', 'SDXL_2_1'],
  cells: [],
  note: null,
  report: { facetsTested: 3, cellsTested: 9, entries: 0, belowMinN: 0, notes: [] },
  overall,
  leaderboards: [
    { facet: 0, rows: overall },
    { facet: 1, rows: negation },
    { facet: 2, rows: overall },
  ],
  picks: [pick],
} as unknown as CapabilitySnapshot;

describe('facet leaderboards as shown', () => {
  it('offers all tasks first, then the facets with a pick, then the rest by name', () => {
    const choices = boardChoices(snapshot);
    expect(choices.map((c) => [c.facet, c.label, c.n, c.pick?.toolId ?? null])).toEqual([
      [-1, 'All training tasks', 200, null],
      [1, 'negation', 32, 'SDXL_2_1'],
      [2, 'attribute', 75, null],
      [0, 'spatial', 60, null],
    ]);
    expect(rowsOf(snapshot, choices[1]!)).toBe(negation);
    expect(overallBest(snapshot)).toBe('DALLE_3');
  });

  it('a facet board with its pick: rank (interval), one-decimal level, chance best in whole percents, the marks', () => {
    const rows = boardRows(negation, numberStyle(4), 'DALLE_3', pick);
    expect(rows.map((r) => [r.tool, r.rank, r.rankLong, r.level, r.pBest, r.pick, r.overallBest])).toEqual([
      ['SDXL_2_1', '1 (1–2)', '1st (95% interval 1st–2nd)', '3.0', '95%', true, false],
      ['Midjourney_6', '2 (1–3)', '2nd (95% interval 1st–3rd)', '3.0', '5%', false, false],
      ['DALLE_3', '3 (2–3)', '3rd (95% interval 2nd–3rd)', '2.8', '< 1%', false, true],
    ]);
    expect(rows[0]!.pBestWidth).toBeCloseTo(95.12, 9);
  });

  it('a sure rank reads as one number; pass rates in whole percents; near-certain best as "> 99%"', () => {
    const rows = boardRows([row('a', 0.642, 1, [1, 1], 0.9996), row('b', 0.3, 2, [2, 2], 0.0004)], numberStyle(1, true), 'a', null);
    expect(rows.map((r) => [r.rank, r.rankLong, r.level, r.pBest, r.pick])).toEqual([
      ['1 (1)', '1st (95% interval 1st)', '64%', '> 99%', false],
      ['2 (2)', '2nd (95% interval 2nd)', '30%', '< 1%', false],
    ]);
  });

  it('a snapshot built before issue #34 offers no board', () => {
    expect(boardChoices({ ...snapshot, overall: undefined, leaderboards: undefined, picks: undefined } as CapabilitySnapshot)).toEqual([]);
  });
});
