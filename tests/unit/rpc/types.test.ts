/**
 * Type-level contract. `tsc --noEmit` checks these (including every `@ts-expect-error`); at run
 * time the calls inside `typeChecks` are never executed.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createClient, createInThreadClient, type CallContext, type Client, type Endpoint, type Handlers, type WorkerClient } from '../../../src/rpc';

interface EchoApi {
  add: { req: { a: number; b: number }; res: number; progress: never };
  embed: { req: { texts: string[] }; res: Float32Array[]; progress: { done: number } };
}

const handlers: Handlers<EchoApi> = {
  add: ({ a, b }, ctx) => {
    // @ts-expect-error -- `add` declares `progress: never`, so it cannot report progress
    ctx.progress(1);
    return a + b;
  },
  embed: async ({ texts }, ctx) => {
    expectTypeOf(ctx).toEqualTypeOf<CallContext<{ done: number }>>();
    ctx.progress({ done: texts.length });
    // @ts-expect-error -- progress events must have the declared shape
    ctx.progress({ done: 'all' });
    return texts.map(() => new Float32Array(2));
  },
};

function typeChecks(client: Client<EchoApi>): void {
  expectTypeOf(client.call('add', { a: 1, b: 2 })).toEqualTypeOf<Promise<number>>();
  expectTypeOf(client.call('embed', { texts: ['x'] }, { onProgress: (p) => expectTypeOf(p).toEqualTypeOf<{ done: number }>() })).toEqualTypeOf<
    Promise<Float32Array[]>
  >();
  // @ts-expect-error -- `b` is missing
  void client.call('add', { a: 1 });
  // @ts-expect-error -- wrong request type
  void client.call('add', { a: 1, b: '2' });
  // @ts-expect-error -- unknown method
  void client.call('subtract', { a: 1, b: 2 });
  // @ts-expect-error -- options are checked too
  void client.call('add', { a: 1, b: 2 }, { signal: 'stop' });
}

describe('types', () => {
  it('derives handlers and clients from one API declaration', () => {
    expectTypeOf<Parameters<Client<EchoApi>['call']>[0]>().toEqualTypeOf<'add' | 'embed'>();
    expectTypeOf(createInThreadClient(handlers)).toEqualTypeOf<Client<EchoApi>>();
    expectTypeOf(createClient<EchoApi>).returns.toEqualTypeOf<WorkerClient<EchoApi>>();
    expectTypeOf<WorkerClient<EchoApi>>().toExtend<Client<EchoApi>>();
    // @ts-expect-error -- a handler returning the wrong type is rejected
    const _bad: Handlers<EchoApi> = { add: () => 'three', embed: () => [] };
    expect(typeof typeChecks).toBe('function');
  });

  it('accepts Worker and MessagePort as endpoints', () => {
    expectTypeOf<Worker>().toExtend<Endpoint>();
    expectTypeOf<MessagePort>().toExtend<Endpoint>();
    const { port1, port2 } = new MessageChannel();
    expectTypeOf(port1).toExtend<Endpoint>();
    port1.close();
    port2.close();
  });
});
