/**
 * One behavioural suite run against both implementations of Client<A>: the worker proxy over a real
 * MessageChannel (server on one port, client on the other) and the in-thread engine.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CancelledError, NotFoundError, ParseError, ToolMemError } from '../../../src/core/errors';
import { createClient, createInThreadClient, expose, UnknownMethodError, type Client } from '../../../src/rpc';
import { createSample, type Probe, type SampleApi } from './sample-api';

interface Harness {
  client: Client<SampleApi>;
  probe: Probe;
  close(): void;
}

type Kind = 'worker' | 'in-thread';

const implementations: Array<{ kind: Kind; setup: () => Harness }> = [
  {
    kind: 'worker',
    setup() {
      const { handlers, probe } = createSample();
      const { port1, port2 } = new MessageChannel();
      const server = expose<SampleApi>(handlers, port2);
      const client = createClient<SampleApi>(port1);
      return {
        client,
        probe,
        close() {
          server.dispose();
          client.dispose();
          port1.close();
          port2.close();
        },
      };
    },
  },
  {
    kind: 'in-thread',
    setup() {
      const { handlers, probe } = createSample();
      return { client: createInThreadClient<SampleApi>(handlers), probe, close() {} };
    },
  },
];

/** An API the handlers do not implement, to call an unknown method through the typed client. */
type WiderApi = SampleApi & { missing: { req: null; res: null; progress: never } };

const caught = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );

describe.each(implementations)('$kind client', ({ kind, setup }) => {
  let h: Harness;
  beforeEach(() => {
    h = setup();
  });
  afterEach(() => {
    h.close();
    vi.restoreAllMocks();
  });

  it('calls a method and returns its value', async () => {
    await expect(h.client.call('add', { a: 2, b: 40 })).resolves.toBe(42);
    expect(h.probe.calls.add).toBe(1);
  });

  it('delivers progress events in order before the result', async () => {
    const events: Array<{ done: number; total: number }> = [];
    const result = await h.client.call('slow', { steps: 3, stepMs: 1 }, { onProgress: (p) => events.push(p) });
    expect(result).toEqual({ completed: 3 });
    expect(events).toEqual([
      { done: 1, total: 3 },
      { done: 2, total: 3 },
      { done: 3, total: 3 },
    ]);
  });

  it('cancels a slow job: CancelledError for the caller, aborted signal for the handler', async () => {
    const controller = new AbortController();
    const events: number[] = [];
    const started = Date.now();
    const error = await caught(
      h.client.call(
        'slow',
        { steps: 40, stepMs: 25 },
        {
          signal: controller.signal,
          onProgress: (p) => {
            events.push(p.done);
            if (p.done === 2) controller.abort();
          },
        },
      ),
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as Error).name).toBe('CancelledError');
    expect(events).toEqual([1, 2]); // nothing delivered after the abort
    expect(Date.now() - started).toBeLessThan(40 * 25);
    await vi.waitFor(() => expect(h.probe.slowAbortReason).toBeInstanceOf(CancelledError));
    const stepsAtAbort = h.probe.slowStepsRun;
    expect(stepsAtAbort).toBeLessThan(40);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(h.probe.slowStepsRun).toBe(stepsAtAbort); // the handler really stopped
  });

  it('rejects at once on abort even when the handler ignores cancellation', async () => {
    const controller = new AbortController();
    const pending = h.client.call('gate', { key: 'stuck' }, { signal: controller.signal });
    await vi.waitFor(() => expect(h.probe.gates.has('stuck')).toBe(true));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    // The handler is still running; its late answer is dropped without effect.
    h.probe.gates.get('stuck')?.();
    await expect(h.client.call('add', { a: 1, b: 1 })).resolves.toBe(2);
  });

  it('rejects an already-aborted call without running the handler', async () => {
    await expect(h.client.call('add', { a: 1, b: 2 }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(h.probe.calls.add).toBeUndefined();
  });

  it('rejects with ParseError keeping message, file and row', async () => {
    const error = await caught(h.client.call('failParse', { file: 'scores.csv', row: 17 }));
    const thrown = h.probe.thrown[0];
    expect(error).toBeInstanceOf(ParseError);
    expect(error).toBeInstanceOf(ToolMemError);
    const parseError = error as ParseError;
    expect(parseError.name).toBe('ParseError');
    expect(parseError.message).toBe('Bad value in scores.csv');
    expect(parseError.file).toBe('scores.csv');
    expect(parseError.row).toBe(17);
    expect(parseError.stack).toBe(thrown?.stack); // the stack of the throw site
    if (kind === 'in-thread') expect(error).toBe(thrown);
    else expect(error).not.toBe(thrown);
  });

  it('rejects a plain Error with its message (rebuilt as ToolMemError named "Error" over a worker)', async () => {
    const error = await caught(h.client.call('failPlain', { message: 'disk on fire' }));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('disk on fire');
    expect((error as Error).name).toBe('Error');
    if (kind === 'in-thread') {
      expect(error).toBe(h.probe.thrown[0]);
      expect(error).not.toBeInstanceOf(ToolMemError);
    } else {
      expect(error).toBeInstanceOf(ToolMemError);
    }
  });

  it('rejects an unknown method with UnknownMethodError', async () => {
    const wide = h.client as unknown as Client<WiderApi>;
    const error = await caught(wide.call('missing', null));
    expect(error).toBeInstanceOf(UnknownMethodError);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ name: 'UnknownMethodError', method: 'missing', message: 'Unknown RPC method "missing"' });
    // Prototype members are not methods.
    await expect((h.client as unknown as Client<{ toString: { req: null; res: string; progress: never } }>).call('toString', null)).rejects.toBeInstanceOf(
      UnknownMethodError,
    );
  });

  it('returns a Float32Array response (transferred over a worker: sender buffer detached)', async () => {
    const result = await h.client.call('vector', { n: 4 });
    expect(result).toBeInstanceOf(Float32Array);
    expect(Array.from(result)).toEqual([0, 0.5, 1, 1.5]);
    const sent = h.probe.sentVector;
    if (kind === 'worker') {
      expect(sent?.buffer.byteLength).toBe(0);
      expect(sent?.length).toBe(0);
      expect(result === sent).toBe(false); // (not.toBe would try to print the detached array)
    } else {
      expect(result).toBe(sent);
      expect(sent?.buffer.byteLength).toBe(16);
    }
  });

  it('transfers request buffers listed in opts.transfer', async () => {
    const values = new Float32Array([1, 2, 3.5]);
    const total = await h.client.call('sum', { values }, { transfer: [values.buffer] });
    expect(total).toBe(6.5);
    expect(values.buffer.byteLength).toBe(kind === 'worker' ? 0 : 12);
  });

  it('runs calls concurrently and resolves them out of order', async () => {
    const settled: string[] = [];
    const calls = ['a', 'b', 'c'].map((key) =>
      h.client.call('gate', { key }).then((value) => {
        settled.push(value);
        return value;
      }),
    );
    await vi.waitFor(() => expect(h.probe.gates.size).toBe(3));
    for (const key of ['c', 'a', 'b']) {
      h.probe.gates.get(key)?.();
      await vi.waitFor(() => expect(settled).toContain(key));
    }
    expect(await Promise.all(calls)).toEqual(['a', 'b', 'c']); // each call got its own answer
    expect(settled).toEqual(['c', 'a', 'b']);

    const sums = await Promise.all(Array.from({ length: 20 }, (_, i) => h.client.call('add', { a: i, b: 1000 })));
    expect(sums).toEqual(Array.from({ length: 20 }, (_, i) => i + 1000));
  });

  it('reports a throwing onProgress callback without failing the call', async () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await h.client.call(
      'slow',
      { steps: 2, stepMs: 1 },
      {
        onProgress: () => {
          throw new Error('ui bug');
        },
      },
    );
    expect(result).toEqual({ completed: 2 });
    expect(report).toHaveBeenCalledTimes(2);
    expect(report.mock.calls[0]?.[1]).toMatchObject({ message: 'ui bug' });
  });
});
