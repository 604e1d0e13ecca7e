import { describe, expect, it } from 'vitest';
import { ALPHA_GRID, chooseAlpha, HybridRetriever, minMaxNormalise, mrrObjective, type RetrievalExample } from '../../../src/core/retrieval';
import { CancelledError } from '../../../src/core/errors';
import { LEVELS } from '../../../src/core/types';
import { randomVector, rng } from './rng';

const DIM = 12;
const WORDS = 'cat dog red blue apple car tree sky river stone light dark bright small huge'.split(' ');

function corpus(seed: number) {
  const rand = rng(seed);
  const r = new HybridRetriever(DIM);
  for (let i = 0; i < 400; i++) {
    const text = Array.from({ length: 2 + Math.floor(rand() * 6) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
    r.add({ id: `e${i}`, tool: i % 2 ? 'A' : 'B', level: LEVELS[i % 4]!, text, vector: randomVector(rand, DIM) });
  }
  return { r, rand };
}

describe('minMaxNormalise', () => {
  it('maps to [0, 1] and a constant list to zeros', () => {
    expect(minMaxNormalise([2, 4, 3])).toEqual([0, 1, 0.5]);
    expect(minMaxNormalise([5, 5])).toEqual([0, 0]);
    expect(minMaxNormalise([])).toEqual([]);
  });
});

describe('HybridRetriever', () => {
  const { r, rand } = corpus(11);

  it('alpha = 1 ranks exactly like dense cosine', () => {
    for (let t = 0; t < 10; t++) {
      const q = { text: 'red apple tree', vector: randomVector(rand, DIM) };
      for (const scope of [{}, { tool: 'A' }, { tool: 'B', level: 'weak' as const }]) {
        const hybrid = r.search(q, { ...scope, k: 25, alpha: 1 });
        const dense = r.vectors.search(q.vector, { ...scope, k: 25 });
        expect(hybrid.map((h) => h.id)).toEqual(dense.map((h) => h.id));
        hybrid.forEach((h, i) => expect(h.dense).toBeCloseTo(dense[i]!.score, 12));
      }
    }
  });

  it('alpha = 0 ranks exactly like BM25 (documents without a query term follow, by id)', () => {
    for (const text of ['red apple', 'sky', 'huge small dark river']) {
      const q = { text, vector: randomVector(rand, DIM) };
      const scope = { tool: 'A', level: 'good' as const };
      const inScope = new Set(r.vectors.scoreAll(q.vector, scope).map((h) => h.id));
      const lexical = r.lexical.search(text, { k: 1000, filter: (id) => inScope.has(id) });
      const hybrid = r.search(q, { ...scope, k: inScope.size, alpha: 0 });
      expect(hybrid.slice(0, lexical.length).map((h) => h.id)).toEqual(lexical.map((h) => h.id));
      const rest = hybrid.slice(lexical.length);
      expect(rest.every((h) => h.lexical === 0)).toBe(true);
      expect(rest.map((h) => h.id)).toEqual(rest.map((h) => h.id).sort());
    }
  });

  it('mixes both scores and keeps them in [0, 1]; remove takes a doc out of both indexes', () => {
    const q = { text: 'cat dog', vector: randomVector(rand, DIM) };
    const hits = r.search(q, { k: 10 });
    for (const h of hits) expect(h.score).toBeGreaterThanOrEqual(0);
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    expect(() => r.search(q, { k: 1, alpha: 1.5 })).toThrow(RangeError);
    const id = hits[0]!.id;
    expect(r.remove(id)).toBe(true);
    expect(r.lexical.has(id)).toBe(false);
    expect(r.search(q, { k: 10 }).some((h) => h.id === id)).toBe(false);
  });
});

describe('chooseAlpha', () => {
  it('evaluates the 0…1 grid in steps of 0.1 and returns the best, first on ties', async () => {
    expect(ALPHA_GRID).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    const peak = await chooseAlpha((a) => -((a - 0.7) ** 2));
    expect(peak.alpha).toBe(0.7);
    expect(peak.table).toHaveLength(11);
    const flat = await chooseAlpha(async (a) => (a >= 0.3 ? 1 : 0));
    expect(flat.alpha).toBe(0.3);
    expect((await chooseAlpha((a) => (a === 0 ? NaN : a))).alpha).toBe(1);
  });

  it('is cancellable', async () => {
    const c = new AbortController();
    c.abort();
    await expect(chooseAlpha(() => 0, { signal: c.signal })).rejects.toBeInstanceOf(CancelledError);
  });

  it('with the MRR objective, prefers lexical when only the words identify the answer', async () => {
    const rand = rng(5);
    const r = new HybridRetriever(DIM);
    const examples: RetrievalExample[] = [];
    for (let i = 0; i < 60; i++) {
      const tag = `topic${i}`;
      // Vectors are noise; each document's unique tag word is the only signal.
      r.add({ id: `d${i}`, tool: 'T', level: 'good', text: `${tag} ${WORDS[i % WORDS.length]}`, vector: randomVector(rand, DIM) });
      examples.push({ tool: 'T', query: { text: tag, vector: randomVector(rand, DIM) }, relevant: [`d${i}`] });
    }
    const choice = await chooseAlpha(mrrObjective(r, examples, 5));
    expect(choice.alpha).toBeLessThanOrEqual(0.4);
    expect(choice.score).toBe(1);
    expect(choice.table.at(-1)!.score).toBeLessThan(0.5);
  });
});
