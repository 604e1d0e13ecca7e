/** The server at the message level: what exactly goes over the wire. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expose, transfer, type ApiSpec, type Handlers, type ServerMessage } from '../../../src/rpc';
import { createSample, servedChannel } from './sample-api';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A server on port2; the test talks raw messages on port1 and records the replies. */
function rawServer() {
  const { handlers, probe } = createSample();
  return { ...recorded(handlers), probe };
}

/** Any handler table on a fresh channel, with the replies that reach port1 recorded. */
function recorded<Api extends ApiSpec<Api>>(handlers: Handlers<Api>) {
  const { port1, port2, server } = servedChannel(handlers, cleanups);
  const received: ServerMessage[] = [];
  port1.addEventListener('message', (event) => received.push(event.data as ServerMessage));
  port1.start();
  return { port: port1, serverEnd: port2, received, server };
}

describe('expose', () => {
  it('answers a request with a result message carrying the same id', async () => {
    const { port, received } = rawServer();
    port.postMessage({ type: 'rpc:request', id: 7, method: 'add', req: { a: 2, b: 3 } });
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toEqual({ type: 'rpc:result', id: 7, res: 5 });
  });

  it('sends progress, then the handler rejection with CancelledError after a cancel message', async () => {
    const { port, received, probe } = rawServer();
    port.postMessage({ type: 'rpc:request', id: 1, method: 'slow', req: { steps: 100, stepMs: 10 } });
    await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(1));
    port.postMessage({ type: 'rpc:cancel', id: 1 });
    await vi.waitFor(() => expect(received.at(-1)?.type).toBe('rpc:error'));
    const last = received.at(-1);
    expect(last).toMatchObject({ type: 'rpc:error', id: 1, error: { name: 'CancelledError', message: 'Cancelled' } });
    const progress = received.slice(0, -1);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThan(100);
    progress.forEach((message, i) => expect(message).toEqual({ type: 'rpc:progress', id: 1, progress: { done: i + 1, total: 100 } }));
    expect(probe.slowStepsRun).toBe(progress.length);
  });

  it('replies UnknownMethodError for a method it does not serve', async () => {
    const { port, received } = rawServer();
    port.postMessage({ type: 'rpc:request', id: 3, method: 'constructor', req: null });
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toMatchObject({
      type: 'rpc:error',
      id: 3,
      error: { name: 'UnknownMethodError', message: 'Unknown RPC method "constructor"', fields: { method: 'constructor' } },
    });
  });

  it('sends ParseError fields by name', async () => {
    const { port, received } = rawServer();
    port.postMessage({ type: 'rpc:request', id: 4, method: 'failParse', req: { file: 'x.jsonl', row: 3 } });
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toMatchObject({
      type: 'rpc:error',
      id: 4,
      error: { name: 'ParseError', message: 'Bad value in x.jsonl', fields: { file: 'x.jsonl', row: 3 } },
    });
  });

  it('ignores messages that are not RPC requests', async () => {
    const { port, received, probe } = rawServer();
    for (const noise of [null, 'hello', { type: 'rpc:request', id: '1', method: 'add' }, { type: 'other', id: 1 }, { id: 2 }]) {
      port.postMessage(noise);
    }
    port.postMessage({ type: 'rpc:request', id: 9, method: 'add', req: { a: 1, b: 1 } });
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toEqual({ type: 'rpc:result', id: 9, res: 2 });
    expect(probe.calls.add).toBe(1);
  });

  it('turns a non-cloneable response into an error reply instead of hanging', async () => {
    const { port: port1, received } = recorded<{ bad: { req: null; res: unknown; progress: never } }>({ bad: () => ({ f: () => 1 }) });
    port1.postMessage({ type: 'rpc:request', id: 1, method: 'bad', req: null });
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toMatchObject({ type: 'rpc:error', id: 1, error: { name: 'DataCloneError' } });
  });

  it('posts a transfer()-wrapped reply with its transfer list', async () => {
    const sent = new Float64Array([1.25, 2.5]);
    const postMessage = vi.fn();
    const endpoint = { postMessage, addEventListener: vi.fn(), start: vi.fn() };
    expose<{ get: { req: null; res: Float64Array; progress: never } }>({ get: () => transfer(sent, [sent.buffer]) }, endpoint);
    expect(endpoint.start).toHaveBeenCalledOnce();
    const listener = endpoint.addEventListener.mock.calls[0]?.[1] as (event: { data: unknown }) => void;
    listener({ data: { type: 'rpc:request', id: 5, method: 'get', req: null } });
    await vi.waitFor(() => expect(postMessage).toHaveBeenCalledOnce());
    expect(postMessage).toHaveBeenCalledWith({ type: 'rpc:result', id: 5, res: sent }, [sent.buffer]);
  });

  it('dispose() aborts in-flight calls and stops answering', async () => {
    const { port, serverEnd, received, probe, server } = rawServer();
    port.postMessage({ type: 'rpc:request', id: 1, method: 'slow', req: { steps: 100, stepMs: 10 } });
    await vi.waitFor(() => expect(probe.calls.slow).toBe(1));
    server.dispose();
    await vi.waitFor(() => expect(probe.slowAbortReason).toBeDefined());
    // Progress posted just before dispose() may still be in the channel: a marker sent after it
    // arrives after all of them (a channel keeps order), so what follows the marker came later.
    serverEnd.postMessage('marker');
    await vi.waitFor(() => expect(received).toContain('marker'));
    const countAtDispose = received.length;
    port.postMessage({ type: 'rpc:request', id: 2, method: 'add', req: { a: 1, b: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(received).toHaveLength(countAtDispose);
    expect(probe.calls.add).toBeUndefined();
  });
});
