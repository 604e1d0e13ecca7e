import { describe, expect, it } from 'vitest';
import { classifyClaims } from '../../../src/core/capability/claims';
import { computeEffects } from '../../../src/core/capability/effects';
import { shrinkCells } from '../../../src/core/capability/shrink';
import { facetOf, jitter, tableOf } from '../helpers/capability-fixtures';

/** 20 tasks; the facet is tasks 0–9. */
const X1 = [Float64Array.from({ length: 20 }, (_, t) => (t < 10 ? 1 : 0))];
const Y1 = [Float64Array.from({ length: 20 }, (_, t) => (t < 10 ? 1 : 0))];

/** A small table with overlapping facets: 3 tools × 24 tasks, 3 facets (the last two share tasks). */
const noise = (j: number, t: number) => [0.31, -0.22, 0.05, -0.4, 0.17, -0.09, 0.26][(t * 5 + j * 3) % 7]!;
const X3 = [
  Float64Array.from({ length: 24 }, (_, t) => (t % 3 === 0 ? 1 : 0)),
  Float64Array.from({ length: 24 }, (_, t) => (t < 10 ? 1 : 0)),
  Float64Array.from({ length: 24 }, (_, t) => (t >= 6 && t < 14 ? 1 : 0)),
];
const Y3 = [0.8, -0.3, 0].map((e, j) => Float64Array.from({ length: 24 }, (_, t) => (t % 3 === 0 ? e : 0) + noise(j, t)));

describe('shrinkCells: a prior variance per facet kind', () => {
  it('with every ratio 1 it is today’s fit to the last bit (τ² and σ² searched, overlapping facets)', () => {
    const today = shrinkCells({ y: Y3, x: X3 });
    const perKind = shrinkCells({ y: Y3, x: X3, groups: [0, 1, 1], ratios: [1, 1] });
    expect(perKind.tau2).toBe(today.tau2);
    expect(perKind.sigma2).toEqual(today.sigma2);
    expect(perKind.cells).toEqual(today.cells);
    expect(perKind.ratios).toEqual([1, 1]);
    expect(today.ratios).toEqual([]);
  });

  it('one facet of ratio 4 at τ² = 0.25, σ² = 1: its prior variance is 1, by hand', () => {
    // As claims.test.ts's hand case, with prior variance τ²·r = 1: K = 5, z = 5, λ = σ²/(τ²r) = 1,
    // θ = z/(K + λ) = 5/6, Var θ = 1/6; contrast w = 0.5: mean 5/12, sd 0.5/√6 = 0.2041.
    const cell = shrinkCells({ y: Y1, x: X1, tau2: 0.25, sigma2: [1], groups: [0], ratios: [4] }).cells[0]![0]!;
    expect(cell.partial).toBeCloseTo(5 / 6, 12);
    expect(cell.mean).toBeCloseTo(5 / 12, 12);
    expect(cell.sd).toBeCloseTo(0.5 / Math.sqrt(6), 12);
  });

  it('a ratio r on every facet equals one τ² multiplied by r (overlapping facets)', () => {
    const scaled = shrinkCells({ y: Y3, x: X3, tau2: 0.05, sigma2: [0.1, 0.1, 0.1], groups: [0, 0, 0], ratios: [3] });
    const plain = shrinkCells({ y: Y3, x: X3, tau2: 0.15, sigma2: [0.1, 0.1, 0.1] });
    scaled.cells.forEach((row, j) =>
      row.forEach((c, f) => {
        const p = plain.cells[j]![f]!;
        expect(c!.mean).toBeCloseTo(p.mean, 12);
        expect(c!.sd).toBeCloseTo(p.sd, 12);
        expect(c!.partial).toBeCloseTo(p.partial, 12);
        expect(c!.partialLfsr).toBeCloseTo(p.partialLfsr, 12);
      }),
    );
  });

  it('the search shrinks a kind of null facets harder and a kind with real effects less', () => {
    // 80 tasks, 4 tools; kind 0: two facets with real effects of ±0.8 for most tools; kind 1: four null facets.
    const n = 80;
    const x = [
      Float64Array.from({ length: n }, (_, t) => (t % 4 === 0 ? 1 : 0)),
      Float64Array.from({ length: n }, (_, t) => (t % 5 === 1 ? 1 : 0)),
      ...[2, 3, 6, 7].map((k) => Float64Array.from({ length: n }, (_, t) => (Math.floor(t / k) % 2 === 0 ? 1 : 0))),
    ];
    const fx = [
      [0.8, -0.8],
      [-0.8, 0],
      [0, 0.8],
      [0.8, 0.8],
    ];
    const y = fx.map((e, j) => Float64Array.from({ length: n }, (_, t) => e[0]! * x[0]![t]! + e[1]! * x[1]![t]! + noise(j, t)));
    const one = shrinkCells({ y, x });
    const perKind = shrinkCells({ y, x, groups: [0, 0, 1, 1, 1, 1] });
    expect(perKind.ratios[0]).toBe(1);
    expect(perKind.ratios[1]).toBeLessThan(1);
    // The real effect (tool 0 on facet 0, raw contrast about 0.8 × 3/4) keeps more of its size.
    expect(perKind.cells[0]![0]!.partial).toBeGreaterThan(one.cells[0]![0]!.partial);
    expect(perKind.cells[0]![0]!.lfsr).toBeLessThanOrEqual(one.cells[0]![0]!.lfsr);
  });
});

describe('classifyClaims with kindPrior', () => {
  it('one kind of facet: the same statuses and numbers as without it', () => {
    const t = tableOf(60, (j, u) => 3 + (j === 0 && u < 20 ? -1.5 : 0) + (j === 1 && u >= 40 ? 0.6 : 0) + jitter(j, u), 3);
    const facets = [facetOf('F', t.taskIds.slice(0, 20)), facetOf('G', t.taskIds.slice(30, 60))];
    const a = computeEffects(t, facets);
    const b = computeEffects(t, facets);
    classifyClaims(t, facets, a, null);
    classifyClaims(t, facets, b, null, { kindPrior: true });
    expect(b.effects.map((c) => c.effect)).toEqual(a.effects.map((c) => c.effect));
    expect(a.effects.some((c) => c.effect.status === 'claim')).toBe(true);
  });
});
