import { describe, expect, it } from 'vitest';
import { facetInflation, halfMasks, inflations, splitZ2, welchContrast } from '../../../src/core/capability/hetero';

describe('split-half overdispersion (hetero.ts), by hand', () => {
  it('z² of two halves: (c_A − c_B)² / (s_A² + s_B²); null without a finite standard error', () => {
    // (1 − (−1))² / (1 + 1) = 4 / 2 = 2.
    expect(splitZ2({ delta: 1, se: 1 }, { delta: -1, se: 1 })).toBeCloseTo(2, 12);
    // (0.5 − 0.2)² / (0.3² + 0.4²) = 0.09 / 0.25 = 0.36.
    expect(splitZ2({ delta: 0.5, se: 0.3 }, { delta: 0.2, se: 0.4 })).toBeCloseTo(0.36, 12);
    expect(splitZ2({ delta: 1, se: Infinity }, { delta: 0, se: 1 })).toBeNull();
    expect(splitZ2({ delta: NaN, se: 1 }, { delta: 0, se: 1 })).toBeNull();
    expect(splitZ2({ delta: 1, se: 0 }, { delta: 0, se: 0 })).toBeNull();
  });

  it('a facet’s κ: its mean z² pulled toward the table’s with a prior worth ν pairs, floored at 1', () => {
    // Table mean z² = (4 + 0 + 1) / 3 = 5/3; ν = 2.
    // Facet 0: (4 + 0 + 2·5/3) / (2 + 2) = 11/6 → κ = √(11/6) = 1.354006.
    // Facet 1: (1 + 2·5/3) / (1 + 2) = 13/9 → κ = √(13/9) = 1.201850.
    // Facet 2 (no pair): the table's 5/3 → κ = 1.290994.
    const k = inflations([[4, 0], [1], []], 2);
    expect(k[0]).toBeCloseTo(Math.sqrt(11 / 6), 12);
    expect(k[1]).toBeCloseTo(Math.sqrt(13 / 9), 12);
    expect(k[2]).toBeCloseTo(Math.sqrt(5 / 3), 12);
    // Halves that agree better than their errors say never narrow an interval: κ = 1.
    expect(inflations([[0.2, 0.5], [0.1]], 2)).toEqual([1, 1]);
  });

  it('the score-scale contrast on a half: mean inside − mean outside, with its Welch standard error', () => {
    // Inside {1, 2}: mean 1.5, variance 0.5; outside {3, 4, 5, 6}: mean 4.5, variance 5/3 (task 6 not in the half).
    // Δ = 1.5 − 4.5 = −3; se = √(0.5/2 + (5/3)/4) = √(2/3) = 0.816497.
    const c = welchContrast([1, 2, 3, 4, 5, 6, 100], [1, 1, 0, 0, 0, 0, 1], [1, 1, 1, 1, 1, 1, 0]);
    expect(c.delta).toBeCloseTo(-3, 12);
    expect(c.se).toBeCloseTo(Math.sqrt(2 / 3), 12);
    // Fewer than two tasks on a side: not measurable.
    expect(welchContrast([1, 2, 3], [1, 0, 0], [1, 1, 1]).se).toBe(Infinity);
  });

  it('halves: balanced, deterministic, different per split', () => {
    const [a, b] = halfMasks(11, 2);
    expect(a!.reduce((s, m) => s + m, 0)).toBe(5);
    expect(b!.reduce((s, m) => s + m, 0)).toBe(5);
    expect(halfMasks(11, 2)[0]).toEqual(a);
    expect([...a!]).not.toEqual([...b!]);
  });

  it('κ is 1 for a contrast that repeats on every half, and above 1 for one that flips between the halves', () => {
    const n = 80;
    const member = Uint8Array.from({ length: n }, (_, t) => (t % 2 === 0 ? 1 : 0));
    const [half] = halfMasks(n, 1);
    // ±0.1 alternately within each (half, member) group, 0 for an odd one out: every group's mean is
    // exactly its member value, so both halves show the same contrast (z² = 0).
    const noise = new Float64Array(n);
    for (const h of [0, 1])
      for (const m of [0, 1]) {
        const group = [...noise.keys()].filter((t) => half![t] === h && member[t] === m);
        group.forEach((t, i) => (noise[t] = i === group.length - 1 && group.length % 2 ? 0 : i % 2 ? -0.1 : 0.1));
      }
    const steady = Float64Array.from({ length: n }, (_, t) => member[t]! + noise[t]!);
    const cells = [{ j: 0, f: 0 }];
    expect(facetInflation({ kind: 'score', y: [steady] }, [member], cells, 1)).toEqual([1]);
    // +1 on the members of the first half, −1 on the members of the second: z² ≈ 2² / (4·0.1²/10) ≫ 1.
    const flipping = Float64Array.from({ length: n }, (_, t) => (member[t] ? (half![t] ? 1 : -1) : 0) + noise[t]!);
    expect(facetInflation({ kind: 'score', y: [flipping] }, [member], cells, 1)[0]).toBeGreaterThan(5);
  });

  it('the logit scale measures each half with the conditional-logit contrast', () => {
    // Three tools, 240 tasks; on the facet's tasks tool 0 passes 4 in 5 in one half and 1 in 5 in the other.
    const n = 240;
    const member = Uint8Array.from({ length: n }, (_, t) => (t % 3 === 0 ? 1 : 0));
    const [half] = halfMasks(n, 1);
    const v = [
      Float64Array.from({ length: n }, (_, t) => (member[t] ? (half![t] ? (t % 5 < 4 ? 1 : 0) : t % 5 < 1 ? 1 : 0) : t % 2)),
      Float64Array.from({ length: n }, (_, t) => (t % 4 < 2 ? 1 : 0)),
      Float64Array.from({ length: n }, (_, t) => (t % 7 < 3 ? 1 : 0)),
    ];
    const k = facetInflation({ kind: 'logit', v }, [member], [{ j: 0, f: 0 }], 1);
    expect(k[0]).toBeGreaterThan(2);
    expect(Number.isFinite(k[0]!)).toBe(true);
  });
});
