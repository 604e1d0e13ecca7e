import { describe, expect, it } from 'vitest';
import { admitClaims, type Pending } from '../../../src/core/capability/admit';
import { ashInterval } from '../../../src/core/capability/ash';
import { classifyClaims } from '../../../src/core/capability/claims';
import { computeEffects } from '../../../src/core/capability/effects';
import type { Effect } from '../../../src/core/capability/types';
import { facetOf, tableOf } from '../helpers/capability-fixtures';

describe('ashInterval: the equal-tailed interval of a mixture posterior', () => {
  it('one normal component: mean ± 1.959964 sd', () => {
    const [lo, hi] = ashInterval([{ weight: 1, mean: 1, variance: 0.25 }]);
    expect(lo).toBeCloseTo(1 - 1.959964 * 0.5, 5);
    expect(hi).toBeCloseTo(1 + 1.959964 * 0.5, 5);
  });

  it('half on the null: the lower end is the jump at 0, the upper solves 0.5 + 0.5 Φ(x − 2) = 0.975', () => {
    // Below 0 the CDF is 0.5 Φ(x − 2) ≤ 0.5 Φ(−2) = 0.011 < 0.025; at 0 it jumps past 0.5.
    const [lo, hi] = ashInterval([
      { weight: 0.5, mean: 0, variance: 0 },
      { weight: 0.5, mean: 2, variance: 1 },
    ]);
    expect(lo).toBe(0);
    expect(hi).toBeCloseTo(2 + 1.644854, 5);
  });
});

describe('admitClaims: the adaptive posterior decides where the normal prior over-shrinks', () => {
  const effect = (): Effect => ({ deltaVsOthers: 0, deltaOwn: 0, ci95: [-1, 1], n: 40 }) as unknown as Effect;
  /** 40 null cells (raw ±0.02, se 0.1) and one large one (raw 0.8, se 0.15) the normal-prior fit did not admit. */
  function table(candidate: boolean): Pending[] {
    const nulls = Array.from({ length: 40 }, (_, i): Pending => {
      const b = i % 2 ? 0.02 : -0.02;
      return { e: effect(), f: i, sign: Math.sign(b), flip: 0.4, candidate: false, supported: true, tentative: false, b, s: 0.1, se: 0.1 };
    });
    const big: Pending = { e: effect(), f: 40, sign: 1, flip: 0.2, candidate, supported: true, tentative: true, b: 0.8, s: 0.15, se: 0.15 };
    return [...nulls, big];
  }
  const run = (pending: Pending[], ashDecides: boolean) => {
    const written: { mean: number; ci95: [number, number] }[] = [];
    const flipOf = admitClaims(
      pending,
      { maxLfsr: 0.05, level: () => 0.12, ashDecides, ashChecks: true, write: (_e, mean, ci95) => written.push({ mean, ci95 }) },
      undefined,
    );
    return { statuses: pending.map((p) => p.e.status), written, flipOf };
  };

  it('admits the large cell and shows the adaptive posterior: its interval excludes 0 and holds its mean', () => {
    const pending = table(false);
    const { statuses, written, flipOf } = run(pending, true);
    expect(statuses.filter((s) => s === 'claim')).toHaveLength(1);
    expect(statuses.at(-1)).toBe('claim');
    expect(written).toHaveLength(1);
    const { mean, ci95 } = written[0]!;
    expect(ci95[0]).toBeGreaterThan(0);
    expect(mean).toBeGreaterThan(ci95[0]);
    expect(mean).toBeLessThan(ci95[1]);
    // Shrunk toward 0, not past it: below the raw 0.8.
    expect(mean).toBeLessThan(0.8);
    expect(pending.at(-1)!.e.lfsr).toBeLessThan(0.025);
    expect(flipOf.get(pending.at(-1)!.e)).toBeLessThan(0.12);
  });

  it('with heavy tails (both posteriors must pass) the same cell stays tentative', () => {
    const { statuses, written } = run(table(false), false);
    expect(statuses.filter((s) => s === 'claim')).toHaveLength(0);
    expect(statuses.at(-1)).toBe('tentative');
    expect(written).toHaveLength(0);
  });

  it('a cell both posteriors admit keeps the normal-prior numbers (nothing written)', () => {
    for (const ashDecides of [true, false]) {
      const { statuses, written } = run(table(true), ashDecides);
      expect(statuses.at(-1)).toBe('claim');
      expect(written).toHaveLength(0);
    }
  });

  it('a cell whose joint fits disagree on the sign is never admitted by the adaptive posterior', () => {
    const pending = table(false);
    pending.at(-1)!.supported = false;
    expect(run(pending, true).statuses.at(-1)).toBe('tentative');
  });
});

describe('admitClaims without the adaptive check (light-tailed score points, claims.ts `ashCheck`)', () => {
  const effect = (): Effect => ({ deltaVsOthers: 0, deltaOwn: 0, ci95: [-1, 1], n: 40 }) as unknown as Effect;
  /**
   * 40 null cells (raw ±0.02, se 0.1) and one modest cell (raw 0.25, se 0.1: 2.5 standard errors) that
   * the normal-prior fit admits (candidate) with flip chance 0.08. Among 40 nulls the adaptive prior puts
   * nearly all its weight on "no effect", so it is not sure of the modest cell's sign.
   */
  function table(): Pending[] {
    const nulls = Array.from({ length: 40 }, (_, i): Pending => {
      const b = i % 2 ? 0.02 : -0.02;
      return { e: effect(), f: i, sign: Math.sign(b), flip: 0.4, candidate: false, supported: true, tentative: false, b, s: 0.1, se: 0.1 };
    });
    const modest: Pending = { e: effect(), f: 40, sign: 1, flip: 0.08, candidate: true, supported: true, tentative: true, b: 0.25, s: 0.1, se: 0.1 };
    return [...nulls, modest];
  }
  const run = (ashChecks: boolean) => {
    const pending = table();
    const flipOf = admitClaims(pending, { maxLfsr: 0.05, level: () => 0.12, ashDecides: false, ashChecks, write: () => {} }, undefined);
    return { status: pending.at(-1)!.e.status, flip: flipOf.get(pending.at(-1)!.e) };
  };

  it('with the check the adaptive posterior keeps the modest cell tentative; without it the normal-prior fit admits it, with its own flip chance', () => {
    expect(run(true).status).toBe('tentative');
    const off = run(false);
    expect(off.status).toBe('claim');
    expect(off.flip).toBe(0.08);
  });
});

describe('classifyClaims on light-tailed score points: the adaptive check is off unless asked for', () => {
  /** A fixed hash to [0, 1): deterministic noise and facet membership without a random generator. */
  const hash = (a: number) => {
    let x = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
    x ^= x >>> 13;
    x = Math.imul(x, 0xc2b2ae35);
    x ^= x >>> 16;
    return (x >>> 0) / 4294967296;
  };
  const noise = (j: number, t: number) => (hash(j * 100003 + t * 7 + 1) + hash(j * 100003 + t * 7 + 2) + hash(j * 100003 + t * 7 + 3) - 1.5) * 1.2;
  const member = (f: number, t: number) => hash(f * 7919 + t * 31 + 5) < 0.25;
  /** 400 tasks, tools A–D, 30 facets of about a quarter of the tasks each; A scores 0.8 higher on f0 only. */
  function claimsWith(rules: { ashCheck?: boolean }): string[] {
    const ids = Array.from({ length: 400 }, (_, t) => `t${String(t).padStart(3, '0')}`);
    const table = tableOf(400, (j, t) => 3 + noise(j, t) + (j === 0 && member(0, t) ? 0.8 : 0), 4);
    const facets = Array.from({ length: 30 }, (_, f) =>
      facetOf(
        `f${f}`,
        ids.filter((_, t) => member(f, t)),
      ),
    );
    const effects = computeEffects(table, facets);
    classifyClaims(table, facets, effects, null, rules);
    return effects.effects
      .filter((c) => c.effect.status === 'claim')
      .map((c) => `${c.toolId}/${facets[c.facet]!.facet.name} ${Math.sign(c.effect.deltaVsOthers!)}`)
      .sort();
  }

  it('by default the tools that trail A on f0 (A is among their "others") are claims too; with ashCheck only the claim on A remains', () => {
    expect(claimsWith({})).toEqual(['A/f0 1', 'B/f0 -1', 'C/f0 -1', 'D/f0 -1']);
    expect(claimsWith({ ashCheck: true })).toEqual(['A/f0 1']);
  });
});
