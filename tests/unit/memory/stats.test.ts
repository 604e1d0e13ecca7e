/** The numeric building blocks of evidence clusters, against reference values (SciPy). */
import { describe, expect, it } from 'vitest';
import {
  agglomerative,
  benjaminiHochberg,
  clusterEntryText,
  cohensD,
  distinctiveWords,
  documentFrequencies,
  evidenceClusters,
  kmeans,
  moments,
  splitTasks,
  tTestP,
  welch,
} from '../../../src/core/memory';
import { rng } from '../retrieval/rng';

describe('statistics', () => {
  it('two-sided t p-values match SciPy', () => {
    expect(tTestP(2, 10)).toBeCloseTo(0.07338803477074, 10);
    expect(tTestP(1, 1)).toBeCloseTo(0.5, 12);
    expect(tTestP(3.5, 2.5)).toBeCloseTo(0.05234554696032, 10);
    expect(tTestP(0, 7)).toBeCloseTo(1, 12);
  });

  it("Welch's test matches scipy.stats.ttest_ind(equal_var=False)", () => {
    const w = welch(moments([1, 2, 3, 4, 5]), moments([2, 4, 6, 8, 10]));
    expect(w.t).toBeCloseTo(-1.8973665961010275, 12);
    expect(w.p).toBeCloseTo(0.10753119493062728, 8);
    expect(welch(moments([3, 3, 3]), moments([3, 3]))).toMatchObject({ t: 0, p: 1 });
    expect(welch(moments([4, 4, 4]), moments([2, 2, 2])).p).toBe(0);
  });

  it("Cohen's d and Benjamini–Hochberg", () => {
    expect(cohensD(moments([2, 4, 6]), moments([1, 3, 5]))).toBeCloseTo(0.5, 12);
    const q = benjaminiHochberg([0.01, 0.04, 0.03, 0.2]);
    expect(q.map((x) => Number(x.toFixed(6)))).toEqual([0.04, 0.053333, 0.053333, 0.2]);
  });
});

describe('clustering', () => {
  const r = rng(3);
  // Three well separated blobs on the unit sphere in 8-d.
  const centres = [0, 1, 2].map((c) => Array.from({ length: 8 }, (_, d) => (d % 3 === c ? 1 : 0)));
  const points = Array.from({ length: 30 }, (_, i) => {
    const v = centres[i % 3]!.map((x) => x + (r() - 0.5) * 0.2);
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  });

  it('k-means is deterministic for a seed and finds separated blobs', () => {
    const a = kmeans(points, 3, { seed: 5 });
    const b = kmeans(points, 3, { seed: 5 });
    expect(Array.from(a.assignment)).toEqual(Array.from(b.assignment));
    for (let i = 3; i < 30; i++) expect(a.assignment[i]).toBe(a.assignment[i % 3]);
  });

  it('the average-linkage dendrogram has n − 1 nested nodes, blobs first', () => {
    const { nodes } = agglomerative(points);
    expect(nodes).toHaveLength(29);
    expect(nodes[nodes.length - 1]).toEqual(Array.from({ length: 30 }, (_, i) => i));
    const blobs = nodes.filter((n) => n.length === 10).map((n) => n.map((i) => i % 3));
    expect(blobs).toHaveLength(3);
    for (const b of blobs) expect(new Set(b).size).toBe(1);
  });

  it('finds the blob whose scores differ and words that describe it', () => {
    const texts = points.map((_, i) => (i % 3 === 0 ? `a cat sitting on a windowsill at sunset number ${i}` : `some other scene ${i} with things`));
    const scores = points.map((_, i) => (i % 3 === 0 ? 5 - (i % 2) * 0.5 : 2 + (i % 4) * 0.5));
    const out = evidenceClusters(
      { experienceIds: points.map((_, i) => `x${i}`), texts, scores, vectors: points, direction: 'higher-better' },
      { maxShare: 0.4 },
    );
    const best = out.find((c) => c.level === 'proficient')!;
    expect(best.evidence.sort()).toEqual(Array.from({ length: 10 }, (_, j) => `x${j * 3}`).sort());
    expect(best.tier).toBe('confident');
    expect(best.text).toMatch(
      /^Excels at tasks like "a cat sitting on a windowsill at sunset number \d+" \(.*cat.*\) — mean 4\.75 vs 3\.\d+ overall, 10 tasks$/,
    );
    // Lower-is-better scales flip the levels.
    const flipped = evidenceClusters(
      { experienceIds: points.map((_, i) => `x${i}`), texts, scores, vectors: points, direction: 'lower-better' },
      { maxShare: 0.4 },
    );
    expect(flipped.find((c) => c.evidence.includes('x0'))!.level).toBe('weak');
  });

  it('entry texts stay within 300 characters and words skip contraction stems', () => {
    const text = clusterEntryText({
      level: 'bad',
      typical: 'word '.repeat(200),
      words: ['alpha', 'beta'],
      mean: 2.25,
      overall: 3.5,
      size: 12,
      tier: 'tentative',
      p: 0.061,
    });
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).toMatch(/— mean 2\.25 vs 3\.5 overall, 12 tasks; tentative, p = 0\.06$/);
    const all = ["it doesn't fly", "a bird that doesn't sing", 'a plane'];
    expect(distinctiveWords(all.slice(0, 2), documentFrequencies(all), 3)).toEqual([]);
  });

  it('the seeded task split is stable and disjoint', () => {
    const ids = Array.from({ length: 50 }, (_, i) => String(i).padStart(5, '0'));
    const a = splitTasks(ids, { train: 20, seed: 1 });
    expect(splitTasks([...ids].reverse(), { train: 20, seed: 1 })).toEqual(a);
    expect(a.train).toHaveLength(20);
    expect(new Set([...a.train, ...a.test]).size).toBe(50);
    expect(splitTasks(ids, { train: 20, seed: 2 }).train).not.toEqual(a.train);
    expect(splitTasks(ids, {})).toEqual({ train: ids, test: [] });
  });
});
