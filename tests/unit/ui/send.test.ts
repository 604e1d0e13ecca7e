/** The page's one `send`: each method goes to the worker that serves it, with its options. */
import { describe, expect, it } from 'vitest';
import type { CallOptions } from '../../../src/rpc';
import { createSend, NoWorkerError, routeOf, type WorkerClients } from '../../../src/ui/send';

/** A client that records the calls it gets, answering with its worker's name. */
function recorder(kind: string, log: string[]) {
  return () => ({
    call: (method: string, _req: unknown, opts?: CallOptions<unknown>) => (
      log.push(`${kind}:${method}${opts?.signal ? '+signal' : ''}`),
      Promise.resolve(kind)
    ),
  });
}

describe('send', () => {
  it('routes each method to its worker by the table', async () => {
    const log: string[] = [];
    const clients = Object.fromEntries(
      (['data', 'memory', 'predictors', 'embed', 'llm'] as const).map((k) => [k, recorder(k, log)]),
    ) as unknown as WorkerClients;
    const send = createSend(clients);
    await send('undo', { importId: 'i' });
    await send('undoMemory', { memoryId: 'm' });
    await send('evaluate', { datasetId: 'd', seeds: 1, methods: ['knn'] }, { signal: new AbortController().signal });
    await send('embedDataset', { datasetId: 'd' });
    await send('modelFiles', null);
    await send('resetData', null);
    expect(log).toEqual(['data:undo', 'memory:undoMemory', 'predictors:evaluate+signal', 'embed:embedDataset', 'llm:modelFiles', 'data:resetData']);
    expect([routeOf('recoverRuns'), routeOf('runBuild'), routeOf('predict'), routeOf('load')]).toEqual(['data', 'memory', 'predictors', 'embed']);
  });

  it('says which worker is missing when a test gives only some', async () => {
    const send = createSend({});
    await expect(send('predict', { datasetId: 'd', method: 'knn', prompt: 'p' })).rejects.toThrow(
      new NoWorkerError("send('predict'): no client for the predictors worker, which serves it."),
    );
  });
});
