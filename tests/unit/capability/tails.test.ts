import { describe, expect, it } from 'vitest';
import { buildCapability } from '../../../src/core/capability/build';
import { classifyClaims } from '../../../src/core/capability/claims';
import { admitsOnNormalScores, chooseScale, contrastScaleOf, HEAVY_TAILS } from '../../../src/core/capability/contrast-scale';
import { computeEffects, type ScoreTable } from '../../../src/core/capability/effects';
import { excessKurtosis, normalQuantile, normalScoreTable, tailResiduals } from '../../../src/core/capability/tails';
import type { ScoreScale } from '../../../src/core/types';
import { experiencesOf, facetOf, jitter } from '../helpers/capability-fixtures';

const MQM: ScoreScale = { min: -25, max: 0, direction: 'higher-better', integer: false };

function tableOf(rows: number[][], scale: ScoreScale = MQM): ScoreTable {
  return {
    taskIds: rows[0]!.map((_, t) => `t${String(t).padStart(3, '0')}`),
    toolIds: rows.map((_, j) => String.fromCharCode(65 + j)),
    scores: rows.map((r) => Float64Array.from(r)),
    scale,
  };
}

describe('tails: residuals, excess kurtosis, normal scores (by hand)', () => {
  it('residuals are each tool’s advantage over the others minus its mean advantage, on the oriented scale', () => {
    // A = [1, 2, 6], B = [1, 1, 1]: advantages A [0, 1, 5] (mean 2), B [0, −1, −5] (mean −2).
    const up = tableOf([
      [1, 2, 6],
      [1, 1, 1],
    ]);
    expect(tailResiduals(up)).toEqual([-2, -1, 3, 2, 1, -3]);
    const down = { ...up, scale: { ...MQM, direction: 'lower-better' as const } };
    expect(tailResiduals(down)).toEqual([2, 1, -3, -2, -1, 3]);
    expect(tailResiduals(tableOf([[1, 2, 3]]))).toEqual([]);
  });

  it('excess kurtosis m4 / m2² − 3', () => {
    expect(excessKurtosis([-1, 1, -1, 1])).toBeCloseTo(-2, 12);
    // m2 = 8 / 8 = 1, m4 = 32 / 8 = 4.
    expect(excessKurtosis([-2, 0, 0, 0, 0, 0, 0, 2])).toBeCloseTo(1, 12);
    expect(excessKurtosis([1, -1, 0])).toBeNaN();
    expect(excessKurtosis([0, 0, 0, 0])).toBeNaN();
  });

  it('normal quantiles', () => {
    expect(normalQuantile(0.5)).toBeCloseTo(0, 6); // Φ is good to about 1e-7
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959964, 5);
    expect(() => normalQuantile(0)).toThrow(RangeError);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });

  it('normal scores over the whole table: Blom positions, ties share their mean rank, missing stays missing', () => {
    // Finite scores 1, 1, 2, 3, 5 (N = 5): ranks 1.5, 1.5, 3, 4, 5; p = (r − 3/8) / 5.25.
    const t = tableOf([
      [3, 1, NaN],
      [1, 5, 2],
    ]);
    const z = normalScoreTable(t);
    const a = z.scores[0]!;
    const b = z.scores[1]!;
    expect(a[0]).toBeCloseTo(0.4972006, 5); // r = 4: p = 0.690476
    expect(a[1]).toBeCloseTo(-0.7916386, 5); // r = 1.5: p = 0.214286
    expect(a[2]).toBeNaN();
    expect(b[0]).toBeCloseTo(-0.7916386, 5);
    expect(b[1]).toBeCloseTo(1.1797611, 5); // r = 5: p = 0.880952
    expect(b[2]).toBeCloseTo(0, 6); // r = 3: p = 0.5
    expect(z.scale.direction).toBe('higher-better');
    expect(z.scale.min).toBeCloseTo(-0.7916386, 5);
    expect(z.scale.max).toBeCloseTo(1.1797611, 5);
    expect(t.scores[0]![0]).toBe(3); // the input is not touched
  });
});

describe('contrast scale: which one the rule picks', () => {
  const n = 20;
  // Heavy tails: A loses 20 points on one task of 20, B never. Residuals: 19 × 1 and one −19 per tool,
  // m2 = (19 + 361) / 20 = 19, m4 = (19 + 130321) / 20 = 6517, excess kurtosis 6517 / 361 − 3 = 15.05.
  const heavy = tableOf([Array.from({ length: n }, (_, t) => (t === 0 ? -20 : 0)), Array.from({ length: n }, () => 0)]);
  // Light tails: A alternates ±1 around B's 0: residuals ±1, excess kurtosis −2.
  const light = tableOf([Array.from({ length: n }, (_, t) => (t % 2 ? -1 : -3)), Array.from({ length: n }, () => -2)]);

  it('heavy-tailed interval scores: score points and normal scores, the statistic named in the notes', () => {
    expect(HEAVY_TAILS).toBe(3);
    expect(excessKurtosis(tailResiduals(heavy))).toBeCloseTo(6517 / 361 - 3, 9);
    const c = chooseScale(heavy);
    expect(c.normal).toBe(true);
    expect(c.scale.kind).toBe('score');
    expect(c.scale.why).toContain('excess kurtosis 15.1, at least 3');
    expect(c.scale.why).toContain('normal scores');
  });

  it('light tails keep plain score points; pass/fail keeps logit; a rule set by the build wins', () => {
    expect(chooseScale(light)).toEqual({ scale: { kind: 'score', why: 'contrasts in score points' }, normal: false });
    const passFail = tableOf(
      [
        [0, 1, 1, 0],
        [1, 1, 0, 0],
      ],
      { min: 0, max: 1, direction: 'higher-better', integer: false },
    );
    expect(chooseScale(passFail).scale.kind).toBe('logit');
    expect(chooseScale(passFail).normal).toBe(false);
    expect(chooseScale(heavy, 'score').normal).toBe(false);
    expect(chooseScale(light, 'normal').normal).toBe(true);
    expect(contrastScaleOf(heavy, 'logit').kind).toBe('logit');
  });
});

function build(score: (j: number, t: number) => number): ScoreTable {
  return tableOf(Array.from({ length: 3 }, (_, j) => Array.from({ length: 60 }, (_, t) => score(j, t))));
}
function classify(t: ScoreTable, rule: 'score' | 'normal' | 'auto') {
  const f = [facetOf('F', [...t.taskIds.slice(0, 20)])];
  const effects = computeEffects(t, f);
  const result = classifyClaims(t, f, effects, null, { contrastScale: rule });
  return { a: effects.effects.find((c) => c.toolId === 'A')!.effect, effects, result };
}

describe('classifyClaims on normal scores', () => {
  it('a contrast made of a few large penalties is a claim in score points, tentative when it must hold on normal scores too; its numbers stay in points', () => {
    // A loses 10 points on 7 of the facet's 20 tasks and matches the others everywhere else.
    const t = build((j, u) => -1 + (j === 0 && u < 20 && u % 3 === 0 ? -10 : 0) + jitter(j, u));
    const score = classify(t, 'score');
    const auto = classify(t, 'auto');
    expect(score.a.status).toBe('claim');
    expect(auto.result.scale.why).toContain('excess kurtosis');
    expect(auto.a.status).toBe('tentative');
    expect(auto.a.deltaVsOthers).toBe(score.a.deltaVsOthers);
    expect(auto.a.ci95).toEqual(score.a.ci95);
    expect(auto.a.lfsr).toBe(score.a.lfsr);
  });

  it('a shift of every facet task holds on both scales', () => {
    const t = build((j, u) => -2 + (j === 0 && u < 20 ? -1.5 : 0) + jitter(j, u));
    expect(classify(t, 'normal').a.status).toBe('claim');
  });

  it('light tails: auto is the score scale to the last bit', () => {
    const t = build((j, u) => -2 + (j === 0 && u < 20 ? -0.8 : 0) + jitter(j, u));
    const score = classify(t, 'score');
    const auto = classify(t, 'auto');
    expect(auto.result.scale).toEqual({ kind: 'score', why: 'contrasts in score points' });
    expect(auto.effects).toEqual(score.effects);
  });
});

describe('admitsOnNormalScores reads the stored scale', () => {
  it('true only for the heavy-tail reason (auto or set by the build)', () => {
    const heavy = tableOf([Array.from({ length: 20 }, (_, t) => (t === 0 ? -20 : 0)), Array.from({ length: 20 }, () => 0)]);
    expect(admitsOnNormalScores(chooseScale(heavy).scale)).toBe(true);
    expect(admitsOnNormalScores(contrastScaleOf(heavy, 'normal'))).toBe(true);
    expect(admitsOnNormalScores(contrastScaleOf(heavy, 'score'))).toBe(false);
    expect(admitsOnNormalScores({ kind: 'score', why: 'contrasts in score points' })).toBe(false);
  });
});

describe('buildCapability: the build notes say which scale the claims used and why', () => {
  // 120 tasks, 3 tools on an MQM-like penalty scale; tasks 0–59 are tagged "long".
  const input = (score: (j: number, t: number) => number) => ({
    scale: MQM,
    experiences: experiencesOf(120, ['A', 'B', 'C'], (j, t) => ({ prompt: `segment ${t}`, score: score(j, t), categories: [t < 60 ? 'long' : 'short'] })),
    memoryId: 'm',
    idPrefix: 'b',
    at: 1,
    kinds: ['category' as const],
  });
  const contrasts = (score: (j: number, t: number) => number) => {
    const report = buildCapability(input(score)).snapshot.report;
    return { notes: report.notes.filter((n) => n.startsWith('Contrasts:')), scale: report.contrastScale };
  };

  it('rare large penalties (each tool loses 15 points on one task in 30): score points, and normal scores too, with the statistic', () => {
    const { notes, scale } = contrasts((j, t) => -1 + (t % 30 === j ? -15 : 0) + jitter(j, t));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^Contrasts: contrasts in score points; a claim must also hold on normal scores \(.*\), because the tools' per-task differences have heavy tails \(excess kurtosis \d+\.\d, at least 3\), where a mean over a few dozen tasks is not yet near normal\.$/,
    );
    expect(scale!.kind).toBe('score');
    expect(admitsOnNormalScores(scale!)).toBe(true);
  });

  it('light tails: plain score points, as before', () => {
    const { notes, scale } = contrasts((j, t) => -2 + (j === 0 && t < 60 ? -1 : 0) + jitter(j, t));
    expect(notes).toEqual(['Contrasts: contrasts in score points.']);
    expect(scale).toEqual({ kind: 'score', why: 'contrasts in score points' });
  });
});
