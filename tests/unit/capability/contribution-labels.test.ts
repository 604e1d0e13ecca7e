import { describe, expect, it } from 'vitest';
import { contributionLabels, OTHER_ID } from '../../../src/core/capability/contributions';
import type { CapabilityEntry, DatasetNote } from '../../../src/core/capability/entries';
import type { JointModel } from '../../../src/core/capability/types';
import { facetOf } from '../helpers/capability-fixtures';

const facets = [facetOf('negation', ['t1']), facetOf('counting', ['t2']), facetOf('negation (tagged)', ['t1'])];

/** Two tools; gamma[j][f]: tool A's deviation from the average tool is (γ_A − γ_B) / 2 per facet. */
function model(gamma: number[][]): JointModel {
  return {
    tools: ['A', 'B'],
    facets: facets.map((d) => d.facet),
    mu: [3, 3],
    freq: [0.2, 0.2, 0.2],
    beta: [0, 0, 0],
    gamma,
    lambda: { beta: 1, gamma: 1 },
    cv: [],
  };
}

const entry = (toolId: string, facet: number, status: 'claim' | 'tentative', delta: number): CapabilityEntry =>
  ({
    id: `cap:${toolId}:${facets[facet]!.facet.name}`,
    toolId,
    facet: facets[facet]!.facet,
    status,
    claim: { measure: 'vsOthers', delta, ci95: [delta - 0.1, delta + 0.1] },
    text: `${status === 'tentative' ? 'Tentative: ' : ''}entry of ${toolId}`,
  }) as unknown as CapabilityEntry;

const note: DatasetNote = {
  id: 'dataset:counting',
  facet: facets[1]!.facet,
  kind: 'difficulty',
  n: 20,
  delta: -0.3,
  ci95: [-0.5, -0.1],
  q: 0.01,
  text: 'Hard for every tool here: counting (−0.3).',
};

describe('contributionLabels: whose words a contribution line carries', () => {
  // A's deviation: negation (0.2 − 0.6) / 2 = −0.2, counting (0.4 − 0) / 2 = +0.2; B's the opposite.
  const fit = model([
    [-0.2, 0.4, 0],
    [0.6, 0, 0],
  ]);
  const keptOf = new Map([[2, 0]]);

  it('a tentative entry speaks where the fit gives its sign, its twin credited to it; a claim always', () => {
    const labels = contributionLabels({
      tools: ['A', 'B'],
      facets,
      keptOf,
      entries: [entry('A', 0, 'tentative', -0.3), entry('B', 1, 'claim', 0.5)],
      notes: [note],
      fits: [fit],
    });
    expect(labels[0]!.map((l) => l.id)).toEqual(['cap:A:negation', 'dataset:counting', 'cap:A:negation']);
    expect(labels[0]![0]!.text).toBe('Tentative: entry of A');
    // B's counting claim speaks though the fit gives B −0.2 there (claims.ts asks the fits before it is a claim).
    expect(labels[1]!.map((l) => l.id)).toEqual([OTHER_ID, 'cap:B:counting', OTHER_ID]);
  });

  it('a tentative entry whose sign a fit contradicts, or with no fit, stays in the aggregate or the note', () => {
    const entries = [entry('A', 0, 'tentative', 0.3), entry('A', 1, 'tentative', 0.2)];
    const other = model([
      [0, -0.4, 0],
      [0, 0, 0],
    ]);
    // Negation: the entry says +, the fit −0.2. Counting: the first fit +0.2, the second (free text) −0.2.
    const two = contributionLabels({ tools: ['A', 'B'], facets, keptOf, entries, notes: [note], fits: [fit, other] });
    expect(two[0]!.map((l) => l.id)).toEqual([OTHER_ID, 'dataset:counting', OTHER_ID]);
    const one = contributionLabels({ tools: ['A', 'B'], facets, keptOf, entries, notes: [note], fits: [fit] });
    expect(one[0]!.map((l) => l.id)).toEqual([OTHER_ID, 'cap:A:counting', OTHER_ID]);
    const none = contributionLabels({ tools: ['A', 'B'], facets, keptOf, entries, notes: [note], fits: [] });
    expect(none[0]!.map((l) => l.id)).toEqual([OTHER_ID, 'dataset:counting', OTHER_ID]);
  });
});
