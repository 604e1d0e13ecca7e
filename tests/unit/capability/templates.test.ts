import { describe, expect, it } from 'vitest';
import { entryText, facetSubject, sharedDifficultyNote, sharedEaseNote, standing } from '../../../src/core/capability/templates';
import { formatChange, formatCount, formatLevel, formatNumber, numberStyle } from '../../../src/core/capability/number-style';
import { standingLevel } from '../../../src/core/capability/entries';
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
  it('relative entries lead with the level against the others, then the change from the usual lead (issue #34)', () => {
    // Usual lead +0.5 (raw: here −0.1 = usual + raw change −0.6); the claim, shrunk, is −0.5.
    const bad: Effect = {
      n: 43,
      deltaOwn: -0.9,
      deltaVsOthers: -0.5,
      ci95: [-0.8, -0.2],
      q: 0.01,
      mean: 2.84,
      othersMean: 2.92,
      usual: 0.5,
      rank: 5,
      of: 6,
      raw: { delta: -0.6, ci95: [-1, -0.2] },
    };
    expect(entryText('relative-weakness', counting, bad, 'DALLE_3', { level: 'bad', showExample: false })).toBe(
      'Bad at tasks tagged "counting": 2.8 vs their 2.9, 5th of 6 tools (n = 43 paired tasks). Its usual lead of +0.5 turns into a deficit here: −0.5 against its usual margin (95% CI −0.8 to −0.2).',
    );
    // Still the highest, leading less than usual: "leads less than usual", never a weakness word.
    const less: Effect = { ...bad, mean: 3.4, othersMean: 2.9, usual: 0.9, rank: 1 };
    expect(entryText('relative-weakness', counting, less, 'DALLE_3', { level: 'good', example: 'Three brick houses.' })).toBe(
      `Leads less than usual at tasks tagged "counting": 3.4 vs their 2.9, highest of 6 tools (n = 43 paired tasks); e.g. 'Three brick houses'. Its usual lead of +0.9 shrinks here: −0.5 against its usual margin (95% CI −0.8 to −0.2).`,
    );
    // Better than usual yet below the others: "trails less than usual".
    const trails: Effect = {
      n: 1340,
      deltaOwn: 0.1,
      deltaVsOthers: 0.42,
      ci95: [0.21, 0.63],
      q: 0.01,
      mean: 3.0,
      othersMean: 3.4,
      usual: -0.8,
      rank: 6,
      of: 6,
    };
    expect(entryText('relative-strength', counting, trails, 'x', { level: 'bad', showExample: false })).toBe(
      'Trails less than usual at tasks tagged "counting": 3.0 vs their 3.4, lowest of 6 tools (n = 1,340 paired tasks). Its usual deficit of −0.8 narrows here: +0.4 against its usual margin (95% CI 0.2 to 0.6).',
    );
  });
  it('pass/fail claims speak in pass rates and percentage points', () => {
    const e: Effect = {
      n: 125,
      deltaOwn: -0.1,
      deltaVsOthers: -0.09,
      ci95: [-0.14, -0.04],
      q: 0.01,
      mean: 0.334,
      othersMean: 0.42,
      usual: 0.05,
      rank: 9,
      of: 14,
      latent: { delta: -0.4, ci95: [-0.62, -0.18] },
    };
    expect(entryText('relative-weakness', counting, e, 'x', { level: 'bad', scaleWidth: 1, showExample: false })).toBe(
      'Bad at tasks tagged "counting": passes 33% vs their 42%, 9th of 14 tools (n = 125 paired tasks). Its usual lead of +5 points turns into a deficit here: −9 points against its usual margin (95% CI −14 to −4 points).',
    );
  });
  it('a change alone when the effect has no means (files before issue #25), worst on a lower-better scale', () => {
    const e: Effect = { n: 20, deltaOwn: 0.2, deltaVsOthers: -0.5, ci95: [-0.9, -0.1], q: 0.02, rank: 4, of: 4 };
    expect(entryText('relative-weakness', snow, e, 'x', { level: 'weak', direction: 'lower-better', showExample: false })).toBe(
      'Weak at tasks about snow, park: −0.5 against its usual margin over the others (n = 20 paired tasks, 95% CI −0.9 to −0.1); worst of 4 tools here.',
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
    expect(entryText('own-strength', counting, e, 't', { level: 'good', showExample: false })).toBe(
      'Good at tasks tagged "counting": +0.6 vs its mean (n = 5, 95% CI 0.2 to 1.0).',
    );
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
    expect(
      sharedDifficultyNote([
        { facet: negation.facet, delta: -0.81 },
        { facet: diff, delta: -0.5 },
      ]),
    ).toBe('Hard for every tool here: negation (−0.8), differentiation (−0.5).');
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
    expect(
      sharedDifficultyNote([
        { facet: tag, delta: -0.74 },
        { facet: cue, delta: -0.7 },
      ]),
    ).toBe('Hard for every tool here: comparison (−0.7).');
  });
});

describe('words match the numbers (property test over generated effect tables)', () => {
  it('the lead, the rank words and the change sentence say what the printed numbers say (issue #34)', () => {
    const rng = mulberry32(2512);
    const facets: (Facet | DiscoveredFacet)[] = [negation, counting, snow];
    let checked = 0;
    for (let i = 0; i < 4000; i++) {
      const of = 2 + Math.floor(rng() * 12);
      const rank = 1 + Math.floor(rng() * of);
      const direction = rng() < 0.3 ? 'lower-better' : 'higher-better';
      const latent = rng() < 0.3;
      const width = latent || rng() < 0.2 ? 1 : 4;
      const at = (u: number) => (width === 1 ? u : 1 + 4 * u);
      const mean = at(rng());
      const othersMean = rng() < 0.05 ? mean : at(rng());
      const delta = (rng() < 0.5 ? -1 : 1) * (0.01 + rng() * (width === 1 ? 0.3 : 1));
      const usual = (rng() < 0.1 ? 0 : rng() - 0.5) * (width === 1 ? 0.4 : 2);
      const strength = delta > 0;
      const e: Effect = {
        n: 10 + Math.floor(rng() * 500),
        deltaOwn: delta,
        deltaVsOthers: delta,
        ci95: [delta - 0.2, delta + 0.2],
        q: 0.01,
        mean,
        othersMean,
        usual,
        rank,
        of,
        ...(latent ? { latent: { delta: delta * 4, ci95: [delta * 4 - 0.5, delta * 4 + 0.5] as [number, number] } } : {}),
      };
      const level = standingLevel(e, delta, width, direction);
      const text = entryText(strength ? 'relative-strength' : 'relative-weakness', facets[i % 3]!, e, 'tool', {
        level,
        direction,
        scaleWidth: width,
        showExample: false,
      });
      const style = numberStyle(width, latent);
      const stand = standing(e, style, direction)!;
      // The level and the rank words follow the standing the printed means show.
      if (stand.here < 0) {
        expect(text, text).not.toMatch(/^(Proficient|Good|Leads less than usual|Only level) at/);
        expect(text, text).not.toMatch(/\b(highest|best) of/);
        expect(['bad', 'weak']).toContain(level);
      } else {
        expect(text, text).not.toMatch(/^(Weak|Bad|Trails less than usual) at/);
        expect(text, text).not.toMatch(/\b(lowest|worst) of/);
        expect(['good', 'proficient']).toContain(level);
      }
      if (rank === 1 && stand.here >= 0) expect(level).toBe('proficient');
      // The printed means are the formatted numbers.
      expect(text).toContain(`${formatLevel(mean, style)} vs their ${formatLevel(othersMean, style)}`);
      // The change: its sign, its wording and the usual lead's sign agree with the numbers printed.
      expect(text, text).toContain(`: ${formatChange(delta, style)} against its usual margin`);
      if (/turns into a deficit/.test(text)) expect(stand.usual > 0 && stand.here < 0 && !strength).toBe(true);
      if (/turns into a lead/.test(text)) expect(stand.usual < 0 && stand.here > 0 && strength).toBe(true);
      if (/shrinks here/.test(text)) expect(stand.usual > 0 && stand.here > 0 && !strength).toBe(true);
      if (/narrows here/.test(text)) expect(stand.usual < 0 && stand.here < 0 && strength).toBe(true);
      if (/leads by more than/.test(text)) expect(stand.usual > 0 && stand.here > 0 && strength).toBe(true);
      if (/trails by more than/.test(text)) expect(stand.usual < 0 && stand.here < 0 && !strength).toBe(true);
      if (/^Leads less than usual/.test(text)) expect(stand.here > 0 && !strength).toBe(true);
      if (/^Trails less than usual/.test(text)) expect(stand.here < 0 && strength).toBe(true);
      if (/^(Proficient|Good) at/.test(text)) expect(strength).toBe(true);
      if (/^(Weak|Bad) at/.test(text)) expect(strength).toBe(false);
      if (latent) expect(text).toMatch(/passes \d+% vs their \d+%/);
      expect([...text].length).toBeLessThanOrEqual(300);
      checked++;
    }
    expect(checked).toBe(4000);
  });
});
