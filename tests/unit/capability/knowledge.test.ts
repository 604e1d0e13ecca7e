/**
 * Issue #34 goldens, each computed by hand: a tag detector on a toy set, a facet weighted by the
 * probability its detector gives, the logit (Rasch-style) contrast against its closed form, P(best)
 * and rank intervals from a known posterior, an adaptive-shrinkage pick, and one number rendered
 * the same on every surface.
 */
import { describe, expect, it } from 'vitest';
import { FacetDetectors, learnDetectors, type DetectorSet } from '../../../src/core/capability/detectors';
import { auc, plattFit } from '../../../src/core/capability/score-calibration';
import { latentCells } from '../../../src/core/capability/latent';
import { latentContrast, pointsOf } from '../../../src/core/capability/latent-contrast';
import { boardPrior, facetLeaderboard, rankInterval, rankPosterior, shrunkLevel } from '../../../src/core/capability/leaderboard';
import { pickClaims, verifyPick } from '../../../src/core/capability/picks';
import { ashAbove, ashPosterior, fitAsh } from '../../../src/core/capability/ash';
import { CapabilityMemoryPredictor, ABSENT_ID, SHARED_ID } from '../../../src/core/capability/predictor';
import { entryText } from '../../../src/core/capability/templates';
import { formatChange, numberStyle, roundShown } from '../../../src/core/capability/number-style';
import type { Effect, Facet, SerializedCapabilityModel } from '../../../src/core/capability/types';
import { changeText, effectSummary, levelText } from '../../../src/ui/capability-format';

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

describe('tag detectors (detectors.ts)', () => {
  it('AUC and Platt calibration by hand', () => {
    // Positives at 0.35 and 0.8, negatives at 0.1 and 0.4: 3 of the 4 (positive, negative) pairs ordered → 0.75.
    expect(auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBe(0.75);
    // Ties count ½: one tied pair of one → 0.5.
    expect(auc([1, 1], [0, 1])).toBe(0.5);
    // Score −1: 1 of 4 tagged; score +1: 3 of 4. The logistic MLE is a = ln 3, b = 0 (the tiny ridge moves it < 1e-3).
    const [a, b] = plattFit([-1, -1, -1, -1, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 0]);
    expect(a).toBeCloseTo(Math.log(3), 2);
    expect(b).toBeCloseTo(0, 6);
  });

  it('a toy set: "not" marks the tag; held-out AUC 1, new prompts placed by the word', () => {
    const animals = ['cat', 'dog', 'bird', 'horse', 'fish'];
    const verbs = ['sleeping', 'running', 'eating', 'jumping'];
    const tasks = Array.from({ length: 20 }, (_, i) => {
      const tagged = i % 2 === 0;
      const prompt = `a ${animals[i % 5]} ${tagged ? 'not ' : ''}${verbs[i % 4]}`;
      return { prompt, categories: tagged ? ['negation'] : ['plain'] };
    });
    const { set, heldOut } = learnDetectors(tasks, ['negation'], { folds: 5 });
    expect(set.vocabulary).toContain('not');
    const d = set.detectors[0]!;
    expect(d.value).toBe('negation');
    expect(d.positives).toBe(10);
    // Out of fold, every tagged prompt scores above every untagged one.
    expect(d.auc).toBe(1);
    expect([...heldOut.get('negation')!].every((p, t) => (t % 2 === 0 ? p > 0.5 : p < 0.5))).toBe(true);
    const detectors = new FacetDetectors(set);
    expect(detectors.probabilities({ prompt: 'a zebra not grazing' }).get('negation')!).toBeGreaterThan(0.9);
    expect(detectors.probabilities({ prompt: 'a zebra grazing' }).get('negation')!).toBeLessThan(0.1);
  });
});

/** One category facet, two tools, a hand detector: P(negation | "not") = σ(−1 + 2) = σ(1). */
function handModel(): SerializedCapabilityModel {
  const negation: Facet = { kind: 'category', name: 'negation (tagged)', rule: { type: 'category', value: 'negation' } };
  const detectors: DetectorSet = {
    version: 1,
    vocabulary: ['not'],
    cues: [],
    dim: 0,
    vectorMean: [],
    detectors: [{ value: 'negation', weights: [2], bias: -1, platt: [1, 0], auc: 0.9, positives: 10, n: 40 }],
  };
  return {
    version: 1,
    scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
    globalMean: 2.75,
    model: { tools: ['A', 'B'], facets: [negation], mu: [3, 2.5], freq: [0.25], beta: [-0.4], gamma: [[-0.2], [0.2]], lambda: { beta: 1, gamma: 1 }, cv: [] },
    facets: [{ facet: negation }],
    labels: [[['mem:A:negation', 'Bad at tasks tagged "negation" …']], [['mem:B:negation', 'Good at tasks tagged "negation" …']]],
    order: [1, 0],
    orderGuard: false,
    detectors,
  };
}

describe('a facet weighted by its probability (predictor.ts)', () => {
  it("free text: the detector's probability replaces the tag; the line names the entry with that probability", () => {
    const p = CapabilityMemoryPredictor.fromModel(handModel());
    const prob = sigmoid(1); // 0.731059
    const pred = p.predict({ taskId: 'q', prompt: 'a cat not wearing a hat' }, 'A');
    // μ_A + (p − freq)(β + γ_A) = 3 + (0.731059 − 0.25)(−0.6) = 2.711365.
    expect(pred.score).toBeCloseTo(3 + (prob - 0.25) * -0.6, 9);
    expect(pred.score).toBeCloseTo(2.711365, 6);
    const own = pred.explanation.contributions.find((c) => c.entryId === 'mem:A:negation')!;
    // The tool's own deviation, γ_A − mean γ = −0.2, times (p − freq): −0.096212; the rest is shared.
    expect(own.points).toBeCloseTo((prob - 0.25) * -0.2, 9);
    expect(own.probability).toBeCloseTo(prob, 9);
    expect(own.text).toMatch(/^Bad at tasks tagged "negation"/);
    expect(pred.explanation.contributions.find((c) => c.entryId === SHARED_ID)!.points).toBeCloseTo((prob - 0.25) * -0.4, 9);
  });

  it('below ½ the facet does not apply: its small share is the "facets this task lacks" line', () => {
    const p = CapabilityMemoryPredictor.fromModel(handModel());
    const pred = p.predict({ taskId: 'q2', prompt: 'a cat wearing a hat' }, 'A');
    const prob = sigmoid(-1); // 0.268941
    expect(pred.score).toBeCloseTo(3 + (prob - 0.25) * -0.6, 9);
    expect(pred.explanation.contributions.map((c) => c.entryId)).toEqual([ABSENT_ID]);
  });

  it('known tags win over the detector: the tag counts 1, whatever the words', () => {
    const p = CapabilityMemoryPredictor.fromModel(handModel());
    const pred = p.predict({ taskId: 'q3', prompt: 'a cat wearing a hat', categories: ['negation'] }, 'B');
    expect(pred.score).toBeCloseTo(2.5 + 0.75 * (-0.4 + 0.2), 9);
    expect(pred.explanation.contributions.find((c) => c.entryId === 'mem:B:negation')!.probability).toBe(1);
  });
});

describe('the logit (Rasch-style) contrast (latent.ts)', () => {
  /**
   * Two tools, pass/fail. Inside the facet (8 tasks): j alone passes 2, k alone passes 4, 2 ties.
   * Outside (12 tasks): j alone 6, k alone 3, 3 ties. Conditional on the two differing, task
   * difficulty cancels: δ = ln(2·3 / (4·6)) = ln ¼, Woolf se √(1/2 + 1/4 + 1/6 + 1/3) = √1.25.
   * The claim is facet-minus-overall: × (12 / 20) = −0.83178, 95% half-width 1.959964·√1.25·0.6.
   */
  const member = [...new Array<number>(8).fill(1), ...new Array<number>(12).fill(0)];
  const j = [1, 1, 0, 0, 0, 0, 1, 0, /* outside */ 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0];
  const k = [0, 0, 1, 1, 1, 1, 1, 0, /* outside */ 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0];
  const delta = 0.6 * Math.log(0.25);
  const half = 1.959964 * Math.sqrt(1.25) * 0.6;

  it("latentContrast = the log odds ratio of the discordant pairs, with Woolf's interval", () => {
    const c = latentContrast([j, k], 0, member);
    expect(c.tested).toBe(true);
    expect(c.n).toBe(8);
    expect(c.delta).toBeCloseTo(delta, 4);
    expect(c.delta).toBeCloseTo(-0.83178, 4);
    expect(c.ci95[0]).toBeCloseTo(delta - half, 3);
    expect(c.ci95[1]).toBeCloseTo(delta + half, 3);
  });

  it("latentCells with a flat prior gives the same contrast; a pass-rate change is read at the facet's level", () => {
    const cell = latentCells({ v: [j, k], x: [member], tau2: 1e8, phi: [1, 1] }).cells[0]![0]!;
    expect(cell.mean).toBeCloseTo(delta, 3);
    expect(cell.sd).toBeCloseTo(Math.sqrt(1.25) * 0.6, 3);
    // j passes 37.5% inside; undoing the change: σ(ln 0.6 + 0.83178) = σ(0.32096) = 0.57956, so −20.5 points.
    expect(pointsOf(delta, 0.375, 8)).toBeCloseTo(0.375 - sigmoid(Math.log(0.375 / 0.625) - delta), 12);
    expect(pointsOf(delta, 0.375, 8)).toBeCloseTo(-0.20456, 4);
  });
});

describe('leaderboards: P(best) and rank intervals from a known posterior (leaderboard.ts)', () => {
  it('two normal levels: P(best) = Φ(Δ / √(s₁² + s₂²))', () => {
    const r = rankPosterior([
      { mean: 0, sd: 1 },
      { mean: 1, sd: 1 },
    ]);
    // Φ(1 / √2) = 0.760250
    expect(r.pBest[1]).toBeCloseTo(0.76025, 4);
    expect(r.pBest[0]).toBeCloseTo(0.23975, 4);
    expect(r.dist[1]).toEqual([expect.closeTo(0.76025, 4), expect.closeTo(0.23975, 4)]);
  });

  it('three equal levels: each is best with ⅓ and takes every rank with ⅓; known levels rank for sure', () => {
    const r = rankPosterior([
      { mean: 2, sd: 0.5 },
      { mean: 2, sd: 0.5 },
      { mean: 2, sd: 0.5 },
    ]);
    for (const row of r.dist) for (const p of row) expect(p).toBeCloseTo(1 / 3, 4);
    expect(rankInterval(r.dist[0]!)).toEqual([1, 3]);
    const sure = rankPosterior([
      { mean: 1, sd: 0 },
      { mean: 3, sd: 0 },
      { mean: 2, sd: 0 },
    ]);
    expect(sure.pBest).toEqual([0, 1, 0]);
    expect(rankInterval(sure.dist[2]!)).toEqual([2, 2]);
  });

  it("a facet's board: levels in scale units, ranks by the paired level", () => {
    // Two tasks, both in the facet; A scores 5, 4; B 3, 2; C 4, 4.
    const rows = facetLeaderboard(
      ['A', 'B', 'C'],
      [
        [5, 4],
        [3, 2],
        [4, 4],
      ],
      [
        [5, 4],
        [3, 2],
        [4, 4],
      ],
      [1, 1],
    );
    expect(rows.map((r) => [r.toolId, r.rank, r.mean, r.n])).toEqual([
      ['A', 1, 4.5, 2],
      ['C', 2, 4, 2],
      ['B', 3, 2.5, 2],
    ]);
    expect(rows[0]!.pBest).toBeGreaterThan(rows[1]!.pBest);
  });

  it('a facet level read with the overall one: with a one-normal prior, L + w·(ℓ − L), w = τ²/(τ² + s²), variance w·s² + s_L²', () => {
    // One component of sd 0.5 (τ² = 0.25); ℓ = 1.0 (se 0.5), L = 0.2 (se 0.1): w = ½, mean 0.6, sd √(0.125 + 0.01) = 0.367423.
    const normal = { sd: [0.5], weight: [1] };
    const p = shrunkLevel({ mean: 1, se: 0.5, n: 9 }, { mean: 0.2, se: 0.1, n: 100 }, normal);
    expect(p.mean).toBeCloseTo(0.6, 12);
    expect(p.sd).toBeCloseTo(0.367423, 6);
    // One task (se ∞): the overall level, with the prior's spread as its uncertainty: √(0.25 + 0.01).
    const one = shrunkLevel({ mean: 3, se: Infinity, n: 1 }, { mean: 0.2, se: 0.1, n: 100 }, normal);
    expect(one.mean).toBe(0.2);
    expect(one.sd).toBeCloseTo(0.509902, 6);
    // All prior mass at 0 (tools rank the same on every facet): the overall level, its own se.
    const none = shrunkLevel({ mean: 1, se: 0.5, n: 9 }, { mean: 0.2, se: 0.1, n: 100 }, { sd: [0], weight: [1] });
    expect(none).toEqual({ mean: 0.2, sd: expect.closeTo(0.1, 12) });
    // Half the mass at 0, half on N(0, 1): the weights are re-read from the data (posterior odds
    // φ(0.8; 1.25) / φ(0.8; 0.25) = 1.245181), the normal part shrinks 0.8 by 1 / 1.25: 0.2 + 0.554631 × 0.64.
    const mixed = shrunkLevel({ mean: 1, se: 0.5, n: 9 }, { mean: 0.2, se: 0.1, n: 100 }, { sd: [0, 1], weight: [0.5, 0.5] });
    expect(mixed.mean).toBeCloseTo(0.2 + (1.245181 / 2.245181) * 0.64, 5);
  });

  it("boards read together: overall levels, one prior over the table's cells, then each facet's posterior and P(best)", () => {
    // Tools A, B on 4 tasks; facet f = tasks 0–1, g = tasks 2–3. Task means 2, 1, 1, 2, so the paired
    // levels are c_A = 2, 1, 0, −1 and c_B = −c_A. Overall L_A = 0.5, s_L² = (5/3)/4 = 5/12; on f
    // ℓ_A = 1.5 (s² = 0.5/2 = 0.25), on g −0.5: every cell's deviation is ±1 with se 0.5.
    const v = [
      [4, 2, 1, 1],
      [0, 0, 1, 3],
    ];
    const f = [1, 1, 0, 0];
    const prior = boardPrior(v, v, [f, [0, 0, 1, 1]]);
    expect(prior.overall[0]).toEqual({ mean: 0.5, se: expect.closeTo(Math.sqrt(5 / 12), 12), n: 4 });
    expect(prior.overall[1]).toEqual({ mean: -0.5, se: expect.closeTo(Math.sqrt(5 / 12), 12), n: 4 });
    // The board's chances are rankPosterior's of the two posteriors; the levels stay in scale units.
    const a = shrunkLevel({ mean: 1.5, se: 0.5, n: 2 }, prior.overall[0]!, prior.fit);
    const b = shrunkLevel({ mean: -1.5, se: 0.5, n: 2 }, prior.overall[1]!, prior.fit);
    expect(a.mean).toBeGreaterThan(0.5);
    expect(a.mean).toBeLessThan(1.5);
    const read = facetLeaderboard(['A', 'B'], v, v, f, prior);
    expect(read.map((r) => [r.toolId, r.rank, r.mean, r.n])).toEqual([
      ['A', 1, 3, 2],
      ['B', 2, 0, 2],
    ]);
    expect(read[0]!.pBest).toBeCloseTo(rankPosterior([a, b]).pBest[0]!, 12);
    // Alone, the facet says Φ(3 / √0.5) = 0.999989; read with the overall levels it is less sure.
    expect(facetLeaderboard(['A', 'B'], v, v, f)[0]!.pBest).toBeCloseTo(0.999989, 4);
    expect(read[0]!.pBest).toBeLessThan(0.999989);
  });
});

describe('pick claims (picks.ts)', () => {
  it('the adaptive-shrinkage posterior: all mass on one wide component leaves the estimate ≈ as it is', () => {
    const fit = { sd: [0, 100], weight: [0, 1] };
    const parts = ashPosterior(fit, 0.5, 0.1);
    // Posterior of N(0, 100²) prior, N(b, 0.1²) data: mean b·10⁴/(10⁴ + 0.01).
    expect(parts[1]!.mean).toBeCloseTo(0.5 * (1e4 / (1e4 + 0.01)), 12);
    // P(−0.3 + θ > 0) with the shift's variance 0.1² added: Φ((0.5 − 0.3) / √(0.01 + 0.01)).
    expect(ashAbove(parts, -0.3, 0.01)).toBeCloseTo(0.92135, 4);
    expect(fitAsh([0, 0, 0], [1, 1, 1]).weight[0]).toBeGreaterThan(0.5);
  });

  it('a tool clearly ahead of the overall best on one facet is picked there, and the pick is checked on unseen tasks', () => {
    // 60 tasks; B is the overall best by 1 point; on the facet (tasks 0–29) A leads B by 1.
    const n = 60;
    const member = Array.from({ length: n }, (_, t) => (t < 30 ? 1 : 0));
    const wobble = (t: number) => ((t * 7) % 5) * 0.1 - 0.2;
    const a = Array.from({ length: n }, (_, t) => (t < 30 ? 4 : 1) + wobble(t));
    const b = Array.from({ length: n }, (_, t) => 3 + wobble(t + 1));
    const others = [member.map((m) => 1 - m)];
    const picks = pickClaims({ toolIds: ['A', 'B'], v: [a, b], scores: [a, b], x: [member, ...others], best: 1, likelyBest: [{ tool: 0, pBest: 1 }, null] });
    expect(picks).toHaveLength(1);
    const k = picks[0]!;
    expect([k.toolId, k.over, k.facet, k.n]).toEqual(['A', 'B', 0, 30]);
    expect(k.probability).toBeGreaterThan(0.99);
    expect(k.mean - k.overMean).toBeCloseTo(1, 1);
    const v = verifyPick(
      k,
      new Map([
        ['A', a],
        ['B', b],
      ]),
      member,
      { on: 'test-split', at: 0, minN: 10 },
    );
    expect(v.verdict).toBe('holds');
    expect(v.n).toBe(30);
  });
});

describe('one number per claim, the same rounded number on every surface', () => {
  const counting: Facet = { kind: 'category', name: 'counting', rule: { type: 'category', value: 'counting' } };

  it('1–5 scale: the text, the bar/tooltip line, the Tools card and MCP print −0.5 for −0.4649', () => {
    const e: Effect = {
      n: 43,
      deltaOwn: -0.9,
      deltaVsOthers: -0.4649,
      ci95: [-0.7512, -0.1788],
      q: 0.01,
      lfsr: 0.003,
      mean: 2.84,
      othersMean: 2.92,
      usual: 0.5,
      rank: 5,
      of: 6,
    };
    const style = numberStyle(4);
    const text = entryText('relative-weakness', counting, e, 'DALLE_3', { level: 'bad', showExample: false });
    expect(text).toContain('−0.5 against its usual margin (95% CI −0.8 to −0.2)');
    expect(changeText(e.deltaVsOthers!, style)).toBe('−0.5');
    expect(effectSummary(e, style)).toMatch(/^−0\.5 \(95% CI −0\.8 to −0\.2\) against its usual margin/);
    expect(roundShown(e.deltaVsOthers!, style)).toBe(-0.5);
    expect(levelText(e.mean!, style)).toBe('2.8');
  });

  it("pass/fail: percentage points everywhere, MCP's number the same fraction", () => {
    const e: Effect = {
      n: 125,
      deltaOwn: -0.1,
      deltaVsOthers: -0.0949,
      ci95: [-0.1449, -0.0351],
      q: 0.01,
      mean: 0.334,
      othersMean: 0.42,
      usual: 0.05,
      rank: 9,
      of: 14,
      latent: { delta: -0.4, ci95: [-0.62, -0.18] },
    };
    const style = numberStyle(1, true);
    expect(entryText('relative-weakness', counting, e, 'x', { level: 'bad', scaleWidth: 1, showExample: false })).toContain(
      '−9 points against its usual margin (95% CI −14 to −4 points)',
    );
    expect(formatChange(e.deltaVsOthers!, style)).toBe('−9 points');
    expect(effectSummary(e, style)).toMatch(/^−9 points \(95% CI −14 to −4 points\)/);
    expect(roundShown(e.deltaVsOthers!, style)).toBe(-0.09);
    expect(levelText(e.mean!, style)).toBe('33%');
  });
});
