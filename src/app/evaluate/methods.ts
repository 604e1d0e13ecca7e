/**
 * Use case: evaluate a list of methods — offline, memory and LLM ones — on seeded splits of scored
 * data. The app's predictors worker (src/app/evaluate/evaluate.ts) and `toolmem eval` (src/cli) both call
 * `evaluateMethods`, so the same split, seeds, engine and methods give the same numbers in both:
 * one place decides which predictor a method id becomes, which methods are capped to the first N
 * test tasks, how model calls are counted and what the progress says. Nothing here knows where the
 * data, the engine or the vectors come from.
 */
import { evaluate, type EvalReport, type SeedResult } from '../../core/eval/evaluate';
import type { ScoredPair } from '../../core/eval/ground-truth';
import { splitByTask, type SplitSizes } from '../../core/eval/split';
import type { ChatMessage, ChatOptions, ChatResult, LlmEngine } from '../../core/llm/engine';
import type { PromptTool } from '../../core/prompts/shared';
import { createLlmPredictor, createPredictor, isLlmMethod, MEMORY_METHODS, type MethodId, type MethodOptions } from '../../core/predict/registry';
import type { MemorySnapshot } from '../../core/predict/memory';
import type { AnyPredictor, LlmPredictStats } from '../../core/predict/types';
import { dictFrom, own } from '../../core/data-keys';
import type { ScoreScale } from '../../core/types';

/** Methods that read a memory (a stored one replaces the one each split would induce): the registry's. */
export { MEMORY_METHODS } from '../../core/predict/registry';

/** Test tasks per split scored by the LLM methods unless the request says otherwise. */
export const DEFAULT_LLM_MAX_TEST = 50;

/**
 * Wraps an engine so every finished call is reported (progress "done / total calls"). Each call
 * gets its own signal, linked to the run's and unlinked when the call ends: Node's fetch leaves an
 * abort listener on the signal it was given until the response is collected, so thousands of calls
 * on the run's one signal piled up listeners (a MaxListenersExceededWarning after ~1,500 calls).
 */
export function countingEngine(inner: LlmEngine, onCall: () => void): LlmEngine {
  return {
    get id() {
      return inner.id;
    },
    get capabilities() {
      return inner.capabilities;
    },
    countTokens: (text: string) => inner.countTokens(text),
    async chat(messages: readonly ChatMessage[], options?: ChatOptions): Promise<ChatResult> {
      const outer = options?.signal;
      if (!outer) {
        const result = await inner.chat(messages, options);
        onCall();
        return result;
      }
      const call = new AbortController();
      const forward = () => call.abort(outer.reason);
      if (outer.aborted) forward();
      else outer.addEventListener('abort', forward, { once: true });
      try {
        const result = await inner.chat(messages, { ...options, signal: call.signal });
        onCall();
        return result;
      } finally {
        outer.removeEventListener('abort', forward);
      }
    },
  };
}

/**
 * Model calls one LLM method makes over all seeds: per seed, the (task, tool) pairs with a true
 * score among the first `maxTest` test tasks of that seed's split (the harness's own rule). A
 * `fixed` split (a stored memory's) replaces the seeded ones.
 */
export function llmCallsPerMethod(
  data: readonly ScoredPair[],
  sizes: SplitSizes,
  seeds: readonly number[],
  maxTest: number,
  fixed?: { test: readonly string[] },
): number {
  const toolsPerTask = new Map<string, number>();
  for (const p of data) toolsPerTask.set(p.taskId, (toolsPerTask.get(p.taskId) ?? 0) + 1);
  let total = 0;
  for (const seed of seeds) {
    const test = fixed ? fixed.test : splitByTask(toolsPerTask.keys(), sizes, seed).test;
    for (const id of test.slice(0, maxTest)) total += toolsPerTask.get(id) ?? 0;
  }
  return total;
}

export interface EvalProgress {
  /** Methods fitted so far over all seeds, of `total` (seeds × methods). */
  done: number;
  total: number;
  label: string;
  /** Model calls finished / planned (only when an LLM method runs). */
  calls?: { done: number; total: number };
}

export interface EvaluateMethodsInput {
  data: readonly ScoredPair[];
  scale: ScoreScale;
  sizes: SplitSizes;
  seeds: readonly number[];
  methods: readonly MethodId[];
  toolPairs: readonly (readonly [string, string])[];
  /** k and friends for every method. */
  options?: MethodOptions;
  /** The loaded engine; required when an LLM method is asked for. */
  engine?: LlmEngine | null;
  /** Name / modality / description per tool, for the LLM prompts. */
  tools?: ReadonlyMap<string, PromptTool>;
  /** What the scale's values mean (the preset's words), for the LLM prompts. */
  scaleMeaning?: string;
  /** Test tasks per split the LLM methods score (default DEFAULT_LLM_MAX_TEST). */
  llmMaxTest?: number;
  vectors?: ReadonlyMap<string, Float32Array>;
  /** A stored memory: the memory methods read it instead of inducing one per split. */
  memory?: MemorySnapshot;
  fixedSplit?: { readonly train: readonly string[]; readonly test: readonly string[] };
  keepPredictions?: boolean;
  signal?: AbortSignal;
  /** Wraps each fresh predictor (e.g. to record the entries it cites). */
  wrap?(id: MethodId, predictor: AnyPredictor): AnyPredictor;
  onProgress?(p: EvalProgress): void;
  /** After each method of a seed: the seed's results so far (partial results on cancellation). */
  onMethodDone?(seed: SeedResult): void;
}

/** Model calls the LLM methods of `input` will make (0 without one). */
export function plannedLlmCalls(input: Pick<EvaluateMethodsInput, 'data' | 'sizes' | 'seeds' | 'methods' | 'llmMaxTest' | 'fixedSplit'>): number {
  const llm = input.methods.filter(isLlmMethod).length;
  return llm ? llm * llmCallsPerMethod(input.data, input.sizes, input.seeds, input.llmMaxTest ?? DEFAULT_LLM_MAX_TEST, input.fixedSplit) : 0;
}

export async function evaluateMethods(input: EvaluateMethodsInput): Promise<EvalReport> {
  const { methods, seeds } = input;
  const llmMaxTest = input.llmMaxTest ?? DEFAULT_LLM_MAX_TEST;
  const opts = input.options ?? {};
  if (methods.some(isLlmMethod) && !input.engine) throw new Error('evaluateMethods: an LLM method needs an engine');
  const optsOf = (id: MethodId): MethodOptions => (input.memory && MEMORY_METHODS.includes(id) ? { ...opts, memory: input.memory } : opts);
  const total = seeds.length * methods.length;
  let done = 0;
  let label = '';
  const calls = { done: 0, total: plannedLlmCalls({ ...input, llmMaxTest }) };
  const report = (d: number) => input.onProgress?.({ done: d, total, label, ...(calls.total ? { calls: { ...calls } } : {}) });
  const step = (id: string) => {
    label = `Seed ${Math.floor(done / methods.length) + 1}: ${id}`;
    report(done++);
  };
  const counted = input.engine
    ? countingEngine(input.engine, () => {
        calls.done++;
        report(done - 1);
      })
    : null;
  const llmOptions = { engine: counted!, ...(input.tools ? { tools: input.tools } : {}), ...(input.scaleMeaning ? { scaleMeaning: input.scaleMeaning } : {}) };
  return evaluate({
    data: input.data,
    scale: input.scale,
    sizes: input.sizes,
    seeds,
    toolPairs: input.toolPairs,
    ...(input.keepPredictions ? { keepPredictions: true } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.fixedSplit ? { fixedSplit: input.fixedSplit } : {}),
    ...(input.vectors ? { vectors: input.vectors } : {}),
    ...(input.onMethodDone ? { onMethodDone: input.onMethodDone } : {}),
    methods: methods.map((id) => ({
      id,
      create: () => {
        step(id);
        const p = isLlmMethod(id) ? createLlmPredictor(id, llmOptions, optsOf(id)) : createPredictor(id, optsOf(id));
        return input.wrap ? input.wrap(id, p) : p;
      },
      ...(isLlmMethod(id) ? { maxTestTasks: llmMaxTest } : {}),
    })),
  });
}

/** An LLM method's model usage summed over seeds, with the test tasks it scored per seed. */
export interface LlmMethodTotals extends LlmPredictStats {
  testTasks: number;
}

/** LLM stats per method, summed over seeds (undefined when no LLM method ran). */
export function llmTotals(report: EvalReport): Record<string, LlmMethodTotals> | undefined {
  const out = new Map<string, LlmMethodTotals>();
  for (const m of report.methods) {
    for (const s of report.seeds) {
      const r = own(s.methods, m);
      if (!r?.llm) continue;
      let t = out.get(m);
      if (!t) out.set(m, (t = { calls: 0, parseFailures: 0, outOfRange: 0, promptTokens: 0, completionTokens: 0, testTasks: r.testTasks }));
      for (const k of ['calls', 'parseFailures', 'outOfRange', 'promptTokens', 'completionTokens'] as const) t[k] += r.llm[k];
    }
  }
  return out.size ? dictFrom(out) : undefined;
}
