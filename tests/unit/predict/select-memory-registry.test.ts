import { describe, expect, it } from 'vitest';
import { CapabilityMemoryPredictor } from '../../../src/core/capability/predictor';
import {
  ALL_METHODS,
  createPredictor,
  isMethodId,
  memorySignal,
  MemoryPredictor,
  methodNeeds,
  OFFLINE_METHODS,
  selectTool,
  ToolMeanPredictor,
  SnapshotRetriever,
} from '../../../src/core/predict';
import { predictAndSelect } from '../../../src/app/predict/select';
import { LEVEL_VALUE, type Level } from '../../../src/core/types';
import type { MemoryEntry } from '../../../src/core/records';
import { ex, set, v } from './helpers';

describe('selectTool', () => {
  const c = [
    { toolId: 'A', score: 3.0, cost: 0 },
    { toolId: 'B', score: 3.05, cost: 1 },
    { toolId: 'C', score: 2.0, cost: 0 },
  ];
  it('picks the best prediction; a tie within the margin abstains', () => {
    expect(selectTool(c).choice).toBe('B');
    const tie = selectTool(c, { margin: 0.1 });
    expect(tie.choice).toBeNull();
    expect(tie.tied).toEqual(['B', 'A']);
    expect(
      selectTool([
        { toolId: 'X', score: 1 },
        { toolId: 'Y', score: 1 },
      ]).choice,
    ).toBeNull();
    expect(selectTool([]).choice).toBeNull();
  });
  it('trades quality for cost and honours lower-is-better scales', () => {
    const s = selectTool(c, { costWeight: 0.1 });
    expect(s.choice).toBe('A'); // B: 3.05 − 0.1 = 2.95
    expect(s.ranked.map((r) => +r.utility.toFixed(9))).toEqual([3, 2.95, 2]);
    expect(selectTool(c, { direction: 'lower-better' }).choice).toBe('C');
  });
  it('predictAndSelect predicts each candidate, then selects', async () => {
    const p = new ToolMeanPredictor();
    p.fit(set([ex('a', 'X', 4), ex('a', 'Y', 2), ex('a', 'Z', 3.9)]));
    const predict = (tool: string) => p.predict({ taskId: 'q', prompt: 'q' }, tool);
    const s = await predictAndSelect(predict, [{ toolId: 'X' }, { toolId: 'Y' }, { toolId: 'Z', cost: 0 }]);
    expect(s.choice).toBe('X');
    expect(s.predictions.Y!.score).toBe(2);
    expect((await predictAndSelect(predict, [{ toolId: 'X' }, { toolId: 'Z' }], { margin: 0.2 })).tied).toEqual(['X', 'Z']);
  });
});

function entry(id: string, toolId: string, level: Level, validTo: number | null = null): MemoryEntry {
  return {
    id,
    memoryId: 'm',
    toolId,
    level,
    value: LEVEL_VALUE[level],
    text: `${level} entry`,
    evidence: [],
    support: 1,
    origin: 'manual',
    pinned: false,
    validFrom: 0,
    validTo,
    supersededBy: null,
    createdAt: 0,
    updatedAt: 0,
  };
}

describe('memory predictor (extension point, numeric version)', () => {
  const memory = {
    entries: [entry('p', 'A', 'proficient'), entry('w', 'A', 'weak'), entry('old', 'A', 'weak', 5)],
    vectors: new Map([
      ['p', v(1, 0)],
      ['w', v(0, 1)],
      ['old', v(1, 0)],
    ]),
  };
  it('retrieves valid entries per level and averages their values by similarity', () => {
    const r = new SnapshotRetriever(memory, 12);
    const hits = r.retrieve({ taskId: 'q', prompt: 'q', vector: v(0.6, 0.8) }, 'A');
    expect(hits.map((h) => h.entry.id)).toEqual(['w', 'p']); // the retired entry is never retrieved
    expect(memorySignal(hits)).toBeCloseTo((0.6 * 2 - 0.8 * 2) / 1.4, 6);
  });
  it('calibrates a slope on training examples (hand-computed)', () => {
    const p = new MemoryPredictor({ memory });
    // signals: task [1,0] → +2 (score 5), task [0,1] → −2 (score 1); mean 3, slope 8/8 = 1
    p.fit(set([ex('a', 'A', 5, { vector: v(1, 0) }), ex('b', 'A', 1, { vector: v(0, 1) })]));
    expect(p.predict({ taskId: 'q', prompt: 'q', vector: v(1, 0) }, 'A').score).toBeCloseTo(5, 6);
    const mid = p.predict({ taskId: 'r', prompt: 'r', vector: v(0.6, 0.8) }, 'A');
    expect(mid.score).toBeCloseTo(3 + (0.6 * 2 - 0.8 * 2) / 1.4, 6);
    expect(mid.evidence[0]).toMatchObject({ kind: 'entry', id: 'w' });
  });
});

describe('registry', () => {
  it('builds every offline method; memory induces its own without a snapshot; LLM methods need an engine', () => {
    for (const id of OFFLINE_METHODS) expect(createPredictor(id).id).toBe(id);
    expect(ALL_METHODS).toEqual(expect.arrayContaining(['memory', 'generic-llm', 'fewshot-llm', 'toolmem-llm', 'hybrid']));
    expect(createPredictor('memory')).toBeInstanceOf(CapabilityMemoryPredictor);
    expect(methodNeeds('memory').vectors).toBe('optional');
    expect(createPredictor('memory', { memory: { entries: [], vectors: new Map() } })).toBeInstanceOf(MemoryPredictor);
    expect(() => createPredictor('toolmem-llm')).toThrow(/LLM/);
    expect(isMethodId('knn')).toBe(true);
    expect(isMethodId('magic')).toBe(false);
    expect(methodNeeds('ensemble').vectors).toBe('optional');
    expect(methodNeeds('knn', { similarity: 'dense' }).vectors).toBe(true);
    expect(methodNeeds('generic-llm').llm).toBe(true);
  });
});
