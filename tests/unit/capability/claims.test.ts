import { describe, expect, it } from 'vitest';
import { classifyClaims, MIN_CLAIM_TASKS, withinMeanFlip } from '../../../src/core/capability/claims';
import { computeEffects } from '../../../src/core/capability/effects';
import { normalCdf, symmetricEigen } from '../../../src/core/capability/gauss';
import { shrinkCells, shrinkDeviance } from '../../../src/core/capability/shrink';
import { summarise, verdictOf } from '../../../src/core/capability/verify';
import type { Verdict } from '../../../src/core/capability/types';
import { facetOf, jitter, tableOf } from '../helpers/capability-fixtures';

describe('gauss helpers', () => {
  it('Φ at known points; a 2×2 eigen-decomposition', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(-1.959964)).toBeCloseTo(0.025, 6);
    expect(normalCdf(1.6448536)).toBeCloseTo(0.95, 6);
    // [[2, 1], [1, 2]]: eigenvalues 1 and 3, vectors (1, −1)/√2 and (1, 1)/√2.
    const { values, vectors } = symmetricEigen([2, 1, 1, 2], 2);
    expect([...values].sort()).toEqual([expect.closeTo(1, 12), expect.closeTo(3, 12)]);
    const i3 = values[0]! > values[1]! ? 0 : 1;
    expect(Math.abs(vectors[0 * 2 + i3]!)).toBeCloseTo(Math.SQRT1_2, 12);
    expect(vectors[0 * 2 + i3]! * vectors[1 * 2 + i3]!).toBeCloseTo(0.5, 12);
  });
});

/** 20 tasks; the facet is tasks 0–9. */
const X = [Float64Array.from({ length: 20 }, (_, t) => (t < 10 ? 1 : 0))];

describe('shrinkCells: one tool, one facet, by hand', () => {
  it('posterior mean, sd, 95% interval and lfsr at fixed τ² = 0.25, σ² = 1', () => {
    // y = 1 on the facet, 0 elsewhere. Centred: K = Σx̃² = 10·10/20 = 5, z = Σx̃ỹ = 5·(1 − 0) = 5.
    // λ = σ²/τ² = 4: θ = z/(K + λ) = 5/9, Var θ = σ²/(K + λ) = 1/9.
    // Claimed contrast = facet mean − overall mean of x̃θ = w·θ with w = 1 − 10/20 = 0.5:
    // mean 5/18 = 0.27778, sd 1/6; lfsr = Φ(−(5/18)/(1/6)) = Φ(−5/3) = 0.047790.
    const y = [Float64Array.from({ length: 20 }, (_, t) => (t < 10 ? 1 : 0))];
    const cell = shrinkCells({ y, x: X, tau2: 0.25, sigma2: [1] }).cells[0]![0]!;
    expect(cell.partial).toBeCloseTo(5 / 9, 12);
    expect(cell.mean).toBeCloseTo(5 / 18, 12);
    expect(cell.sd).toBeCloseTo(1 / 6, 12);
    expect(cell.ci95[0]).toBeCloseTo(5 / 18 - 1.959964 / 6, 9);
    expect(cell.ci95[1]).toBeCloseTo(5 / 18 + 1.959964 / 6, 9);
    expect(cell.lfsr).toBeCloseTo(0.04779, 5);
    // The raw contrast (what verification recomputes) is 0.5: shrinkage halves it here.
  });

  it('the prior variance and noise maximise the marginal likelihood (closed form for one facet)', () => {
    // y = facet ± noise: u² = z²/K is the variance along x̃, the other n − 2 centred directions are noise:
    // σ̂² = (ỹᵀỹ − u²)/(n − 2), τ̂² = (u² − σ̂²)/K.
    const noise = [0.4, -0.3, 0.1, -0.2, 0.5, -0.5, 0.2, -0.1, 0.3, -0.4];
    const y = [Float64Array.from({ length: 20 }, (_, t) => (t < 10 ? 1 : 0) + noise[t % 10]!)];
    const n = 20;
    const mean = y[0]!.reduce((a, b) => a + b, 0) / n;
    const yc = [...y[0]!].map((v) => v - mean);
    const xc = [...X[0]!].map((v) => v - 0.5);
    const K = xc.reduce((a, v) => a + v * v, 0);
    const z = xc.reduce((a, v, t) => a + v * yc[t]!, 0);
    const u2 = (z * z) / K;
    const yy = yc.reduce((a, v) => a + v * v, 0);
    const sigma2 = (yy - u2) / (n - 2);
    const tau2 = (u2 - sigma2) / K;
    const fit = shrinkCells({ y, x: X });
    expect(fit.tau2).toBeCloseTo(tau2, 4);
    expect(fit.sigma2[0]).toBeCloseTo(sigma2, 4);
    // and it is a minimum of the deviance
    const at = shrinkDeviance({ y, x: X }, 0, tau2, sigma2);
    for (const [dt, ds] of [
      [1.1, 1],
      [0.9, 1],
      [1, 1.1],
      [1, 0.9],
    ])
      expect(shrinkDeviance({ y, x: X }, 0, tau2 * dt!, sigma2 * ds!)).toBeGreaterThan(at);
  });

  it('shares τ² across tools: a tool with no effect is shrunk to ~0, one with a clear effect keeps most of it', () => {
    const noise = (t: number) => [0.3, -0.3, 0.1, -0.1][t % 4]!;
    const clear = Float64Array.from({ length: 20 }, (_, t) => (t < 10 ? 1.5 : 0) + noise(t));
    const flat = Float64Array.from({ length: 20 }, (_, t) => noise(t + 1));
    const fit = shrinkCells({ y: [clear, flat], x: X });
    const [a, b] = [fit.cells[0]![0]!, fit.cells[1]![0]!];
    expect(a.mean).toBeGreaterThan(0.6);
    expect(a.mean).toBeLessThan(0.75); // raw contrast 0.75
    expect(a.lfsr).toBeLessThan(1e-6);
    expect(Math.abs(b.mean)).toBeLessThan(0.05);
    expect(b.lfsr).toBeGreaterThan(0.2);
  });
});

describe('classifyClaims', () => {
  it('a clear trait is a claim with a shrunk number, its raw estimate kept; a tool without a trait is none', () => {
    const t = tableOf(60, (j, u) => 3 + (j === 0 && u < 20 ? -1.5 : 0) + jitter(j, u), 3);
    const f = [facetOf('F', t.taskIds.slice(0, 20))];
    const effects = computeEffects(t, f);
    const raw = effects.effects.find((c) => c.toolId === 'A')!.effect.deltaVsOthers!;
    classifyClaims(t, f, effects, null);
    const a = effects.effects.find((c) => c.toolId === 'A')!.effect;
    expect(a.status).toBe('claim');
    expect(a.raw!.delta).toBe(raw);
    expect(a.deltaVsOthers!).toBeLessThan(0);
    expect(Math.abs(a.deltaVsOthers!)).toBeLessThanOrEqual(Math.abs(raw) + 1e-12);
    expect(a.ci95[1]).toBeLessThan(0);
    expect(a.lfsr!).toBeLessThan(0.001);
  });

  it('minimum evidence: 9 facet tasks make no claim however clear, 10 do', () => {
    expect(MIN_CLAIM_TASKS).toBe(10);
    for (const [m, want] of [
      [9, 'none'],
      [10, 'claim'],
    ] as const) {
      const t = tableOf(60, (j, u) => 3 + (j === 0 && u < m ? -2 : 0) + jitter(j, u), 3);
      const f = [facetOf('F', t.taskIds.slice(0, m))];
      const effects = computeEffects(t, f);
      classifyClaims(t, f, effects, null);
      const a = effects.effects.find((c) => c.toolId === 'A')!.effect;
      expect(a.status === 'claim' ? 'claim' : 'none', `m = ${m}`).toBe(want);
      if (m === 9) expect(a.status).not.toBe('tentative');
    }
  });

  it('a weak pattern is tentative (lfsr in (0.05, 0.2]) or none, never a claim', () => {
    const t = tableOf(60, (j, u) => 3 + (j === 0 && u < 20 ? -0.25 : 0) + jitter(j, u) * 3, 3);
    const f = [facetOf('F', t.taskIds.slice(0, 20))];
    const effects = computeEffects(t, f);
    classifyClaims(t, f, effects, null);
    for (const c of effects.effects) {
      expect(c.effect.status).not.toBe('claim');
      if (c.effect.status === 'tentative') {
        expect(c.effect.lfsr!).toBeGreaterThan(0.025);
        expect(c.effect.lfsr!).toBeLessThanOrEqual(0.2);
      }
    }
  });
});

describe('verdicts on unseen tasks', () => {
  it('holds / inconclusive / contradicted / untested by where the unseen 95% interval lies', () => {
    expect(verdictOf(-0.5, 20, -0.6, [-0.9, -0.3])).toBe('holds');
    expect(verdictOf(-0.5, 20, -0.2, [-0.35, -0.05])).toBe('holds'); // smaller than claimed, still on its side
    expect(verdictOf(-0.5, 20, -0.3, [-0.6, 0.05])).toBe('inconclusive');
    expect(verdictOf(-0.5, 20, 0.1, [-0.2, 0.4])).toBe('inconclusive'); // wrong sign, but spans 0
    expect(verdictOf(-0.5, 20, 0.3, [0.1, 0.5])).toBe('contradicted');
    expect(verdictOf(0.4, 20, -0.3, [-0.5, -0.1])).toBe('contradicted');
    expect(verdictOf(0.4, 14, 0.5, [0.1, 0.9])).toBe('untested');
  });

  it('summary: direction, confirmed and calibration by hand', () => {
    const v = (verdict: Verdict['verdict'], delta: number | null): Verdict => ({
      verdict,
      n: 20,
      delta,
      ci95: delta === null ? null : [delta - 0.1, delta + 0.1],
      on: 'x',
      checkedAt: 0,
    });
    const s = summarise([
      { claimed: 0.5, verdict: v('holds', 0.4) },
      { claimed: -0.4, verdict: v('inconclusive', -0.05) },
      { claimed: 0.2, verdict: v('contradicted', -0.3) },
      { claimed: 0.3, verdict: v('untested', null) },
    ]);
    expect(s.tested).toBe(3);
    expect(s.direction).toBeCloseTo(2 / 3, 12);
    expect(s.precision).toBe(s.direction);
    expect(s.confirmed).toBeCloseTo(1 / 3, 12);
    // (0.4 + 0.05 − 0.3) / (0.5 + 0.4 + 0.2) = 0.15 / 1.1
    expect(s.calibration).toBeCloseTo(0.15 / 1.1, 12);
    expect(s.counts).toEqual({ holds: 1, inconclusive: 1, contradicted: 1, untested: 1 });
  });
});

describe('withinMeanFlip (the table-wide flip control, off by default)', () => {
  const cells = [0.01, 0.2, 0.03, 0.1].map((flip, id) => ({ id, flip }));
  it('admits the surest cells while their average flip chance stays within the bound (hand-computed)', () => {
    // Sorted 0.01, 0.03, 0.1, 0.2: running sums 0.01 ≤ 0.05, 0.04 ≤ 0.10, 0.14 ≤ 0.15, 0.34 > 0.20.
    expect(withinMeanFlip(cells, 0.05).map((c) => c.id)).toEqual([0, 2, 3]);
    // 0.01 ≤ 0.02, 0.04 ≤ 0.04, 0.14 > 0.06.
    expect(withinMeanFlip(cells, 0.02).map((c) => c.id)).toEqual([0, 2]);
  });
  it('keeps every cell when no bound is set, and none when the surest is above it', () => {
    expect(withinMeanFlip(cells, undefined)).toHaveLength(4);
    expect(withinMeanFlip(cells, 0.005)).toEqual([]);
  });
});
