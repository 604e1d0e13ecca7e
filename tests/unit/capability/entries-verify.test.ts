import { describe, expect, it } from 'vitest';
import { computeEffects, type ScoreTable } from '../../../src/core/capability/effects';
import { buildEntries } from '../../../src/core/capability/entries';
import { MIN_VERIFY_N, verdictOf, verifyEntries } from '../../../src/core/capability/verify';
import type { DiscoveredFacet, Facet } from '../../../src/core/capability/types';
import type { ScoreScale } from '../../../src/core/types';

const SCALE: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: false };
const id = (t: number) => `t${String(t).padStart(2, '0')}`;
const facet = (name: string, from: number, to: number): DiscoveredFacet => ({
  facet: { kind: 'category', name, rule: { type: 'category', value: name } },
  taskIds: Array.from({ length: to - from }, (_, i) => id(from + i)),
});
const NOISE = [-0.5, 0, 0.5];
/**
 * 40 tasks × 3 tools. With `trait`, F = t00–t09: A scores 2 there (4 elsewhere), B and C are
 * unaffected → A's own trait. With `shared`, G = t10–t19: every tool loses 1 → shared difficulty, a
 * dataset note, no entries. (Not both at once: A's dip on F lowers its overall advantage, so every
 * other facet would then rightly read as a relative strength of A.)
 */
function table(tasks = 40, shift = 0, trait = true, shared = false): ScoreTable {
  const taskIds = Array.from({ length: tasks }, (_, t) => id(t + shift));
  const score = (tool: number, t: number) => {
    const u = t + shift;
    let s = tool === 0 ? 4 : 3.5;
    if (trait && tool === 0 && u < 10) s = 2;
    if (shared && u >= 10 && u < 20) s -= 1;
    return s + NOISE[(u + tool) % 3]!;
  };
  return { taskIds, toolIds: ['A', 'B', 'C'], scores: [0, 1, 2].map((j) => Float64Array.from(taskIds, (_, t) => score(j, t))), scale: SCALE };
}
const FACETS = [facet('F', 0, 10), facet('G', 10, 20)];

describe('buildEntries', () => {
  const t = table();
  const built = buildEntries({ table: t, facets: [FACETS[0]!], effects: computeEffects(t, [FACETS[0]!]), prompt: (task) => `prompt ${task}` });

  it("writes the tool's own trait as one entry and shared difficulty as one dataset note", () => {
    // B and C hold up better than the others' mean on F (because A fails there): relative strengths.
    expect(built.entries.map((e) => [e.id, e.kind, e.level])).toEqual([
      ['cap:A:F', 'own', 'weak'],
      ['cap:B:F', 'relative', 'proficient'],
      ['cap:C:F', 'relative', 'proficient'],
    ]);
    expect(built.notes).toEqual([]);
    const s = table(40, 0, false, true);
    const onlyShared = buildEntries({ table: s, facets: [FACETS[1]!], effects: computeEffects(s, [FACETS[1]!]) });
    expect(onlyShared.entries).toEqual([]);
    expect(onlyShared.notes.map((n) => [n.id, n.kind])).toEqual([['dataset:G', 'difficulty']]);
    expect(onlyShared.notes[0]!.delta).toBeCloseTo(-0.75, 9); // facet mean −1 minus overall −0.25
    expect(onlyShared.notes[0]!.text).toBe('Hard for every tool here: G (−0.8).');
    expect(onlyShared.note).toBe('Hard for every tool here: G (−0.8).');
    const e = built.entries[0]!;
    expect(built.entries[1]!.text).toMatch(/^Proficient at tasks tagged "F" compared with the other tools: \+0\.8 beyond its usual margin \(n = 10, 95% CI/);
    expect(e.claim.measure).toBe('vsOthers');
    expect(e.claim.delta).toBeLessThan(0);
    expect(e.evidence).toEqual(FACETS[0]!.taskIds.map((task) => `${task}|A`));
    // A on F: 1.5 2 2.5 1.5 2 2.5 1.5 2 2.5 1.5 (t00…t09), mean 1.95 → nearest 2, first by id t01.
    expect(e.typical).toEqual({ taskId: 't01', score: 2, prompt: 'prompt t01' });
    // deltaOwn = 1.95 − (19.5 + 30·4)/40 = −1.5375.
    expect(e.effect.deltaOwn).toBeCloseTo(-1.5375, 9);
    expect(e.text).toMatch(/^Weak at tasks tagged "F": 1\.9 vs its 3\.5 \(n = 10, 95% CI −1\.\d to −1\.\d\); lowest of 3 tools here; e\.g\. .prompt t01.\.$/);
  });

  it('verifies claims on unseen tasks: holds where the pattern repeats, untested when too few', () => {
    const unseen = table(40, 0);
    const members = (f: Facet) => FACETS.find((d) => d.facet.name === f.name)!.taskIds;
    const report = verifyEntries(built.entries, unseen, members, { on: 'test-split', at: 7 });
    expect(report.verdicts.get('cap:A:F')).toMatchObject({ verdict: 'untested', n: 10, on: 'test-split', checkedAt: 7 });
    expect(report.precision).toBeNull();
    const loose = verifyEntries(built.entries, unseen, members, { on: 'test-split', at: 7, minN: 10 });
    expect(loose.verdicts.get('cap:A:F')!.verdict).toBe('holds');
    expect(loose.precision).toBe(1);
    // Facet members not in the unseen table → no tasks → untested with n = 0.
    const none = verifyEntries(built.entries, table(20, 20), members, { on: 'later-imports', at: 8 });
    expect(none.verdicts.get('cap:A:F')).toMatchObject({ verdict: 'untested', n: 0, delta: null });
  });
});

describe('verdictOf', () => {
  it('holds / weaker / contradicted / untested by the documented rule', () => {
    expect(MIN_VERIFY_N).toBe(15);
    expect(verdictOf(-0.5, 20, -0.6, [-0.9, -0.3])).toBe('holds');
    expect(verdictOf(-0.5, 20, -0.3, [-0.6, 0.0])).toBe('holds'); // the interval reaches the claim
    expect(verdictOf(-0.5, 20, -0.2, [-0.35, -0.05])).toBe('weaker');
    expect(verdictOf(-0.5, 20, 0.1, [-0.2, 0.4])).toBe('contradicted');
    expect(verdictOf(0.4, 20, 0, [-0.2, 0.2])).toBe('contradicted');
    expect(verdictOf(0.4, 20, 0.3, [0.25, 0.35])).toBe('weaker');
    expect(verdictOf(0.4, 14, 0.5, [0.1, 0.9])).toBe('untested');
  });
});
