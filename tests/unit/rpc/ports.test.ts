/** PortClient (src/rpc/ports.ts): a consumer worker's client of the latest port the page sent it. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expose, PortClient, WorkerCrashedError, type Handlers } from '../../../src/rpc';

interface PingApi {
  ping: { req: { n: number }; res: string; progress: never };
  hang: { req: null; res: null; progress: never };
}

const open: MessagePort[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const port of open.splice(0)) port.close();
});

/** A server answering with its name, on one end of a fresh channel; returns the other end. */
function serverPort(name: string): MessagePort {
  const handlers: Handlers<PingApi> = { ping: ({ n }) => `${name}:${n}`, hang: () => new Promise(() => undefined) };
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  expose<PingApi>(handlers, port1);
  return port2;
}

describe('PortClient', () => {
  it('has no client before the first port, and waits for it', async () => {
    const client = new PortClient<PingApi>('The ping worker');
    expect(client.current).toBeNull();
    const answer = client.call('ping', { n: 1 });
    client.attach(serverPort('a'));
    await expect(answer).resolves.toBe('a:1');
    expect(client.current).not.toBeNull();
  });

  it('calls through the latest port; calls pending on the old one fail, saying why', async () => {
    const client = new PortClient<PingApi>('The ping worker');
    client.attach(serverPort('a'));
    const stuck = client.call('hang', null);
    await expect(client.call('ping', { n: 2 })).resolves.toBe('a:2');
    client.attach(serverPort('b'));
    const err = await stuck.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerCrashedError);
    expect((err as Error).message).toBe('The ping worker was restarted while this call was waiting on it; try again.');
    await expect(client.call('ping', { n: 3 })).resolves.toBe('b:3');
  });

  it('gives up after 10 s without a port', async () => {
    vi.useFakeTimers();
    const client = new PortClient<PingApi>('The ping worker');
    const answer = client.call('ping', { n: 1 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(client.current).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    const err = await answer;
    expect(err).toBeInstanceOf(WorkerCrashedError);
    expect((err as Error).message).toBe('The ping worker is not connected (no port arrived within 10 s); reload the page.');
  });
});
