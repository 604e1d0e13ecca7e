/** The one method registry (issue #16 item 4): every list is derived from one table, in its order. */
import { describe, expect, it } from 'vitest';
import {
  ALL_METHODS,
  createLlmPredictor,
  createPredictor,
  EnsemblePredictor,
  HybridPredictor,
  isLlmMethod,
  isOfflineMethod,
  LLM_METHODS,
  MEMORY_METHODS,
  METHODS,
  methodNeeds,
  methodOf,
  NEIGHBOUR_METHODS,
  NUMERIC_METHODS,
  OFFLINE_METHODS,
  ToolMemLlmPredictor,
  type MethodOptions,
} from '../../../src/core/predict';
import { ScriptedEngine } from '../../../src/core/llm';

describe('method registry', () => {
  it('derives every list from the table, in its order', () => {
    expect(ALL_METHODS).toEqual([
      'tool-mean',
      'tool-median',
      'knn',
      'knn-difficulty',
      'ridge',
      'ensemble',
      'memory',
      'generic-llm',
      'fewshot-llm',
      'toolmem-llm',
      'hybrid',
    ]);
    expect(OFFLINE_METHODS).toEqual(['tool-mean', 'tool-median', 'knn', 'knn-difficulty', 'ridge', 'ensemble']);
    expect(NUMERIC_METHODS).toEqual([...OFFLINE_METHODS, 'memory']);
    expect(LLM_METHODS).toEqual(['generic-llm', 'fewshot-llm', 'toolmem-llm', 'hybrid']);
    expect(NEIGHBOUR_METHODS).toEqual(['knn', 'knn-difficulty', 'memory']);
    expect(MEMORY_METHODS).toEqual(['memory', 'toolmem-llm', 'hybrid']);
    expect([...METHODS.keys()]).toEqual(ALL_METHODS);
    expect(ALL_METHODS.filter((m) => !methodOf(m).readsTask)).toEqual(['tool-mean', 'tool-median']);
    expect(isOfflineMethod('memory')).toBe(false);
    expect(isLlmMethod('hybrid')).toBe(true);
    expect(isLlmMethod('__proto__')).toBe(false);
  });

  it('gives every method a label and a one-sentence description for the pickers', () => {
    for (const m of ALL_METHODS) {
      const def = methodOf(m);
      expect(def.id).toBe(m);
      expect(def.label.length).toBeGreaterThan(3);
      expect(def.description).toMatch(/^[A-Z"'t].{20,160}\.$/);
    }
    expect(new Set(ALL_METHODS.map((m) => methodOf(m).label)).size).toBe(ALL_METHODS.length);
  });

  it('states the needs of each method as before the table (vectors, memory, llm)', () => {
    const dense: MethodOptions = { similarity: 'dense' };
    const memory: MethodOptions = { memory: { entries: [], vectors: new Map() } };
    const table = (opts: MethodOptions) => Object.fromEntries(ALL_METHODS.map((m) => [m, methodNeeds(m, opts)]));
    expect(table({})).toEqual({
      'tool-mean': {},
      'tool-median': {},
      knn: { vectors: false },
      'knn-difficulty': { vectors: false },
      ridge: {},
      ensemble: { vectors: 'optional' },
      memory: { vectors: 'optional' },
      'generic-llm': { llm: true },
      'fewshot-llm': { llm: true, vectors: false },
      'toolmem-llm': { vectors: true, memory: true, llm: true },
      hybrid: { vectors: true, memory: true, llm: true },
    });
    expect(methodNeeds('knn', dense)).toEqual({ vectors: true });
    expect(methodNeeds('fewshot-llm', { similarity: 'hybrid' })).toEqual({ llm: true, vectors: true });
    expect(methodNeeds('memory', memory)).toEqual({ vectors: true, memory: true });
  });

  it('creates each method fresh: offline ones here, LLM ones over an engine', () => {
    for (const m of NUMERIC_METHODS) expect(createPredictor(m)).not.toBe(createPredictor(m));
    const engine = new ScriptedEngine(() => '{"score": 3}');
    for (const m of LLM_METHODS) expect(createLlmPredictor(m, { engine }).id).toBe(m);
    expect(createLlmPredictor('toolmem-llm', { engine }, { k: 3 })).toBeInstanceOf(ToolMemLlmPredictor);
    const hybrid = createLlmPredictor('hybrid', { engine }) as HybridPredictor;
    expect((hybrid as unknown as { numeric: unknown }).numeric).toBeInstanceOf(EnsemblePredictor);
    expect(() => createPredictor('hybrid')).toThrow(/needs an LLM/);
  });
});
