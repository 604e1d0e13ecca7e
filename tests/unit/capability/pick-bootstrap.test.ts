import { describe, expect, it } from 'vitest';
import { selectionBootstrap, selectionFromDraws } from '../../../src/core/capability/pick-bootstrap';
import { pickClaims } from '../../../src/core/capability/picks';

describe('the selection bootstrap of a pick (bias of the facet maximum, share that survives)', () => {
  // Tools: B (index 0, the overall best), A, C. Facet = tasks 0 and 1; task 2 lies outside it.
  // Leads over B on the facet: A = [1, 0], C = [0, 0.8]; full sample: A 0.5, C 0.4, so A is selected.
  const B = [3, 3, 3];
  const A = [4, 3, 9];
  const C = [3, 3.8, 9];
  const member = [1, 1, 0];
  // The four equally likely draws of two tasks from two: (2,0), (1,1) twice, (0,2).
  const draws = [Int32Array.of(2, 0), Int32Array.of(1, 1), Int32Array.of(1, 1), Int32Array.of(0, 2)];

  it('hand-computed: bias 0.2, corrected lead 0.3, share 0.75 for the pick', () => {
    // Selected leads per draw: A 1, A 0.5, A 0.5, C 0.8 → mean 0.7; bias = 0.7 − 0.5 = 0.2.
    // A is selected in 3 draws with leads 1, 0.5, 0.5, each > 0.2: share 3/4.
    const r = selectionFromDraws([B, A, C], member, 0, 1, draws);
    expect(r.lead).toBeCloseTo(0.5, 12);
    expect(r.top).toBeCloseTo(0.5, 12);
    expect(r.bias).toBeCloseTo(0.2, 12);
    expect(r.corrected).toBeCloseTo(0.3, 12);
    expect(r.share).toBeCloseTo(0.75, 12);
    expect(r.selected).toBe(3);
    // C, selected only in (0,2) with lead 0.8 > 0.2: share 1/4.
    const c = selectionFromDraws([B, A, C], member, 0, 2, draws);
    expect(c.lead).toBeCloseTo(0.4, 12);
    expect(c.share).toBeCloseTo(0.25, 12);
    expect(c.selected).toBe(1);
  });

  it('a task missing one tool counts only for the tools scored on it', () => {
    // C has no score on task 0: its leads are [NaN, 0.8], mean 0.8 on every draw that has task 1.
    const r = selectionFromDraws([B, A, [NaN, 3.8, 9]], member, 0, 1, draws);
    // Selected per draw: A 1 (C absent), C 0.8, C 0.8, C 0.8 → mean 0.85; full top 0.8 (C): bias 0.05.
    expect(r.top).toBeCloseTo(0.8, 12);
    expect(r.bias).toBeCloseTo(0.05, 12);
    expect(r.share).toBeCloseTo(0.25, 12);
  });

  it('an unambiguous pick survives every resample, and the seeded draws repeat exactly', () => {
    const lead = [0.9, 1.1, 1, 1.2, 0.8, 1, 1, 1.1, 0.9, 1];
    const base = lead.map(() => 2);
    const pick = lead.map((d) => 2 + d);
    const weak = lead.map((_, t) => 2 + (t % 2 ? 0.1 : -0.1));
    const all = lead.map(() => 1);
    const once = selectionBootstrap([base, pick, weak], all, 0, 1, { seed: 7 });
    expect(once.lead).toBeCloseTo(1, 12);
    expect(once.share).toBe(1);
    expect(once.selected).toBe(200);
    expect(selectionBootstrap([base, pick, weak], all, 0, 1, { seed: 7 })).toEqual(once);
  });

  it('pickClaims drops a pick whose lead over a near-tied rival does not survive the resamples', () => {
    // 60 tasks; B leads overall; on the facet (tasks 0–29) A and C both lead B by about 1, A by a hair.
    const n = 60;
    const member = Array.from({ length: n }, (_, t) => (t < 30 ? 1 : 0));
    const wobble = (t: number) => ((t * 7) % 5) * 0.1 - 0.2;
    const b = Array.from({ length: n }, (_, t) => 3 + wobble(t + 1));
    const a = Array.from({ length: n }, (_, t) => (t < 30 ? 4.01 : 1) + wobble(t));
    const c = Array.from({ length: n }, (_, t) => (t < 30 ? 4 : 1) + wobble(t + 3));
    const x = [member, member.map((m) => 1 - m)];
    const input = { toolIds: ['A', 'B', 'C'], scores: [a, b, c], x, best: 1, likelyBest: [{ tool: 0, pBest: 0.5 }, null] };
    expect(pickClaims({ ...input, v: [a, b, c] })).toHaveLength(0);
    // Without the rival the same pick stands.
    const far = c.map((y, t) => (t < 30 ? y - 1 : y));
    expect(pickClaims({ ...input, v: [a, b, far], scores: [a, b, far] })).toHaveLength(1);
  });
});
