import { describe, expect, it } from 'vitest';
import { costedRequest, evidenceSummary, excludedReason, learnedFrom, limitOf, llmNote, rangeBasis, rangeText } from '../../../src/ui/predict-text';

describe('what a prediction learned from', () => {
  it('the outputs, and the tasks × tools they are made of when that is all of them', () => {
    expect(learnedFrom({ trainedOn: 9600, trainedTasks: 1600, trainedTools: 6 })).toBe('9,600 scored outputs (1,600 tasks × 6 tools)');
    expect(learnedFrom({ trainedOn: 9000, trainedTasks: 1600, trainedTools: 6 })).toBe(
      '9,000 scored outputs (1,600 tasks, 6 tools; not every tool scored on every task)',
    );
    expect(learnedFrom({ trainedOn: 1, trainedTasks: 1, trainedTools: 1 })).toBe('1 scored output (1 task × 1 tool)');
    expect(learnedFrom({ trainedOn: 12 })).toBe('12 scored outputs');
  });

  it('the language model’s unreadable and off-scale replies', () => {
    expect(llmNote({ parseFailures: 0, outOfRange: 0 })).toBe('');
    expect(llmNote({ parseFailures: 1, outOfRange: 2 })).toBe(
      " 1 model reply held no score: the tool's mean was used. 2 answers were off the scale and clamped.",
    );
    expect(llmNote({ parseFailures: 3, outOfRange: 1 })).toBe(
      " 3 model replies held no score: the tool's mean was used. 1 answer was off the scale and clamped.",
    );
  });

  it('where the ranges come from, a sample said as one', () => {
    expect(rangeBasis({ folds: 5, tasks: 1000, maxTrain: 800, allTasks: 1600 })).toBe(
      "1,000 of its 1,600 tasks (a seeded sample), split into 5 folds; each fold's tasks were predicted by a model that learned from at most 800 " +
        'of the other tasks, so no error comes from a model that saw its task',
    );
    expect(rangeBasis({ folds: 5, tasks: 400, maxTrain: 320 })).toMatch(/^its 400 tasks, split into 5 folds;/);
  });

  it('a range and the evidence behind a prediction', () => {
    expect(rangeText({ lo: 2.1, hi: 3.456, level: 0.8, source: 'similar', n: 50 })).toBe(
      '80% range 2.10–3.46, from the errors on the 50 most similar training tasks',
    );
    expect(rangeText({ lo: 1, hi: 2, level: 0.8, source: 'overall', n: 1200 })).toBe(
      '80% range 1.00–2.00, from the errors on 1,200 training tasks (too few similar ones)',
    );
    const ev = (kind: 'entry' | 'experience') => ({ kind, id: kind, similarity: 0.5, text: 't' });
    expect(evidenceSummary([ev('experience'), ev('entry')])).toBe('Why: the 2 memory entries and tasks behind it');
    expect(evidenceSummary([ev('experience')])).toBe('Why: the 1 most similar tasks it was scored on');
  });

  it('why a limit left a tool out', () => {
    expect(excludedReason({ toolId: 'A', reason: 'cost-over', value: 0.04, limit: 0.01 })).toBe('$0.04 per call, over $0.01');
    expect(excludedReason({ toolId: 'A', reason: 'cost-unknown', limit: 0.01 })).toBe('its cost is not known');
    expect(excludedReason({ toolId: 'A', reason: 'latency-over', value: 2400, limit: 900 })).toBe('2.4 s, over 900 ms');
    expect(excludedReason({ toolId: 'A', reason: 'latency-unknown', limit: 900 })).toBe('its latency is not known');
  });
});

describe('the request’s costs and limits', () => {
  const costs = new Map([
    ['A', 0.04],
    ['__proto__', 0.002],
  ]);
  const base = { tools: ['A', '__proto__', 'C'], costOf: (t: string) => costs.get(t), latencyOf: (t: string) => (t === 'C' ? 900 : undefined) };

  it('nothing when no weight and no limit', () => {
    expect(costedRequest({ ...base, costWeight: 0, maxCost: null, maxLatencyMs: null })).toEqual({});
  });

  it('the known costs with the weight, the limits as typed, the known latencies with a latency limit', () => {
    const r = costedRequest({ ...base, costWeight: 2, maxCost: 0.01, maxLatencyMs: 1000 });
    expect(Object.getPrototypeOf(r.costs)).toBeNull();
    expect(Object.entries(r.costs!)).toEqual([
      ['A', 0.04],
      ['__proto__', 0.002],
    ]);
    expect([r.costWeight, r.maxCost, r.maxLatencyMs]).toEqual([2, 0.01, 1000]);
    expect(Object.entries(r.latencies!)).toEqual([['C', 900]]);
  });

  it('a cost limit alone sends the costs (weight 0); a negative or non-finite limit is none', () => {
    expect(costedRequest({ ...base, costWeight: 0, maxCost: 0.01, maxLatencyMs: -1 })).toMatchObject({ costWeight: 0, maxCost: 0.01 });
    expect(costedRequest({ ...base, costWeight: 0, maxCost: 0.01, maxLatencyMs: -1 }).latencies).toBeUndefined();
    expect([limitOf(null), limitOf(-1), limitOf(Number.NaN), limitOf(0)]).toEqual([undefined, undefined, undefined, 0]);
  });
});
