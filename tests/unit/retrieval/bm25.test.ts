import { describe, expect, it } from 'vitest';
import { Bm25Index, lexicalTokens } from '../../../src/core/retrieval';
import { rng } from './rng';

describe('lexicalTokens', () => {
  it('lower-cases, strips accents, splits on non-letters and drops stopwords', () => {
    expect(lexicalTokens('The Café is NOT open; 24/7 crêpes!')).toEqual(['cafe', 'not', 'open', '24', '7', 'crepes']);
  });
});

describe('Bm25Index', () => {
  // d1 "red apple" (2 tokens), d2 "green apple apple pie" (4), d3 "red car" (2): N = 3, avgdl = 8/3.
  // k1 = 1.2, b = 0.75. idf(red) = idf(apple) = ln(1 + (3 − 2 + 0.5)/(2 + 0.5)) = ln 1.6 = 0.4700036292.
  // Length factor K(len) = k1·(1 − b + b·len/avgdl): K(2) = 1.2·0.8125 = 0.975, K(4) = 1.2·1.375 = 1.65.
  const build = () => {
    const idx = new Bm25Index();
    idx.add('d1', 'red apple');
    idx.add('d2', 'green apple apple pie');
    idx.add('d3', 'red car');
    return idx;
  };

  it('scores a tiny corpus exactly as computed by hand', () => {
    const idx = build();
    expect(idx.idf('red')).toBeCloseTo(0.4700036292, 9);
    const s = idx.scores('red apple');
    // d1: 2 · ln1.6 · (1·2.2)/(1 + 0.975)            = 1.0470966930
    // d2: ln1.6 · (2·2.2)/(2 + 1.65)                  = 0.5665797174
    // d3: ln1.6 · 2.2/1.975                           = 0.5235483465
    expect(s.get('d1')).toBeCloseTo(1.047096693, 6);
    expect(s.get('d2')).toBeCloseTo(0.5665797174, 6);
    expect(s.get('d3')).toBeCloseTo(0.5235483465, 6);
    // "pie": df = 1, idf = ln(1 + 2.5/1.5) = 0.9808292530; d2: idf · 2.2/(1 + 1.65) = 0.8142733421
    expect(idx.scores('pie').get('d2')).toBeCloseTo(0.8142733421, 6);
    // Repeating a query word does not boost it; stopwords are ignored.
    expect(idx.scores('the red red apple').get('d1')).toBeCloseTo(1.047096693, 6);
  });

  it('search ranks, normalises by the best score, and filters', () => {
    const hits = build().search('red apple', { k: 10 });
    expect(hits.map((h) => h.id)).toEqual(['d1', 'd2', 'd3']);
    expect(hits[0]!.normalized).toBe(1);
    expect(hits[1]!.normalized).toBeCloseTo(0.5665797174 / 1.047096693, 6);
    expect(
      build()
        .search('red apple', { k: 10, filter: (id) => id !== 'd1' })
        .map((h) => h.id),
    ).toEqual(['d2', 'd3']);
    expect(build().search('zebra', { k: 10 })).toEqual([]);
  });

  it('updates incrementally on remove and replace', () => {
    const idx = build();
    idx.remove('d2');
    // N = 2, avgdl = 2, df(red) = 2: idf = ln(1 + 0.5/2.5) = ln 1.2; K(2) = 1.2 → tf part = 2.2/2.2 = 1.
    expect(idx.scores('red').get('d1')).toBeCloseTo(0.1823215568, 6);
    expect(idx.scores('apple').has('d2')).toBe(false);
    idx.add('d1', 'blue car'); // replace
    expect(idx.scores('apple').size).toBe(0);
    expect(idx.size).toBe(2);
  });

  it('gives the same scores as an index rebuilt from scratch after many edits', () => {
    const rand = rng(3);
    const words = 'cat dog red blue apple car tree sky river stone light dark'.split(' ');
    const text = () => Array.from({ length: 1 + Math.floor(rand() * 8) }, () => words[Math.floor(rand() * words.length)]).join(' ');
    const live = new Bm25Index();
    const docs = new Map<string, string>();
    for (let i = 0; i < 300; i++) {
      const id = `d${Math.floor(rand() * 120)}`;
      if (rand() < 0.25) {
        live.remove(id);
        docs.delete(id);
      } else {
        const t = text();
        live.add(id, t);
        docs.set(id, t);
      }
    }
    const fresh = new Bm25Index();
    for (const [id, t] of docs) fresh.add(id, t);
    for (const q of ['cat', 'red apple', 'sky river stone', 'dark light cat dog']) {
      const a = live.scores(q);
      const b = fresh.scores(q);
      expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
      for (const [id, s] of a) expect(s).toBeCloseTo(b.get(id)!, 12);
    }
  });
});
