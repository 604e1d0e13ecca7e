import { describe, expect, it } from 'vitest';
import { buildCapability } from '../../../src/core/capability/build';
import { pairwiseDatasetOf, pairwiseExperiences, PAIRWISE_SCALE } from '../../../src/core/label/pairwise-evidence';
import type { Experience, Preference } from '../../../src/core/types';

const pref = (taskId: string, toolA: string, toolB: string, winner: Preference['winner'], rater: string): Preference => ({
  id: `d|${taskId}|${toolA}|${toolB}|${rater}`,
  datasetId: 'd',
  taskId,
  toolA,
  toolB,
  winner,
  rater,
  shownLeft: toolA,
  createdAt: 0,
});
const opts = { datasetId: 'd-pairwise', importId: 'pairwise-1', at: 5 };

describe('pairwise judgements as evidence: each tool’s share of its comparisons won per task, ties ½', () => {
  it('pools raters and opponents, by hand', () => {
    const tasks = new Map([
      ['t1', { prompt: 'a red cube', categories: ['colour'] }],
      ['t2', { prompt: 'two cats', categories: [] }],
    ]);
    const prefs = [
      pref('t1', 'flux', 'sdxl', 'A', 'ann'),
      pref('t1', 'flux', 'sdxl', 'tie', 'bob'),
      pref('t1', 'dalle', 'flux', 'B', 'ann'),
      pref('t2', 'flux', 'sdxl', 'B', 'ann'),
      pref('t9', 'flux', 'sdxl', 'A', 'ann'), // no prompt known for t9: left out
    ];
    const rows = pairwiseExperiences(prefs, tasks, opts);
    // t1: flux won vs dalle and vs sdxl (ann), tied with sdxl (bob): (2 + ½)/3; sdxl lost and tied: ½/2; dalle lost its one.
    expect(rows.map((r) => [r.taskId, r.toolId, r.score])).toEqual([
      ['t1', 'dalle', 0],
      ['t1', 'flux', 2.5 / 3],
      ['t1', 'sdxl', 0.25],
      ['t2', 'flux', 0],
      ['t2', 'sdxl', 1],
    ]);
    const flux = rows[1]!;
    expect(flux).toMatchObject({
      id: 'd-pairwise|flux|t1|pairwise',
      datasetId: 'd-pairwise',
      prompt: 'a red cube',
      categories: ['colour'],
      rater: 'pairwise',
      importId: 'pairwise-1',
      createdAt: 5,
    });
    expect(flux.feedback).toBe(
      'From pairwise judgements: won 2 of 3 comparisons, 1 tie (a tie counts ½) — vs dalle: won (ann); vs sdxl: won (ann); vs sdxl: tie (bob).',
    );
    expect(rows[3]!.feedback).toBe('From pairwise judgements: won 0 of 1 comparison (a tie counts ½) — vs sdxl: lost (ann).');
  });

  it('names at most six pairs and counts the rest', () => {
    const tasks = new Map([['t1', { prompt: 'p', categories: [] }]]);
    const prefs = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'].map((r) => pref('t1', 'a', 'b', 'A', r));
    const [a] = pairwiseExperiences(prefs, tasks, opts);
    expect(a!.score).toBe(1);
    expect(a!.feedback).toMatch(/vs b: won \(r6\); … and 2 more\.$/);
  });

  it('the derived dataset is a 0–1 score table named after its source', () => {
    expect(pairwiseDatasetOf({ id: 'mine', name: 'Mine' }, 7)).toEqual({
      id: 'mine-pairwise',
      name: 'Mine · pairwise',
      source: 'pairwise judgements of mine',
      preset: 'pairwise',
      scale: PAIRWISE_SCALE,
      raterPolicy: { kind: 'mean' },
      createdAt: 7,
    });
  });

  it('a tool that loses most pairs on a facet is a claim under the same checks, and its entry says where the scores came from', () => {
    // 40 tasks, 3 tools, 2 raters; tasks 0–19 are tagged "text". On them "weak" loses to both others
    // (one rater ties now and then); elsewhere it wins or ties as often as the others.
    // The wording shows the tag, as in real data: a tag no text detector can place makes no claim (issue #34).
    const prompt = (t: number) => (t < 20 ? `a shop sign that reads "open ${t}" in bold letters` : `a quiet meadow at dawn, scene ${t}`);
    const tasks = new Map(Array.from({ length: 40 }, (_, t) => [`t${t}`, { prompt: prompt(t), categories: t < 20 ? ['text'] : ['plain'] }]));
    const prefs: Preference[] = [];
    for (let t = 0; t < 40; t++) {
      const id = `t${t}`;
      const text = t < 20;
      prefs.push(pref(id, 'alpha', 'beta', t % 2 ? 'A' : 'B', 'ann'));
      prefs.push(pref(id, 'alpha', 'weak', text ? 'A' : t % 3 === 0 ? 'tie' : t % 2 ? 'B' : 'A', 'ann'));
      prefs.push(pref(id, 'beta', 'weak', text ? (t % 5 === 0 ? 'tie' : 'A') : t % 2 ? 'A' : 'B', 'bob'));
    }
    const rows = pairwiseExperiences(prefs, tasks, opts);
    const experiences = new Map<string, Experience[]>();
    for (const r of rows) (experiences.get(r.toolId) ?? experiences.set(r.toolId, []).get(r.toolId)!).push(r);
    const built = buildCapability({ scale: PAIRWISE_SCALE, experiences, memoryId: 'm', idPrefix: 'b', at: 1, kinds: ['category'], source: 'pairwise' });
    const claim = built.predictor.entries.find((e) => e.toolId === 'weak' && e.facet.name === 'text');
    expect(claim?.status).toBe('claim');
    const entry = built.entries.find((e) => e.id === claim!.id)!;
    expect(['bad', 'weak']).toContain(entry.level);
    expect(entry.text).toMatch(/ From pairwise judgements: a score here is the share of its comparisons on a task it won \(a tie counts ½\)\.$/);
    // The evidence is the derived experiences, whose feedback names the pairs.
    expect(entry.evidence.every((id) => id.startsWith('d-pairwise|weak|'))).toBe(true);
    expect(built.entries.every((e) => e.text.includes('From pairwise judgements'))).toBe(true);
  });
});
