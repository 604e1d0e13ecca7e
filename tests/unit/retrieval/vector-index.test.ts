import { describe, expect, it } from 'vitest';
import { cosine } from '../../../src/core/embed';
import { compareScored, topK, topKIndices, VectorIndex, type VectorHit } from '../../../src/core/retrieval';
import { LEVELS, type Level } from '../../../src/core/types';
import { randomVector, rng } from './rng';

const DIM = 16;
const TOOLS = ['DALLE_3', 'SDXL_Base', 'Midjourney_6'];

interface Row {
  id: string;
  tool: string;
  level: Level;
  vector: Float32Array;
}

/** Reference: score everything with the plain cosine (the index packs unit vectors instead), full sort, take k. */
function bruteForce(rows: Iterable<Row>, q: Float32Array, k: number, tool?: string, level?: Level) {
  return [...rows]
    .filter((r) => (tool === undefined || r.tool === tool) && (level === undefined || r.level === level))
    .map((r) => ({ id: r.id, score: cosine(r.vector, q) }))
    .sort(compareScored)
    .slice(0, k);
}

const simplify = (hits: VectorHit[]) => hits.map((h) => ({ id: h.id, score: h.score }));

describe('topKIndices', () => {
  it('equals a full sort, ties broken by id, for every k', () => {
    const rand = rng(7);
    const items = Array.from({ length: 200 }, (_, i) => ({ id: `e${String(i).padStart(3, '0')}`, score: Math.round(rand() * 20) / 20 }));
    const sorted = [...items].sort(compareScored);
    for (const k of [0, 1, 5, 37, 200, 500]) expect(topK(items, k)).toEqual(sorted.slice(0, k));
  });
  it('ranks NaN last', () => {
    const scores = [0.5, NaN, 0.9];
    expect(
      topKIndices(
        3,
        3,
        (i) => scores[i]!,
        (i) => String(i),
      ),
    ).toEqual([2, 0, 1]);
  });
});

describe('VectorIndex', () => {
  const rand = rng(42);
  const rows = new Map<string, Row>();
  const index = new VectorIndex(DIM);
  for (let i = 0; i < 3000; i++) {
    const row: Row = {
      id: `entry-${i}`,
      tool: TOOLS[i % TOOLS.length]!,
      level: LEVELS[Math.floor(rand() * 4)]!,
      vector: randomVector(rand, DIM),
    };
    rows.set(row.id, row);
    index.add(row);
  }

  const check = () => {
    for (let trial = 0; trial < 5; trial++) {
      const q = randomVector(rand, DIM);
      for (const k of [1, 6, 12, 50, 5000]) {
        const got = simplify(index.search(q, { k }));
        const want = bruteForce(rows.values(), q, k);
        expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
        got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 5));
        for (const tool of TOOLS) {
          for (const level of LEVELS) {
            const scoped = index.search(q, { tool, level, k });
            expect(scoped.map((h) => h.id)).toEqual(bruteForce(rows.values(), q, k, tool, level).map((h) => h.id));
            expect(scoped.every((h) => h.tool === tool && h.level === level)).toBe(true);
          }
        }
        expect(index.search(q, { tool: TOOLS[0], k }).map((h) => h.id)).toEqual(bruteForce(rows.values(), q, k, TOOLS[0]).map((h) => h.id));
      }
    }
  };

  it('top-k equals brute force on random data (all, per tool, per tool × level)', () => {
    expect(index.size).toBe(3000);
    check();
  });

  it('still equals brute force after removals and superseding upserts', () => {
    for (let i = 0; i < 3000; i += 3) {
      expect(index.remove(`entry-${i}`)).toBe(true);
      rows.delete(`entry-${i}`);
    }
    expect(index.remove('entry-0')).toBe(false);
    // Supersede: same id moved to another level with a new vector; and an old id replaced by a new one.
    for (let i = 1; i < 600; i += 5) {
      const old = rows.get(`entry-${i}`);
      if (!old) continue; // removed above
      const updated: Row = { ...old, level: old.level === 'weak' ? 'good' : 'weak', vector: randomVector(rand, DIM) };
      index.add(updated);
      rows.set(updated.id, updated);
    }
    for (let i = 2; i < 600; i += 5) {
      const old = rows.get(`entry-${i}`);
      if (!old) continue;
      const successor: Row = { ...old, id: `${old.id}-v2`, vector: randomVector(rand, DIM) };
      index.supersede(old.id, successor);
      rows.delete(old.id);
      rows.set(successor.id, successor);
    }
    expect(index.size).toBe(rows.size);
    expect(index.has('entry-2')).toBe(false);
    expect(index.has('entry-2-v2')).toBe(true);
    check();
  });

  it('normalises stored and query vectors, keeps zero vectors at similarity 0, checks dimensions', () => {
    const small = new VectorIndex(2);
    small.add({ id: 'a', tool: 't', level: 'good', vector: [10, 0] });
    small.add({ id: 'z', tool: 't', level: 'good', vector: [0, 0] });
    const hits = small.search([3, 0], { k: 2 });
    expect(hits).toEqual([
      { id: 'a', tool: 't', level: 'good', score: 1 },
      { id: 'z', tool: 't', level: 'good', score: 0 },
    ]);
    expect(() => small.add({ id: 'b', tool: 't', level: 'good', vector: [1, 2, 3] })).toThrow(RangeError);
    expect(small.search([1, 0], { tool: 'other', k: 3 })).toEqual([]);
    expect(small.levelsOf('t')).toEqual(['good']);
    small.remove('a');
    small.remove('z');
    expect(small.levelsOf('t')).toEqual([]);
  });
});
