import { describe, expect, it } from 'vitest';
import { aboveOthers, entryText, facetSubject, formatCount, formatNumber, sharedDifficultyNote, sharedEaseNote } from '../../../src/core/capability/templates';
import type { DiscoveredFacet, Effect, Facet } from '../../../src/core/capability/types';
import { mulberry32 } from '../../../src/core/eval/rng';

const negation: DiscoveredFacet = {
  facet: { kind: 'cue', name: 'negation', rule: { type: 'cue', cue: 'negation' } },
  taskIds: [],
  triggers: ['not', 'no', 'without'],
  example: 'A vase with no flowers, without water.',
};
const counting: Facet = { kind: 'category', name: 'counting', rule: { type: 'category', value: 'counting' } };
const snow: Facet = { kind: 'theme', name: 'theme: snow, park', rule: { type: 'theme', minSimilarity: 0.8, keywords: ['snow', 'park'] } };
const weak: Effect = { n: 43, deltaOwn: -0.86, deltaVsOthers: null, ci95: [-1.3, -0.5], q: 0.01, mean: 2.94, toolMean: 3.8, rank: 6, of: 6 };

describe('numbers', () => {
  it('uses one decimal, a real minus sign, thousands separators, never −0.0', () => {
    expect(formatNumber(-1.26)).toBe('−1.3');
    expect(formatNumber(12345.67)).toBe('12,345.7');
    expect(formatNumber(-0.04)).toBe('0.0');
    expect(formatNumber(0.42, 1, true)).toBe('+0.4');
    expect(formatCount(1340)).toBe('1,340');
  });
});

describe('entryText', () => {
  it('own weakness: means, n, CI, rank and an example containing the words shown', () => {
    expect(entryText('own-weakness', negation, weak, 'SDXL_2_1', { level: 'weak' })).toBe(
      `Weak at negation ("no", "without"): 2.9 vs its 3.8 (n = 43, 95% CI −1.3 to −0.5); lowest of 6 tools here; e.g. 'A vase with no flowers, without water'.`,
    );
  });
  it('shows the facet triggers only when no example is shown', () => {
    expect(entryText('own-weakness', negation, weak, 'SDXL_2_1', { level: 'bad', showExample: false })).toBe(
      'Bad at negation ("not", "no", "without"): 2.9 vs its 3.8 (n = 43, 95% CI −1.3 to −0.5); lowest of 6 tools here.',
    );
  });
  it('relative strength: the contrast with the other tools, signed', () => {
    const e: Effect = { n: 1340, deltaOwn: 0.1, deltaVsOthers: 0.42, ci95: [0.21, 0.63], q: 0.01, rank: 1, of: 6 };
    expect(entryText('relative-strength', counting, e, 'DALLE_3', { level: 'good', example: 'Three brick houses.' })).toBe(
      `Good at tasks tagged "counting": +0.4 vs the others beyond its usual margin (n = 1,340 paired tasks, 95% CI 0.2 to 0.6); highest of 6 tools here; e.g. 'Three brick houses'.`,
    );
    // Better than its usual margin yet still below the others there: no level word, no "highest".
    const behind: Effect = { ...e, mean: 3.0, othersMean: 3.4, rank: 6, of: 6 };
    expect(entryText('relative-strength', counting, behind, 'DALLE_3', { level: 'proficient', showExample: false })).toBe(
      'Better than usual at tasks tagged "counting", though below the others: +0.4 vs the others beyond its usual margin (n = 1,340 paired tasks, 95% CI 0.2 to 0.6); here 3.0 vs their 3.4, lowest of 6 tools.',
    );
  });
  it('relative weakness on a lower-better scale says worst, not lowest', () => {
    const e: Effect = { n: 20, deltaOwn: 0.2, deltaVsOthers: -0.5, ci95: [-0.9, -0.1], q: 0.02, rank: 4, of: 4 };
    expect(entryText('relative-weakness', snow, e, 'x', { level: 'weak', direction: 'lower-better', showExample: false })).toBe(
      'Weak at tasks about snow, park: −0.5 vs the others beyond its usual margin (n = 20 paired tasks, 95% CI −0.9 to −0.1); worst of 4 tools here.',
    );
  });
  it('two decimals on a 0–1 scale; a long example cut at a word within 80 characters', () => {
    const e: Effect = { n: 26, deltaOwn: 0.05, deltaVsOthers: null, ci95: [0.01, 0.09], q: 0.01, mean: 0.61, toolMean: 0.56, rank: 2, of: 6 };
    const example = 'A snowy landscape with snow deeper than the height of the nearby fence, in a park where children build a snowman.';
    expect(entryText('own-strength', snow, e, 'gpt', { level: 'proficient', scaleWidth: 1, example })).toBe(
      `Proficient at tasks about snow, park: 0.61 vs its 0.56 (n = 26, 95% CI 0.01 to 0.09); 2nd of 6 tools here; e.g. 'A snowy landscape with snow deeper than the height of the nearby fence, in a…'.`,
    );
  });
  it('without means, says the delta; without rank, no rank', () => {
    const e: Effect = { n: 5, deltaOwn: 0.61, deltaVsOthers: null, ci95: [0.2, 1.0], q: 0.1 };
    expect(entryText('own-strength', counting, e, 't', { level: 'good', showExample: false })).toBe('Good at tasks tagged "counting": +0.6 vs its mean (n = 5, 95% CI 0.2 to 1.0).');
  });
});

describe('facetSubject', () => {
  it('takes cue words from the example when the facet has none of them in it', () => {
    expect(facetSubject(negation, 'A sky that is never dark')).toBe('negation ("never")');
    expect(facetSubject(negation, 'A red apple')).toBe('negation');
  });
});

describe('dataset-level notes', () => {
  it('writes shared difficulty once, with each facet and its delta', () => {
    const diff: Facet = { kind: 'category', name: 'differentiation', rule: { type: 'category', value: 'differentiation' } };
    expect(sharedDifficultyNote([{ facet: negation.facet, delta: -0.81 }, { facet: diff, delta: -0.5 }])).toBe('Hard for every tool here: negation (−0.8), differentiation (−0.5).');
    expect(sharedEaseNote([snow, negation])).toBe('Easy for every tool here: snow/park, negation.');
    expect(sharedDifficultyNote([])).toBeNull();
  });
  it('lists at most eight facets and counts the rest', () => {
    const many = Array.from({ length: 10 }, (_, i): Facet => ({ kind: 'category', name: `c${i}`, rule: { type: 'category', value: `c${i}` } }));
    expect(sharedDifficultyNote(many)).toBe('Hard for every tool here: c0, c1, c2, c3, c4, c5, c6, c7 and 2 more.');
  });
});

describe('shared note: one name once', () => {
  it('a tag and a cue of the same name are listed once, with the first (larger) effect', async () => {
    const { sharedDifficultyNote } = await import('../../../src/core/capability/templates');
    const tag = { kind: 'category' as const, name: 'comparison (tagged)', rule: { type: 'category' as const, value: 'comparison' } };
    const cue = { kind: 'cue' as const, name: 'comparison', rule: { type: 'cue' as const, cue: 'comparison' } };
    expect(sharedDifficultyNote([{ facet: tag, delta: -0.74 }, { facet: cue, delta: -0.7 }])).toBe('Hard for every tool here: comparison (−0.7).');
  });
});

describe('words match the numbers (property test over generated effect tables)', () => {
  it('never a strength word or "highest/best" below the other tools, never a weakness word or "lowest/worst" above them', () => {
    const rng = mulberry32(2512);
    const facets: (Facet | DiscoveredFacet)[] = [negation, counting, snow];
    let checked = 0;
    for (let i = 0; i < 3000; i++) {
      const of = 2 + Math.floor(rng() * 12);
      const rank = 1 + Math.floor(rng() * of);
      const direction = rng() < 0.3 ? 'lower-better' : 'higher-better';
      const mean = 1 + 4 * rng();
      const othersMean = rng() < 0.05 ? mean : 1 + 4 * rng();
      const delta = (rng() < 0.5 ? -1 : 1) * (0.05 + rng());
      if (delta === 0) continue;
      const strength = delta > 0;
      const level = strength ? (rng() < 0.5 ? 'proficient' : 'good') : rng() < 0.5 ? 'weak' : 'bad';
      const e: Effect = { n: 10 + Math.floor(rng() * 500), deltaOwn: delta, deltaVsOthers: delta, ci95: [delta - 0.2, delta + 0.2], q: 0.01, mean, othersMean, rank, of };
      const text = entryText(strength ? 'relative-strength' : 'relative-weakness', facets[i % 3]!, e, 'tool', { level, direction, showExample: false });
      const above = aboveOthers(e, direction)!;
      if (!above) {
        expect(text, text).not.toMatch(/^(Proficient|Good) at/);
        expect(text, text).not.toMatch(/\b(highest|best) of/);
      } else {
        expect(text, text).not.toMatch(/^(Weak|Bad) at/);
        expect(text, text).not.toMatch(/\b(lowest|worst) of/);
      }
      // The claim's direction is said the way the number says it.
      expect(text.startsWith(strength ? 'Weak' : 'Proficient'), text).toBe(false);
      expect(text, text).toMatch(strength ? /: \+\d/ : /: −\d/);
      expect([...text].length).toBeLessThanOrEqual(300);
      checked++;
    }
    expect(checked).toBeGreaterThan(2900);
  });
});
