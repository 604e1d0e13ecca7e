/** Sample API and handlers shared by the RPC tests (not a test file itself). */
import { ParseError } from '../../../src/core/errors';
import { collectTransferables, expose, transfer, type ApiSpec, type Handlers } from '../../../src/rpc';

export interface SampleApi {
  add: { req: { a: number; b: number }; res: number; progress: never };
  /** Reports progress after each step; stops with the signal's CancelledError when cancelled. */
  slow: { req: { steps: number; stepMs: number }; res: { completed: number }; progress: { done: number; total: number } };
  /** Waits until the test opens gate `key`, then answers `key`; ignores cancellation on purpose. */
  gate: { req: { key: string }; res: string; progress: never };
  failParse: { req: { file: string; row: number }; res: never; progress: never };
  failPlain: { req: { message: string }; res: never; progress: never };
  /** Returns 0, 0.5, 1, … as a Float32Array, transferred. */
  vector: { req: { n: number }; res: Float32Array; progress: never };
  sum: { req: { values: Float32Array }; res: number; progress: never };
}

/** Handler-side observations the tests assert on. */
export interface Probe {
  calls: Record<string, number>;
  /** The exact error instances the handlers threw. */
  thrown: Error[];
  /** The Float32Array the `vector` handler sent (to check it was detached). */
  sentVector?: Float32Array;
  /** `ctx.signal.reason` seen by `slow` when it was cancelled. */
  slowAbortReason?: unknown;
  slowStepsRun: number;
  gates: Map<string, () => void>;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function createSample(): { handlers: Handlers<SampleApi>; probe: Probe } {
  const probe: Probe = { calls: {}, thrown: [], slowStepsRun: 0, gates: new Map() };
  const count = (method: string): void => {
    probe.calls[method] = (probe.calls[method] ?? 0) + 1;
  };
  const handlers: Handlers<SampleApi> = {
    add: ({ a, b }) => {
      count('add');
      return a + b;
    },
    async slow({ steps, stepMs }, ctx) {
      count('slow');
      ctx.signal.addEventListener('abort', () => {
        probe.slowAbortReason = ctx.signal.reason;
      });
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs, ctx.signal);
        probe.slowStepsRun = i;
        ctx.progress({ done: i, total: steps });
      }
      return { completed: steps };
    },
    gate({ key }) {
      count('gate');
      return new Promise<string>((resolve) => probe.gates.set(key, () => resolve(key)));
    },
    failParse({ file, row }) {
      count('failParse');
      const error = new ParseError(`Bad value in ${file}`, file, row);
      probe.thrown.push(error);
      throw error;
    },
    async failPlain({ message }) {
      count('failPlain');
      await Promise.resolve();
      const error = new Error(message);
      probe.thrown.push(error);
      throw error;
    },
    vector({ n }) {
      count('vector');
      const values = Float32Array.from({ length: n }, (_, i) => i * 0.5);
      probe.sentVector = values;
      return transfer(values, collectTransferables(values));
    },
    sum({ values }) {
      count('sum');
      return values.reduce((total, v) => total + v, 0);
    },
  };
  return { handlers, probe };
}

/**
 * A handler table served on port2 of a fresh channel. The test talks on port1; `cleanups` gets the
 * closing of both ends (the test file runs them after each test).
 */
export function servedChannel<Api extends ApiSpec<Api>>(handlers: Handlers<Api>, cleanups: Array<() => void>) {
  const { port1, port2 } = new MessageChannel();
  const server = expose<Api>(handlers, port2);
  cleanups.push(() => {
    server.dispose();
    port1.close();
    port2.close();
  });
  return { port1, port2, server };
}
