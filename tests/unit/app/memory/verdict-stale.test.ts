/** Capability entries are flagged stale by their verdict on later experiences (contradicted = stale). */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../../src/core/capability/types';
import { newEntry } from '../../../../src/core/memory';
import type { Experience } from '../../../../src/core/types';
import type { Memory, MemoryEntry } from '../../../../src/core/records';
import { verdictStaleFlags } from '../../../../src/app/memory/checks';

const SCALE = { min: 1, max: 5, direction: 'higher-better' as const, integer: true };
const memory: Memory = { id: 'm', name: 'M', datasetIds: ['d'], embeddingModel: 'x', settings: {}, createdAt: 0, updatedAt: 0 };
const effect: Effect = { n: 20, deltaOwn: -1, deltaVsOthers: -1, ci95: [-1.5, -0.5], q: 0.01 };
const weakAtNegation: MemoryEntry = {
  ...newEntry({ id: 'e1', memoryId: 'm', toolId: 'A', level: 'weak', text: 'Weak at negation', evidence: [], origin: 'stats', at: 1 }),
  facet: { kind: 'category', name: 'negation', rule: { type: 'category', value: 'negation' } },
  effect,
};

/** 40 tasks, the first 20 tagged negation; A scores `onNeg` there and 2 elsewhere, B 3 everywhere. */
function later(onNeg: number): Experience[] {
  return Array.from({ length: 40 }, (_, t) =>
    (['A', 'B'] as const).map((tool) => ({
      id: `d|t${t}|${tool}|r`,
      datasetId: 'd',
      taskId: `t${String(t).padStart(2, '0')}`,
      prompt: `task ${t}`,
      toolId: tool,
      score: tool === 'B' ? 3 : t < 20 ? onNeg : 2,
      rater: 'r',
      scoreSource: 'human' as const,
      categories: t < 20 ? ['negation'] : [],
      importId: 'i2',
      createdAt: 9,
    })),
  ).flat();
}

describe('verdict-driven stale flags', () => {
  it('a weakness that later data contradicts (A now better on negation) is stale, with the experiences against it', () => {
    const flags = verdictStaleFlags([weakAtNegation], memory, later(5), SCALE);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ entryId: 'e1', toolId: 'A', compared: 20, share: 1 });
    // A's mean over the later data is 3.5: its 20 negation scores of 5 go against "weak".
    expect(flags[0]!.contradicting).toHaveLength(20);
    expect(flags[0]!.comparedMean).toBe(5);
  });

  it('a weakness the later data confirms is not stale; no later data, no flag', () => {
    expect(verdictStaleFlags([weakAtNegation], memory, later(1), SCALE)).toEqual([]);
    expect(verdictStaleFlags([weakAtNegation], memory, [], SCALE)).toEqual([]);
  });
});
