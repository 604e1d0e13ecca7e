import { describe, expect, it } from 'vitest';
import { cellStatusSentence, entryCountsText, memorySummary, ordinal, plainRank } from '../../../src/ui/memory-summary';
import { memoryLabels } from '../../../src/ui/format';
import type { CapabilitySnapshot, Effect } from '../../../src/core/capability/types';

const effect = (over: Partial<Effect>): Effect => ({
  n: 40,
  deltaOwn: -0.3,
  deltaVsOthers: -0.45,
  ci95: [-0.7, -0.2],
  q: 0.01,
  lfsr: 0.0004,
  status: 'claim',
  ...over,
});
const facet = (name: string, kind: 'category' | 'cue' = 'cue') => ({ facet: { kind, name, rule: { type: 'category' as const, value: name } }, n: 40 });

/** Three tools on 1–5; two facets; A weak at negation (a claim), B strong at counting (a claim), one tentative cell. */
function snapshot(over: Partial<CapabilitySnapshot['report']> = {}): CapabilitySnapshot {
  return {
    facets: [facet('negation'), facet('counting')],
    tools: ['A', 'B', 'C'],
    cells: [
      { toolId: 'A', facet: 0, effect: effect({}), entryId: 'e1' },
      { toolId: 'B', facet: 1, effect: effect({ deltaVsOthers: 0.31, deltaOwn: 0.2, ci95: [0.1, 0.5] }), entryId: 'e2' },
      { toolId: 'C', facet: 1, effect: effect({ deltaVsOthers: 0.9, status: 'tentative', lfsr: 0.12 }), entryId: 'e3' },
    ],
    note: { text: '', hard: ['comparison'], easy: [], items: [] },
    report: {
      facetsTested: 2,
      cellsTested: 6,
      entries: 6,
      belowMinN: 0,
      claims: 2,
      tentative: 1,
      notes: [],
      verification: { on: 'held-out', precision: 1, tested: 2, counts: { holds: 2, contradicted: 0, untested: 0 } },
      ...over,
    },
    model: {
      version: 1,
      scale: { min: 1, max: 5, direction: 'higher-better', integer: true },
      globalMean: 3,
      model: { tools: ['A', 'B', 'C'], facets: [], mu: [2.9, 3.84, 3.1], freq: [], beta: [], gamma: [] } as never,
      facets: [],
      labels: [],
      order: [],
      orderGuard: true,
    },
  };
}

describe('the Memory page in plain words (issue #38)', () => {
  it('one paragraph: what it learned from, best and worst overall, the claims with the strongest two, tentative, shared difficulty, the check', () => {
    expect(memorySummary({ snapshot: snapshot(), datasetName: 'Demo', trainTasks: 200 })).toBe(
      'This memory learned from 200 training tasks of Demo, about 3 tools. Overall B scores best (3.8 on the 1–5 scale) and A worst (2.9). ' +
        'It makes 2 claims — kinds of task on which a tool does clearly better or worse against the others than it usually does, such as B relatively better on “counting” tasks (+0.3 points) and A relatively worse on “negation” tasks (−0.5). ' +
        '1 more is tentative: likely, but not settled enough to count. Hard for every tool: “comparison”. On tasks it never saw, 2 of 2 claims tested held.',
    );
    expect(memorySummary({ snapshot: snapshot({ claims: 0, tentative: 0, verification: undefined }), trainTasks: null })).toMatch(
      /^This memory learned from every task, about 3 tools\. .* It makes no claim: /,
    );
    // The note's largest effects first (its stored order is by facet).
    const note = {
      text: '',
      hard: ['a', 'b', 'c'],
      easy: [],
      items: [
        { id: 'dataset:a', facet: 'a', kind: 'difficulty' as const, n: 20, delta: -0.2, ci95: [-0.3, -0.1] as [number, number], q: 0.01, text: '' },
        { id: 'dataset:b', facet: 'b', kind: 'difficulty' as const, n: 20, delta: -0.6, ci95: [-0.8, -0.4] as [number, number], q: 0.01, text: '' },
        { id: 'dataset:c', facet: 'c', kind: 'difficulty' as const, n: 20, delta: -0.4, ci95: [-0.5, -0.3] as [number, number], q: 0.01, text: '' },
      ],
    };
    expect(memorySummary({ snapshot: { ...snapshot(), note } })).toContain('Hard for every tool: “b”, “c” and 1 more.');
  });

  it('one rounding rule with the entries (issue #34): a pass/fail memory speaks in pass rates and points', () => {
    const s = snapshot();
    const pass: CapabilitySnapshot = {
      ...s,
      cells: s.cells.map((c) => ({ ...c, effect: { ...c.effect, deltaVsOthers: c.toolId === 'A' ? -0.094 : 0.121 } })),
      report: { ...s.report, contrastScale: { kind: 'logit', why: 'pass/fail' } },
      model: { ...s.model!, scale: { min: 0, max: 1, direction: 'higher-better', integer: false }, model: { ...s.model!.model, mu: [0.42, 0.815, 0.5] } },
    };
    expect(memorySummary({ snapshot: pass })).toContain('Overall B scores best (passes 82%) and A worst (42%).');
    expect(memorySummary({ snapshot: pass })).toContain('(+12 points) and A relatively worse on “negation” tasks (−9 points).');
  });

  it("entry counts that add up, the tools' profiles included; null when they cannot", () => {
    expect(entryCountsText(snapshot().report, 3)).toBe('6 entries: 3 tool profiles, 2 claims, 1 tentative');
    expect(entryCountsText(snapshot({ entries: 8 }).report, 3)).toBe('8 entries: 3 tool profiles, 2 claims, 1 tentative, 2 other');
    expect(entryCountsText(snapshot({ entries: 4 }).report, 3)).toBeNull();
    expect(entryCountsText(snapshot({ claims: undefined }).report, 3)).toBeNull();
  });

  it('a rank as a person says it, the interval kept for the title', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']);
    expect(plainRank({ rank: 1, of: 6, rankCi95: [1, 1] })).toBe('1st of 6, clearly');
    expect(plainRank({ rank: 2, of: 6, rankCi95: [1, 3] })).toBe('2nd of 6, could be 1st–3rd');
  });

  it('a cell\'s status in words for its tool and facet, no "sign"', () => {
    expect(cellStatusSentence(effect({}), 'A', 'negation')).toBe(
      'A does worse on “negation” tasks against the other tools than it usually does; the chance it is the other way is below 0.1%.',
    );
    expect(cellStatusSentence(effect({ status: 'tentative', lfsr: 0.12, deltaVsOthers: 0.2 }), 'C', 'counting')).toBe(
      'C probably does better on “counting” tasks against the other tools than it usually does, but the chance it is the other way is 12% — too high to state it as a fact.',
    );
    expect(cellStatusSentence(effect({ status: 'none', lfsr: 0.4 }), 'A', 'x')).toBe(
      'The data do not settle it: A leans worse on “x” tasks against the other tools than it usually does, with a 40% chance it is the other way.',
    );
    // One tool: against its own average. On a lower-is-better scale a negative delta is the better side.
    expect(cellStatusSentence(effect({ deltaVsOthers: null, deltaOwn: 0.3 }), 'A', 'x')).toBe(
      'A does better on “x” tasks than its own average; the chance it is the other way is below 0.1%.',
    );
    expect(cellStatusSentence(effect({ lfsr: 0.02 }), 'A', 'negation', 'lower-better')).toBe(
      'A does better on “negation” tasks against the other tools than it usually does; the chance it is the other way is 2%.',
    );
    expect(cellStatusSentence(effect({ status: undefined }), 'A', 'x')).toBeNull();
  });

  it('memory names told apart by source and date, and by a number within the same minute', () => {
    const at = Date.UTC(2026, 11, 3, 18, 10);
    const labels = memoryLabels([
      { id: 'b', name: 'Demo memory', createdAt: at + 1000, imported: true },
      { id: 'a', name: 'Demo memory', createdAt: at, imported: false },
      { id: 'c', name: 'Demo memory', createdAt: at + 2000, imported: true },
    ]);
    expect(labels.get('a')).toMatch(/^Demo memory — built .+$/);
    expect(labels.get('b')).toMatch(/^Demo memory — imported .+$/);
    expect(labels.get('c')).toBe(`${labels.get('b')} (2)`);
  });
});
