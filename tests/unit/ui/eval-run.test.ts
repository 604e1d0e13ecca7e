import { describe, expect, it } from 'vitest';
import { formatEngineSpec, NO_ENGINE, parseEngineSpec } from '../../../src/core/llm';
import { LLM_METHODS } from '../../../src/core/predict/registry';
import type { EvalRun } from '../../../src/core/records';
import { evalConfigOf, runLabel, shownMethod, type EvalForm } from '../../../src/ui/eval-run';
import { formatDate } from '../../../src/ui/format';

const llm = LLM_METHODS[0]!;
const form = (over: Partial<EvalForm> = {}): EvalForm => ({
  datasetId: 'd1',
  methods: ['tool-mean', 'knn', llm],
  memoryId: '',
  engine: NO_ENGINE,
  hasEngine: false,
  llmMaxTest: 50,
  seeds: 3,
  train: null,
  test: null,
  ablation: false,
  ...over,
});

describe('what the New evaluation form sends', () => {
  it('without a language model: no LLM method, no engine; seeds, and train / test only when typed', () => {
    expect(evalConfigOf(form())).toEqual({ datasetId: 'd1', methods: ['tool-mean', 'knn'], ablation: false, seeds: 3 });
    expect(evalConfigOf(form({ train: 200, test: 800, ablation: true }))).toEqual({
      datasetId: 'd1',
      methods: ['tool-mean', 'knn'],
      ablation: true,
      test: 800,
      seeds: 3,
      train: 200,
    });
  });

  it('with one: the LLM methods, the engine as its spec and the test cap', () => {
    const engine = parseEngineSpec('openai:http://127.0.0.1:8080/v1#local');
    expect(evalConfigOf(form({ engine, hasEngine: true, llmMaxTest: 20 }))).toEqual({
      datasetId: 'd1',
      methods: ['tool-mean', 'knn', llm],
      ablation: false,
      engine: formatEngineSpec(engine),
      llmMaxTest: 20,
      seeds: 3,
    });
  });

  it('a stored memory: one seed, its own split (no train size)', () => {
    expect(evalConfigOf(form({ memoryId: 'm1', seeds: 5, train: 100 }))).toEqual({
      datasetId: 'd1',
      methods: ['tool-mean', 'knn'],
      ablation: false,
      memoryId: 'm1',
      seeds: 1,
    });
  });
});

describe('naming a run and the method a chart shows', () => {
  const run = (memoryName?: string, memoryId?: string) =>
    ({
      config: { datasetId: 'd1', seeds: 1, methods: [], ...(memoryId ? { memoryId } : {}) },
      metrics: memoryName ? { memory: { name: memoryName } } : undefined,
      startedAt: Date.UTC(2026, 0, 2, 3, 4),
    }) as unknown as EvalRun;

  it('the dataset, the memory’s name as it was (else its id), the start', () => {
    const when = formatDate(Date.UTC(2026, 0, 2, 3, 4));
    expect(runLabel(run(), 'Herons')).toBe(`Herons · ${when}`);
    expect(runLabel(run('Heron memory', 'm1'), 'Herons')).toBe(`Herons · memory Heron memory · ${when}`);
    expect(runLabel(run(undefined, 'm1'), 'Herons')).toBe(`Herons · memory m1 · ${when}`);
  });

  it('the chosen method while the run has it, else the best, else the fallback', () => {
    expect(shownMethod('knn', ['knn', 'memory'], 'memory', 'knn')).toBe('knn');
    expect(shownMethod('gone', ['knn', 'memory'], 'memory', 'knn')).toBe('memory');
    expect(shownMethod('', ['knn'], '', 'knn')).toBe('knn');
    expect(shownMethod('', [], '', undefined)).toBe('');
  });
});
