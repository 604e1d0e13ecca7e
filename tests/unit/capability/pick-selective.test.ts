import { describe, expect, it } from 'vitest';
import { leadCells, selectiveP, stepDown, type LeadCell } from '../../../src/core/capability/pick-selective';

const cell = (z: number, facet = 0, tool = 1): LeadCell => ({ facet, tool, lead: z, z, n: 20 });

describe('the selection-adjusted test of a pick (a lead chosen as one of the largest)', () => {
  it('leadCells: paired lead over the best per (tool, facet), z from its standard error, largest first', () => {
    // Tool 0 is the best. On facet 0 (tasks 0–3) tool 1 leads by [1, 2, 3, 2]: mean 2, sd √(2/3),
    // se √(2/3)/2, z = 2 / 0.40825 = 4.89898. Tool 2 leads by [0, 0, 1, −1]: mean 0, z 0.
    // Facet 1 (tasks 4, 5) has 2 tasks, under minN 3: left out; facet 2 is not eligible.
    const v = [
      [3, 3, 3, 3, 3, 3],
      [4, 5, 6, 5, 3, 3],
      [3, 3, 4, 2, 3, 3],
    ];
    const x = [
      [1, 1, 1, 1, 0, 0],
      [0, 0, 0, 0, 1, 1],
      [1, 1, 1, 1, 1, 1],
    ];
    const cells = leadCells(v, x, 0, (f) => f !== 2, 3);
    expect(cells.map((c) => [c.facet, c.tool])).toEqual([
      [0, 1],
      [0, 2],
    ]);
    expect(cells[0]!.lead).toBeCloseTo(2, 12);
    expect(cells[0]!.z).toBeCloseTo(4.898979485566356, 10);
    expect(cells[1]!.z).toBeCloseTo(0, 12);
    expect(cells[0]!.n).toBe(4);
  });

  it('hand-computed p-values: the top cell is a normal truncated at the runner-up', () => {
    const cells = [cell(3), cell(1), cell(0.5)];
    // Null "ahead on a new sample with probability 0.5" (μ = 0): S(3) / S(1) = 0.0013499 / 0.158655.
    expect(selectiveP(cells, 0, 0.5)).toBeCloseTo(0.008508372702320226, 6);
    // Replication 0.8: μ = Φ⁻¹(0.8) = 0.841621 standard errors; S(3 − μ) / S(1 − μ).
    expect(selectiveP(cells, 0, 0.8)).toBeCloseTo(0.03534645115965357, 6);
    // The second cell lies in [0.5, 3]: (S(1) − S(3)) / (S(0.5) − S(3)) at μ = 0.
    expect(selectiveP(cells, 1, 0.5)).toBeCloseTo(0.5120823075572284, 6);
    expect(selectiveP(cells, 1, 0.8)).toBeCloseTo(0.6819922169397361, 6);
    expect(selectiveP(cells, 7, 0.8)).toBe(1);
  });

  it('a large lead close to the runner-up is not significant: the choice between them explains it', () => {
    // z = 3.70 on its own is p ≈ 0.0001, but chosen over a lead of 3.16: S(2.86) / S(2.32) ≈ 0.21.
    const p = selectiveP([cell(3.7), cell(3.16)], 0, 0.8);
    expect(p).toBeGreaterThan(0.2);
    expect(p).toBeLessThan(0.22);
  });

  it('stepDown admits from the top until the first cell that fails, never a lead ≤ 0', () => {
    const cells = [cell(6, 0, 1), cell(3, 1, 1), cell(2.9, 2, 1), cell(-1, 3, 1)];
    // Top: S(6 − μ) / S(3 − μ) at μ = 0.8416 is tiny; the second, in [2.9, 6]: near uniform, fails.
    expect([...stepDown(cells, 0.1, 0.8)]).toEqual(['0:1']);
    expect([...stepDown([cell(-0.5), cell(-1)], 0.5, 0.5)]).toEqual([]);
    expect([...stepDown([], 0.1, 0.8)]).toEqual([]);
  });
});
