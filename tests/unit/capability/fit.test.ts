import { describe, expect, it } from 'vitest';
import { fitJoint, solveJoint } from '../../../src/core/capability/fit';
import { ABSENT_ID, CapabilityMemoryPredictor, ORDER_ID } from '../../../src/core/capability/predictor';
import type { DiscoveredFacet, Facet } from '../../../src/core/capability/types';
import type { TrainingExample } from '../../../src/core/predict/types';
import type { ScoreScale } from '../../../src/core/types';

const SCALE: ScoreScale = { min: 1, max: 5, direction: 'higher-better', integer: false };
const F: Facet = { kind: 'category', name: 'F', rule: { type: 'category', value: 'F' } };

describe('solveJoint', () => {
  it('matches the hand solution of one facet, two tools', () => {
    // A1 = A2 = 4, b1 = 4, b2 = 0, λγ = 4, λβ = 1: (2 + 2 + 1)·β = 2 → β = 0.4; γ1 = (4 − 1.6)/8 = 0.3; γ2 = −1.6/8 = −0.2.
    const { beta, gamma } = solveJoint({ a: [Float64Array.of(4), Float64Array.of(4)], b: [Float64Array.of(4), Float64Array.of(0)] }, 1, 1, 4);
    expect(beta[0]).toBeCloseTo(0.4, 12);
    expect(gamma[0]![0]).toBeCloseTo(0.3, 12);
    expect(gamma[1]![0]).toBeCloseTo(-0.2, 12);
  });
});

/** Four tasks, facet F on the first two; tool P: 5 5 3 3 (mean 4), Q: 3 3 3 3 (mean 3). */
function fourTasks(p: number[], q: number[]) {
  const ex: TrainingExample[] = [];
  for (let t = 0; t < 4; t++) {
    const categories = t < 2 ? ['F'] : [];
    ex.push({ taskId: `t${t}`, prompt: `task ${t}`, toolId: 'P', score: p[t]!, categories });
    ex.push({ taskId: `t${t}`, prompt: `task ${t}`, toolId: 'Q', score: q[t]!, categories });
  }
  return { scale: SCALE, examples: ex };
}
const discover = (): DiscoveredFacet[] => [{ facet: F, taskIds: ['t0', 't1'] }];

describe('fitJoint and the memory predictor', () => {
  it('fits shared and tool-specific parts (hand-computed) and serialises as plain JSON', () => {
    // x̃ = ±0.5; A = 1, b_P = 2, b_Q = 0; λβ = λγ = 1: (0.5 + 0.5 + 1)·β = 1 → β = 0.5; γ_P = 0.75, γ_Q = −0.25.
    const m = fitJoint({
      scale: SCALE,
      tools: ['P', 'Q'],
      facets: [F],
      x: [Uint8Array.of(1, 1, 0, 0)],
      target: [Float64Array.of(5, 5, 3, 3), Float64Array.of(3, 3, 3, 3)],
      mu: [4, 3],
      lambda: { beta: 1, gamma: 1 },
    });
    expect(m.freq).toEqual([0.5]);
    expect(m.beta[0]).toBeCloseTo(0.5, 12);
    expect(m.gamma[0]![0]).toBeCloseTo(0.75, 12);
    expect(m.gamma[1]![0]).toBeCloseTo(-0.25, 12);
    expect(JSON.parse(JSON.stringify(m))).toEqual(m);
  });

  it('chooses λ on the grid by cross-validation when not given', () => {
    const m = fitJoint({
      scale: SCALE,
      tools: ['P'],
      facets: [F],
      x: [Uint8Array.from({ length: 20 }, (_, t) => (t % 2 ? 1 : 0))],
      target: [Float64Array.from({ length: 20 }, (_, t) => (t % 2 ? 4 : 2))],
      mu: [3],
    });
    expect(m.cv.length).toBeGreaterThan(1);
    expect(m.lambda.gamma).toBeGreaterThan(0);
  });

  it('predicts the tool mean plus contributions that sum exactly to prediction − mean', () => {
    const p = new CapabilityMemoryPredictor({ discover, lambda: { beta: 1, gamma: 1 }, detectors: false });
    p.fit(fourTasks([5, 5, 3, 3], [3, 3, 3, 3]));
    const on = p.predict({ taskId: 'new', prompt: 'x', categories: ['F'] }, 'P');
    expect(on.score).toBeCloseTo(4 + 0.5 * 1.25, 12);
    expect(on.explanation.mean).toBe(4);
    expect(on.explanation.contributions.reduce((s, c) => s + c.points, 0)).toBeCloseTo(on.score - 4, 12);
    const off = p.predict({ taskId: 'new2', prompt: 'y' }, 'P');
    expect(off.score).toBeCloseTo(4 - 0.5 * 1.25, 12);
    expect(off.explanation.contributions).toEqual([{ entryId: ABSENT_ID, text: 'facets this task lacks', points: expect.closeTo(-0.625, 12) }]);
    expect(p.predict({ taskId: 'z', prompt: 'z' }, 'unknown tool').explanation.contributions).toEqual([]);
  });

  it('keeps the tools in training-mean order and reports the change as a contribution', () => {
    // P: 3 3 5 5 (mean 4), Q: 4 4 2 2 (mean 3); λβ = 1, λγ = 0.25 → β = 0, γ_P = −1.6, γ_Q = +1.6.
    // On F: P 4 − 0.8 = 3.2 < Q 3 + 0.8 = 3.8 → both pooled at 3.5 (P one 1e-9·4 step above).
    const p = new CapabilityMemoryPredictor({ discover, lambda: { beta: 1, gamma: 0.25 } });
    p.fit(fourTasks([3, 3, 5, 5], [4, 4, 2, 2]));
    const task = { taskId: 'new', prompt: 'x', categories: ['F'] };
    const P = p.predict(task, 'P');
    const Q = p.predict(task, 'Q');
    expect(Q.score).toBeCloseTo(3.5, 12);
    expect(P.score - Q.score).toBeCloseTo(4e-9, 15);
    expect(P.explanation.contributions.find((c) => c.entryId === ORDER_ID)!.points).toBeCloseTo(0.3 + 4e-9, 12);
    expect(P.explanation.contributions.reduce((s, c) => s + c.points, 0)).toBeCloseTo(P.score - 4, 12);
    const unguarded = new CapabilityMemoryPredictor({ discover, lambda: { beta: 1, gamma: 0.25 }, orderGuard: false });
    unguarded.fit(fourTasks([3, 3, 5, 5], [4, 4, 2, 2]));
    expect(unguarded.predict(task, 'P').score).toBeCloseTo(3.2, 12);
  });
});

describe('serialised model', () => {
  it('round-trips through JSON and predicts the same, contributions included', () => {
    const p = new CapabilityMemoryPredictor({ discover, lambda: { beta: 1, gamma: 0.25 } });
    p.fit(fourTasks([3, 3, 5, 5], [4, 4, 2, 2]));
    const copy = CapabilityMemoryPredictor.fromModel(JSON.parse(JSON.stringify(p.toModel())));
    for (const task of [
      { taskId: 'a', prompt: 'x', categories: ['F'] },
      { taskId: 'b', prompt: 'y' },
    ]) {
      for (const tool of ['P', 'Q']) expect(copy.predict(task, tool)).toEqual(p.predict(task, tool));
    }
  });
});
