import { describe, expect, it } from 'vitest';
import { explanationOf, segment, waterfall } from '../../../src/ui/contributions';

const c = (entryId: string, points: number) => ({ entryId, text: `entry ${entryId}`, points });

describe('waterfall', () => {
  it('starts at the mean, steps by each contribution largest |points| first, ends at mean + Σ points', () => {
    const w = waterfall({ mean: 3, contributions: [c('a', 0.1), c('b', -0.5), c('dataset:negation', 0.3)] }, 2.9);
    expect(w.rows.map((r) => r.entryId)).toEqual(['b', 'dataset:negation', 'a']);
    expect(w.rows[0]).toMatchObject({ from: 3, to: 2.5, shared: false });
    expect(w.rows[1]!.shared).toBe(true);
    expect(w.rows.some((r) => r.aggregate)).toBe(false);
    expect(waterfall({ mean: 3, contributions: [c('other', 0.1)] }, 3.1).rows[0]!.aggregate).toBe(true);
    expect(w.rows[1]!.from).toBeCloseTo(2.5);
    expect(w.total).toBeCloseTo(2.9);
    expect(w.rest).toBeNull();
    expect(w.lo).toBeLessThan(2.5);
    expect(w.hi).toBeGreaterThan(3);
  });

  it('sums the contributions past maxRows into one row', () => {
    const w = waterfall({ mean: 3, contributions: [c('a', 0.4), c('b', 0.3), c('c', -0.2), c('d', 0.1)] }, 3.6, 2);
    expect(w.rows.map((r) => r.entryId)).toEqual(['a', 'b']);
    expect(w.rest!.count).toBe(2);
    expect(w.rest!.points).toBeCloseTo(-0.1);
    expect(w.total).toBeCloseTo(3.6);
  });

  it('covers a clamped score on its axis, and gives a segment a visible width', () => {
    const w = waterfall({ mean: 4.8, contributions: [c('a', 0.6)] }, 5);
    expect(w.total).toBeCloseTo(5.4);
    const s = segment(w, 4.8, 5.4);
    expect(s.left).toBeGreaterThan(0);
    expect(s.left + s.width).toBeLessThan(100);
    expect(segment(w, 5, 5).width).toBeGreaterThan(0);
  });

  it('keeps the axis at least minSpan wide, so a small step does not fill the track', () => {
    const w = waterfall({ mean: 3.79, contributions: [c('a', -0.26), c('b', 0.05)] }, 3.58, 8, 1);
    expect(w.hi - w.lo).toBeCloseTo(1);
    expect(w.lo).toBeLessThan(3.53);
    expect(w.hi).toBeGreaterThan(3.79);
  });

  it('reads an explanation only when it is well formed', () => {
    expect(explanationOf({})).toBeNull();
    expect(explanationOf({ explanation: { mean: Number.NaN, contributions: [] } })).toBeNull();
    expect(explanationOf({ explanation: { mean: 3, contributions: [] } })).toEqual({ mean: 3, contributions: [] });
  });
});
