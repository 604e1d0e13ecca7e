/** Worker death and disposal: pending calls must not hang, and must say the worker is gone. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CancelledError, ToolMemError } from '../../../src/core/errors';
import { createClient, WorkerCrashedError, type Endpoint } from '../../../src/rpc';
import { createSample, servedChannel, type SampleApi } from './sample-api';

/** Stands in for a DOM `Worker`: messages over a MessagePort, plus the `error` event on crash. */
class FakeWorker extends EventTarget implements Endpoint {
  constructor(private readonly port: MessagePort) {
    super();
    port.addEventListener('message', (event) => this.dispatchEvent(new MessageEvent('message', { data: event.data })));
    port.start();
  }
  postMessage(message: unknown, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
  }
  /** What a browser does on an uncaught exception in the worker (an ErrorEvent). */
  crash(message: string): void {
    const event = new Event('error');
    Object.defineProperties(event, { message: { value: message }, error: { value: new TypeError(message) } });
    this.dispatchEvent(event);
    this.port.close();
  }
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup() {
  const { handlers, probe } = createSample();
  const { port1 } = servedChannel(handlers, cleanups);
  const worker = new FakeWorker(port1);
  const client = createClient<SampleApi>(worker);
  return { worker, client, probe };
}

describe('createClient when the worker dies', () => {
  it('rejects every pending call with WorkerCrashedError, and later calls too', async () => {
    const { worker, client, probe } = setup();
    const gated = client.call('gate', { key: 'never' });
    const slow = client.call('slow', { steps: 1000, stepMs: 50 });
    await vi.waitFor(() => expect(probe.calls.slow).toBe(1));

    worker.crash('out of memory');

    for (const pending of [gated, slow]) {
      const error: unknown = await pending.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkerCrashedError);
      expect(error).toBeInstanceOf(ToolMemError);
      expect(error).toMatchObject({ name: 'WorkerCrashedError', message: 'Worker crashed: out of memory' });
      expect((error as Error).cause).toBeInstanceOf(TypeError);
    }
    const later = await client.call('add', { a: 1, b: 2 }).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(WorkerCrashedError);
    expect((later as Error).message).toBe('Worker crashed: out of memory');
    expect(probe.calls.add).toBeUndefined();
  });

  it('describes an error event without details', async () => {
    const { worker, client } = setup();
    const pending = client.call('gate', { key: 'x' });
    worker.dispatchEvent(new Event('error'));
    await expect(pending).rejects.toThrow(new WorkerCrashedError('Worker crashed: uncaught error in worker'));
  });
});

describe('createClient dispose()', () => {
  it('rejects pending calls with WorkerCrashedError and cancels them in the worker', async () => {
    const { client, probe } = setup();
    const slow = client.call('slow', { steps: 1000, stepMs: 20 });
    await vi.waitFor(() => expect(probe.calls.slow).toBe(1));

    client.dispose();

    const error: unknown = await slow.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerCrashedError);
    expect((error as Error).message).toBe('The worker client was disposed');
    await vi.waitFor(() => expect(probe.slowAbortReason).toBeInstanceOf(CancelledError));
    await expect(client.call('add', { a: 1, b: 1 })).rejects.toBeInstanceOf(WorkerCrashedError);
    client.dispose(); // idempotent
  });

  it('fails only the call whose request cannot be cloned', async () => {
    const { client } = setup();
    const bad = { a: 1, b: 2, callback: () => 0 } as unknown as { a: number; b: number };
    const error: unknown = await client.call('add', bad).catch((e: unknown) => e);
    expect((error as Error).name).toBe('DataCloneError');
    await expect(client.call('add', { a: 3, b: 4 })).resolves.toBe(7);
  });
});
