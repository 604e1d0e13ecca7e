import { describe, expect, it } from 'vitest';
import { buildCapability } from '../../../src/core/capability/build';
import { classifyClaims, DEFAULT_MAX_FLIP } from '../../../src/core/capability/claims';
import { computeEffects } from '../../../src/core/capability/effects';
import {
  admissionLevel,
  admissionNote,
  innerClaims,
  poissonAtLeast,
  restrictTable,
  selfCheckRecords,
  SELF_CHECK_SPLITS,
  tableAdmission,
  type InnerRecord,
} from '../../../src/core/capability/self-check';
import { experiencesOf, facetOf, jitter, tableOf } from '../helpers/capability-fixtures';

const records = (n: number, wrong: number, flip: number, facet = 0): InnerRecord[] => Array.from({ length: n }, (_, i) => ({ flip, wrong: i < wrong, facet }));

describe('poissonAtLeast', () => {
  it('P(N ≥ k) for N ~ Poisson(mean), by hand', () => {
    expect(poissonAtLeast(0, 2)).toBe(1);
    // 1 − e^−2 = 0.8646647
    expect(poissonAtLeast(1, 2)).toBeCloseTo(1 - Math.exp(-2), 12);
    // 1 − e^−1 (1 + 1 + 1/2) = 0.0803014
    expect(poissonAtLeast(3, 1)).toBeCloseTo(0.0803014, 7);
    // 1 − e^−2 (1 + 2 + 2 + 4/3 + 2/3 + 4/15) = 0.0165636
    expect(poissonAtLeast(6, 2)).toBeCloseTo(0.0165636, 7);
  });
});

describe('admissionLevel', () => {
  it('more wrong signs than the flip chances expect, beyond chance: the level is divided by W / E', () => {
    // 20 inner claims at flip 0.1: E = 2; 6 wrong: P(N ≥ 6) = 0.0166 < 0.05, ratio 3 → 0.12 / 3 = 0.04.
    const level = admissionLevel(records(20, 6, 0.1), 0.12);
    expect(level.expected).toBeCloseTo(2, 12);
    expect(level.wrong).toBe(6);
    expect(level.ratio).toBeCloseTo(3, 12);
    expect(level.p).toBeCloseTo(0.0165636, 7);
    expect(level.maxFlip).toBeCloseTo(0.04, 12);
  });

  it('within chance, fewer wrong than expected, or too few inner claims: the default stands (never looser)', () => {
    // 4 wrong of E = 2: P(N ≥ 4) = 1 − e^−2 (1 + 2 + 2 + 4/3) = 0.142877 ≥ 0.05.
    const chance = admissionLevel(records(20, 4, 0.1), 0.12);
    expect(chance.p).toBeCloseTo(0.142877, 6);
    expect(chance.maxFlip).toBe(0.12);
    expect(admissionLevel(records(20, 0, 0.1), 0.12).maxFlip).toBe(0.12);
    // 9 records, all wrong: too few to tell.
    expect(admissionLevel(records(9, 9, 0.1), 0.12).maxFlip).toBe(0.12);
    expect(admissionLevel([], 0.12)).toMatchObject({ maxFlip: 0.12, checked: 0, wrong: 0, expected: 0, ratio: 1, p: 1 });
  });

  it('never below the floor', () => {
    // 10 of 20 wrong at flip 0.05: E = 1, ratio 10 → 0.012, floored at 0.02.
    expect(admissionLevel(records(20, 10, 0.05), 0.12).maxFlip).toBe(0.02);
  });
});

describe('tableAdmission and its build note', () => {
  const f = [facetOf('F', ['a']), facetOf('long prompts', ['b'], 'cue')];

  it('each facet kind is judged on its own inner claims; each facet gets its kind level', () => {
    const adm = tableAdmission([...records(20, 4, 0.1, 0), ...records(20, 6, 0.1, 1)], f, 0.12);
    expect(adm.base).toBe(0.12);
    expect(adm.kinds.map((k) => k.kind)).toEqual(['category', 'cue']);
    expect(adm.levels[0]).toBe(0.12);
    expect(adm.levels[1]).toBeCloseTo(0.04, 12);
    expect(admissionNote(adm)).toBe(
      'Claim admission (a self-check on halves of the training tasks): claims on text cues made on one half showed the other sign on the ' +
        'other half 6 times in 20 where 2.0 were expected, so they need a chance of at most 4% that a new sample reverses their sign (usual: 12%).',
    );
  });

  it('no kind stricter: the note says the usual level and the pooled inner check', () => {
    const adm = tableAdmission([...records(20, 2, 0.1, 0), ...records(10, 1, 0.1, 1)], f, 0.12);
    expect(adm.levels).toEqual([0.12, 0.12]);
    expect(admissionNote(adm)).toBe(
      'Claim admission (a self-check on halves of the training tasks): claims made on one half showed the other sign on the other half 3 times ' +
        'in 30 where 3.0 were expected, no more than chance allows, so a claim needs the usual chance of at most 12% that a new sample reverses its sign.',
    );
  });
});

describe('restrictTable, selfCheckRecords', () => {
  it('a table restricted to a mask keeps its tools and scale and the masked tasks in order', () => {
    const t = tableOf(4, (j, u) => 10 * j + u, 2);
    const r = restrictTable(t, [1, 0, 1, 0]);
    expect(r.taskIds).toEqual(['t000', 't002']);
    expect(r.toolIds).toEqual(['A', 'B']);
    expect(Array.from(r.scores[1]!)).toEqual([10, 12]);
    expect(r.scale).toBe(t.scale);
  });

  // 120 tasks; tool A is 1 point better on the facet (tasks 0–59): every random half holds ~30 facet tasks.
  const t = tableOf(120, (j, u) => 3 + (j === 0 && u < 60 ? 1 : 0) + jitter(j, u), 2);
  const f = [facetOf('F', t.taskIds.slice(0, 60))];

  it('a true claim made on one half holds on the other: one record per half and split, none wrong', () => {
    const seen: number[] = [];
    const out = selfCheckRecords(t, undefined, f, (half, effects) => {
      seen.push(half.taskIds.length);
      return [{ cell: effects.effects.find((c) => c.toolId === 'A' && c.facet === 0)!, flip: 0.1, latent: false }];
    });
    expect(seen).toEqual(Array.from({ length: 2 * SELF_CHECK_SPLITS }, () => 60));
    expect(out).toEqual(Array.from({ length: 2 * SELF_CHECK_SPLITS }, () => ({ flip: 0.1, wrong: false, facet: 0 })));
  });

  it('a claim of the wrong sign shows wrong on every check; a one-tool table is not checked', () => {
    const out = selfCheckRecords(t, undefined, f, (_half, effects) => {
      const cell = effects.effects.find((c) => c.toolId === 'A' && c.facet === 0)!;
      return [{ cell: { ...cell, effect: { ...cell.effect, deltaVsOthers: -cell.effect.deltaVsOthers! } }, flip: 0.2, latent: false }];
    });
    expect(out.every((r) => r.wrong && r.flip === 0.2)).toBe(true);
    expect(out).toHaveLength(2 * SELF_CHECK_SPLITS);
    expect(
      selfCheckRecords(
        tableOf(120, () => 3, 1),
        undefined,
        f,
        () => [],
      ),
    ).toEqual([]);
  });

  it('innerClaims keeps the cells with a flip chance up to the cap', () => {
    const effects = computeEffects(t, f);
    const [a, b] = effects.effects;
    const flipOf = new Map([
      [a!.effect, 0.05],
      [b!.effect, 0.3],
    ]);
    expect(innerClaims(effects, { scale: { kind: 'score' }, flipOf }, 0.2)).toEqual([{ cell: a, flip: 0.05, latent: false }]);
  });
});

describe('classifyClaims with the self-check', () => {
  it('off by default; on, a clear trait that holds on every inner check keeps the usual level and stays a claim', () => {
    const t = tableOf(120, (j, u) => 3 + (j === 0 && u < 60 ? -1.5 : 0) + jitter(j, u), 3);
    const f = [facetOf('F', t.taskIds.slice(0, 60))];
    expect(classifyClaims(t, f, computeEffects(t, f), null).admission).toBeNull();
    const effects = computeEffects(t, f);
    const r = classifyClaims(t, f, effects, null, { selfCheck: true });
    expect(r.admission!.levels).toEqual([DEFAULT_MAX_FLIP]);
    expect(r.admission!.kinds[0]!.level.checked).toBeGreaterThan(0);
    expect(r.admission!.kinds[0]!.level.wrong).toBe(0);
    expect(effects.effects.find((c) => c.toolId === 'A')!.effect.status).toBe('claim');
  });
});

describe('buildCapability: the build notes say the admission level when the self-check is on', () => {
  // 120 tasks, 3 tools; tasks 0–59 are tagged "text" and say so; tool A is 1.5 points worse on them.
  const experiences = experiencesOf(120, ['A', 'B', 'C'], (j, t) => ({
    prompt: t < 60 ? `a shop sign that reads "open ${t}"` : `a quiet meadow at dawn, scene ${t}`,
    score: 3 + (j === 0 && t < 60 ? -1.5 : 0) + jitter(j, t),
    categories: [t < 60 ? 'text' : 'plain'],
  }));
  const input = { scale: { min: 1, max: 5, direction: 'higher-better' as const, integer: false }, experiences, memoryId: 'm', idPrefix: 'b', at: 1 };

  it('off (the default): no such note; on: one sentence with the level', () => {
    const note = (claims: { selfCheck?: boolean }) =>
      buildCapability({ ...input, kinds: ['category'], claims }).snapshot.report.notes.filter((n) => n.startsWith('Claim admission'));
    expect(note({})).toEqual([]);
    const on = note({ selfCheck: true });
    expect(on).toHaveLength(1);
    expect(on[0]).toMatch(/^Claim admission \(a self-check on halves of the training tasks\): .* at most 12% that a new sample reverses its sign\.$/);
  });
});
