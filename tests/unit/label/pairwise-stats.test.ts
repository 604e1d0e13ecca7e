import { describe, expect, it } from 'vitest';
import { pairwiseCsv, pairwiseResults, wilson } from '../../../src/core/label/pairwise-stats';
import type { Preference } from '../../../src/core/types';

const p = (taskId: string, rater: string, winner: Preference['winner'], toolA = 'flux', toolB = 'sdxl'): Preference => ({
  id: `d|${taskId}|${toolA}|${toolB}|${rater}`,
  datasetId: 'd',
  taskId,
  toolA,
  toolB,
  winner,
  rater,
  shownLeft: toolA,
  createdAt: 0,
});

describe('pairwise results', () => {
  it('Wilson 95% intervals match the hand-computed values', () => {
    // 3 of 4: p̂ = .75, z² = 3.8415: centre (.75 + .4802) / 1.9604 = .6275, half .3269.
    const [lo, hi] = wilson(3, 4);
    expect(lo).toBeCloseTo(0.3006, 4);
    expect(hi).toBeCloseTo(0.9544, 4);
    expect(wilson(0, 5)[0]).toBe(0);
    expect(wilson(5, 5)[1]).toBe(1);
  });

  it('per rater and pooled wins / ties / losses, ties apart from the share, and agreement on shared tasks', () => {
    const prefs = [
      p('t1', 'ann', 'A'),
      p('t2', 'ann', 'A'),
      p('t3', 'ann', 'B'),
      p('t4', 'ann', 'tie'),
      p('t1', 'bob', 'A'),
      p('t2', 'bob', 'B'),
      p('t1', 'ann', 'B', 'a', 'b'),
    ];
    const [ab, fluxSdxl] = pairwiseResults(prefs);
    expect(ab).toMatchObject({
      toolA: 'a',
      toolB: 'b',
      pooled: { wins: 0, ties: 0, losses: 1, share: 0 },
      sharedTasks: 0,
      agreement: { agreeing: 0, pairs: 0, share: null },
    });
    const r = fluxSdxl!;
    expect([r.toolA, r.toolB]).toEqual(['flux', 'sdxl']);
    const ann = r.raters.find((x) => x.rater === 'ann')!;
    expect([ann.wins, ann.ties, ann.losses]).toEqual([2, 1, 1]);
    expect(ann.share).toBeCloseTo(2 / 3, 10);
    // 2 of 3 decided: Wilson (.2077, .9385).
    expect(ann.ci95![0]).toBeCloseTo(0.2077, 4);
    expect(ann.ci95![1]).toBeCloseTo(0.9385, 4);
    // Pooled: 3 wins, 2 losses, 1 tie → 3 of 5: Wilson (.2307, .8824).
    expect([r.pooled.wins, r.pooled.ties, r.pooled.losses, r.pooled.share]).toEqual([3, 1, 2, 0.6]);
    expect(r.pooled.ci95![0]).toBeCloseTo(0.2307, 4);
    expect(r.pooled.ci95![1]).toBeCloseTo(0.8824, 4);
    // t1: ann A, bob A (agree); t2: ann A, bob B (disagree).
    expect([r.sharedTasks, r.agreement.agreeing, r.agreement.pairs, r.agreement.share]).toEqual([2, 1, 2, 0.5]);
  });

  it('exports CSV with formula-like tool names neutralised', () => {
    const csv = pairwiseCsv(pairwiseResults([p('t1', '=cmd', 'tie', '=A', 'b')]));
    const lines = csv.split('\n');
    expect(lines[0]).toBe('tool_a,tool_b,rater,wins_a,ties,wins_b,share_a,ci95_low,ci95_high,interval,agreement,agreement_pairs');
    expect(lines[1]).toBe(`"'=A",b,"'=cmd",0,1,0,,,,Wilson 95% on wins_a / (wins_a + wins_b); ties apart,,`);
    expect(lines[2]).toBe(`"'=A",b,(pooled),0,1,0,,,,Wilson 95% on wins_a / (wins_a + wins_b); ties apart,,0`);
  });
});
