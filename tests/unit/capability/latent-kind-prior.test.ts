import { describe, expect, it } from 'vitest';
import { classifyClaims } from '../../../src/core/capability/claims';
import { computeEffects, oriented, type ScoreTable } from '../../../src/core/capability/effects';
import { latentCells } from '../../../src/core/capability/latent';
import { createRng } from '../../../src/core/eval/rng';
import { facetOf } from '../helpers/capability-fixtures';

/**
 * Pass/fail: 1,200 tasks × 4 tools, seeded draws. Tool j passes task t with probability
 * σ(ability_j − difficulty_t + lift), where the lift is tool A's on facets F1…F6 of 150 tasks each
 * (0.3 … 1.8 log-odds) and 0 elsewhere.
 */
function passFail(): ScoreTable {
  const rng = createRng(11);
  const n = 1200;
  const ability = [0, 0.3, -0.2, 0.1];
  const difficulty = Array.from({ length: n }, () => 2 * (rng.next() - 0.5) * 2);
  const lift = (j: number, t: number) => (j === 0 && t < 900 ? 0.3 * (1 + Math.floor(t / 150)) : 0);
  const taskIds = Array.from({ length: n }, (_, t) => `t${String(t).padStart(4, '0')}`);
  return {
    taskIds,
    toolIds: ['A', 'B', 'C', 'D'],
    scores: ability.map((a, j) => Float64Array.from(taskIds, (_, t) => (rng.next() < 1 / (1 + Math.exp(-(a - difficulty[t]! + lift(j, t)))) ? 1 : 0))),
    scale: { min: 0, max: 1, direction: 'higher-better', integer: true },
  };
}

describe('a prior variance per facet kind on the logit scale (claims.ts `kindPrior`, latent.ts `groups`)', () => {
  it('the kind whose facets carry effects gets a wider prior than the kind whose facets carry none; one group per facet kind', () => {
    const t = passFail();
    const member = (from: number, to: number) => Uint8Array.from(t.taskIds, (_, u) => (u >= from && u < to ? 1 : 0));
    // Group 0: two of A's lifted facets (0.9 and 1.5 log-odds); group 1: two facets over the unlifted tasks.
    const x = [member(300, 450), member(600, 750), member(900, 1050), member(1050, 1200)];
    const one = latentCells({ v: oriented(t), x });
    const kinds = latentCells({ v: oriented(t), x, groups: [0, 0, 1, 1] });
    expect(one.ratios).toEqual([1]);
    expect(kinds.tau2).toBe(one.tau2);
    expect(kinds.ratios).toHaveLength(2);
    expect(kinds.ratios[0]!).toBeGreaterThan(kinds.ratios[1]!);
    // A's lifted facet keeps more of its size under the wider prior of its kind.
    expect(Math.abs(kinds.cells[0]![1]!.mean)).toBeGreaterThan(Math.abs(one.cells[0]![1]!.mean));
  });

  it('classifyClaims passes the facet kinds to the logit fit only when kindPrior is on', () => {
    const t = passFail();
    const facets = [facetOf('F', t.taskIds.slice(300, 450)), facetOf('G', t.taskIds.slice(600, 750)), facetOf('negation', t.taskIds.slice(900, 1050), 'cue')];
    const on = classifyClaims(t, facets, computeEffects(t, facets), null, { kindPrior: true });
    const off = classifyClaims(t, facets, computeEffects(t, facets), null, {});
    expect(on.scale.kind).toBe('logit');
    expect(on.latent!.ratios).toHaveLength(2);
    expect(off.latent!.ratios).toEqual([1]);
  });
});
