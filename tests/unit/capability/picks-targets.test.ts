/**
 * Pick claims are chosen and sized on the claims' targets — every rater's mean where a task has
 * several — the same figure a pick is checked against on unseen tasks (issue #34). A lead that only
 * the rater-policy score shows is not a pick.
 */
import { describe, expect, it } from 'vitest';
import { CapabilityMemoryPredictor } from '../../../src/core/capability/predictor';
import type { DiscoveredFacet } from '../../../src/core/capability/types';
import type { TrainingSet } from '../../../src/core/predict/types';

// 40 tasks; tasks 0–19 start with "no " (the facet). A small wobble with mean 0 over every 5 tasks.
const N = 40;
const wobble = (t: number) => ((t % 5) - 2) * 0.1;
const inFacet = (t: number) => t < 20;

/**
 * On the facet, the rater-policy score puts A 1 point above B (4.5 vs 3.5), every rater's mean puts
 * A half a point below (3.5 vs 4.0). Elsewhere B leads by 2 (4 vs 2), so B is the overall best either way.
 */
function trainingSet(): TrainingSet {
  const examples = Array.from({ length: N }, (_, t) => {
    const w = wobble(t);
    const u = wobble(t + 1);
    const prompt = `${inFacet(t) ? 'no ' : ''}task ${t}`;
    const a = inFacet(t) ? { score: 4.5 + w, ratings: [4.5 + w, 3 + w, 3 + w] } : { score: 2 + w, ratings: [2 + w, 2 + w, 2 + w] };
    const b = inFacet(t) ? { score: 3.5 + u, ratings: [3.5 + u, 4 + u, 4.5 + u] } : { score: 4 + u, ratings: [4 + u, 4 + u, 4 + u] };
    return [
      { taskId: `t${t}`, prompt, toolId: 'A', ...a },
      { taskId: `t${t}`, prompt, toolId: 'B', ...b },
    ];
  }).flat();
  return { scale: { min: 1, max: 5, direction: 'higher-better', integer: false }, examples };
}

const facet: DiscoveredFacet = {
  facet: { kind: 'cue', name: 'negation', rule: { type: 'cue', cue: 'negation' } },
  taskIds: Array.from({ length: 20 }, (_, t) => `t${t}`),
};

function fitted(useAllRaters: boolean): CapabilityMemoryPredictor {
  const p = new CapabilityMemoryPredictor({
    discover: () => [facet],
    applies: (_, task) => task.prompt.startsWith('no '),
    detectors: false,
    useAllRaters,
  });
  p.fit(trainingSet());
  return p;
}

describe('pick claims read every rater (predictor.ts, picks.ts)', () => {
  it('a facet lead only the rater-policy score shows is no pick when the raters’ mean says the opposite', () => {
    const p = fitted(true);
    expect(p.pickInput?.best).toBe(1);
    // The pick's inputs are the targets: A's facet level is the raters' mean, 3.5 (+ wobble).
    expect(p.pickInput!.v[0]![0]).toBeCloseTo(3.5 + wobble(0), 12);
    expect(p.pickInput!.likelyBest[0]).toMatchObject({ tool: 1 });
    expect(p.picks).toEqual([]);
  });

  it('with the rater-policy score as the target, the same facet is a pick of A over B (4.5 vs 3.5 on its 20 tasks)', () => {
    const p = fitted(false);
    expect(p.picks).toHaveLength(1);
    const k = p.picks[0]!;
    expect([k.toolId, k.over, k.facet, k.n]).toEqual(['A', 'B', 0, 20]);
    // Means over the facet's 20 tasks: the wobble sums to 0 over every 5 tasks.
    expect(k.mean).toBeCloseTo(4.5, 12);
    expect(k.overMean).toBeCloseTo(3.5, 12);
    expect(k.probability).toBeGreaterThan(0.99);
  });
});
