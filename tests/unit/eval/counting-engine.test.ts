/** The call-counting engine of the shared evaluation use case: counts, and never piles listeners on the run's signal. */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { countingEngine } from '../../../src/app/evaluate/methods';
import type { ChatOptions, LlmEngine } from '../../../src/core/llm';

function recordingEngine(seen: (AbortSignal | undefined)[], hold?: Promise<void>): LlmEngine {
  return {
    id: 'rec',
    capabilities: { jsonSchema: false, streaming: false },
    countTokens: (t: string) => t.length,
    async chat(_m: unknown, options?: ChatOptions) {
      seen.push(options?.signal);
      if (hold) await hold;
      return { text: '{"score": 3}', promptTokens: 1, completionTokens: 1 };
    },
  } as unknown as LlmEngine;
}

describe('countingEngine', () => {
  it('counts finished calls; each call gets its own signal and leaves no listener on the run signal', async () => {
    const run = new AbortController();
    const seen: (AbortSignal | undefined)[] = [];
    let calls = 0;
    const engine = countingEngine(recordingEngine(seen), () => calls++);
    for (let i = 0; i < 200; i++) await engine.chat([{ role: 'user', content: 'x' }], { signal: run.signal });
    expect(calls).toBe(200);
    expect(new Set(seen).size).toBe(200);
    expect(seen.includes(run.signal)).toBe(false);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it('aborting the run aborts the call in flight (with the run’s reason)', async () => {
    const run = new AbortController();
    const seen: (AbortSignal | undefined)[] = [];
    let release!: () => void;
    const engine = countingEngine(recordingEngine(seen, new Promise<void>((r) => (release = r))), () => undefined);
    const pending = engine.chat([{ role: 'user', content: 'x' }], { signal: run.signal });
    const reason = new Error('Ctrl-C');
    run.abort(reason);
    expect(seen[0]!.aborted).toBe(true);
    expect(seen[0]!.reason).toBe(reason);
    release();
    await pending;
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });
});
