import { describe, expect, it } from 'vitest';
import { kneeCut, kneeIndex, kneeTopN, kneeTopNPerLevel, topKPerLevel, VectorIndex } from '../../../src/core/retrieval';

const step = (high: number, n: number) => Array.from({ length: n }, (_, i) => (i < high ? 0.9 : 0.2));

describe('kneeCut (Kneedle on a descending similarity curve)', () => {
  it('keeps exactly the plateau of a step curve, wherever the step is', () => {
    expect(kneeCut(step(4, 10))).toBe(4); // elbow below the chord: first low point is the knee
    expect(kneeCut(step(7, 10))).toBe(7); // shoulder above the chord: last high point is the knee
    expect(kneeCut(step(2, 20))).toBe(2);
  });

  it('finds the elbow of an exponential decay where the analysis puts it', () => {
    // s_i = exp(−i/2.5), i = 0…20. On the scaled curve the slope equals the chord's (−1) at
    // i* = 2.5·ln(8 / (1 − e^−8)) ≈ 5.20; the discrete distances are d_5 = −0.6150 > |d_6| = 0.6096.
    const curve = Array.from({ length: 21 }, (_, i) => Math.exp(-i / 2.5));
    expect(kneeIndex(curve)).toEqual({ index: 5, distance: expect.closeTo(-0.615, 3) as unknown as number });
    expect(kneeCut(curve)).toBe(5);
  });

  it('finds the shoulder of a concave curve and keeps it', () => {
    // s_i = 1 − (i/20)³: d(x) = x − x³ peaks at x = 1/√3 (i ≈ 11.55); d_12 = 0.384 > d_11 = 0.3836.
    const curve = Array.from({ length: 21 }, (_, i) => 1 - (i / 20) ** 3);
    expect(kneeIndex(curve)?.index).toBe(12);
    expect(kneeCut(curve)).toBe(13);
  });

  it('honours the [min, max] bounds and the length', () => {
    expect(kneeCut(step(7, 10), { max: 5 })).toBe(5);
    expect(kneeCut(step(2, 10), { min: 4 })).toBe(4);
    expect(kneeCut(step(2, 10), { min: 20, max: 30 })).toBe(10);
    expect(kneeCut([], { min: 3 })).toBe(0);
    expect(kneeCut([0.5, 0.4], { max: 1 })).toBe(1);
  });

  it('keeps everything allowed when there is no knee (flat or straight curves)', () => {
    expect(kneeIndex([0.5, 0.5, 0.5, 0.5])).toBeNull();
    expect(kneeCut([0.5, 0.5, 0.5, 0.5], { max: 3 })).toBe(3);
    expect(kneeIndex([0.9, 0.7, 0.5, 0.3, 0.1])).toBeNull();
    expect(kneeCut([0.9, 0.7, 0.5, 0.3, 0.1])).toBe(5);
  });
});

describe('per-level retrieval', () => {
  // Unit vectors at angles, so cosine to the query [1, 0] is cos(angle).
  const at = (deg: number) => [Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)];
  const index = new VectorIndex(2);
  const add = (id: string, level: 'proficient' | 'good' | 'bad' | 'weak', deg: number, tool = 'T') => index.add({ id, tool, level, vector: at(deg) });
  // 'good' has four near-duplicates of the query; 'weak' three; 'bad' one far entry.
  ['g1', 'g2', 'g3', 'g4'].forEach((id, i) => add(id, 'good', i));
  ['w1', 'w2', 'w3'].forEach((id, i) => add(id, 'weak', 30 + i));
  add('b1', 'bad', 80);
  add('x1', 'good', 0, 'OTHER');
  // A tail that drops sharply after three close entries, for the knee.
  ['p1', 'p2', 'p3'].forEach((id, i) => add(id, 'proficient', 5 + i));
  ['p4', 'p5', 'p6', 'p7', 'p8', 'p9'].forEach((id, i) => add(id, 'proficient', 75 + i));

  it('returns the top k of every level separately, so a crowded level cannot crowd out others', () => {
    const res = topKPerLevel(index, [1, 0], 'T', 2);
    expect(res.good.map((h) => h.id)).toEqual(['g1', 'g2']);
    expect(res.weak.map((h) => h.id)).toEqual(['w1', 'w2']);
    expect(res.bad.map((h) => h.id)).toEqual(['b1']);
    expect(res.proficient.map((h) => h.id)).toEqual(['p1', 'p2']);
    expect(Object.keys(res).sort()).toEqual(['bad', 'good', 'proficient', 'weak']);
  });

  it('kneeTopN cuts at the drop and honours bounds', () => {
    expect(kneeTopN(index, [1, 0], { tool: 'T', level: 'proficient' }).map((h) => h.id)).toEqual(['p1', 'p2', 'p3']);
    expect(kneeTopN(index, [1, 0], { tool: 'T', level: 'proficient', max: 2 })).toHaveLength(2);
    expect(kneeTopN(index, [1, 0], { tool: 'T', level: 'proficient', min: 5 })).toHaveLength(5);
    const per = kneeTopNPerLevel(index, [1, 0], 'T', { max: 12 });
    expect(per.proficient.map((h) => h.id)).toEqual(['p1', 'p2', 'p3']);
    expect(per.bad).toHaveLength(1);
  });
});
