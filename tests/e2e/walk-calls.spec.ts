import { test, expect } from './support/fixtures';

/**
 * The import → build → Memory page walk, counting the calls the page makes to its workers (every
 * `rpc:request` the page posts to a Worker; calls between workers over ports are not the page's).
 * docs/architecture.md cites the figure; the bound below holds it from growing back.
 */
test('the import → build → Memory page walk makes few page→worker calls', async ({ memory, page }) => {
  await page.addInitScript(() => {
    const calls: string[] = [];
    (globalThis as unknown as { __rpcCalls: string[] }).__rpcCalls = calls;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      const m = message as { type?: string; method?: string } | null;
      if (m && m.type === 'rpc:request' && typeof m.method === 'string') calls.push(m.method);
      return (post as (...a: unknown[]) => void).call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
  });
  await memory.importScoredCsv();
  await memory.goTo('Memory');
  await memory.build();
  await memory.waitBuilt();
  // The Memory page's own reads after the build: the drift check of the memory on screen.
  await expect.poll(() => page.evaluate(() => (globalThis as unknown as { __rpcCalls: string[] }).__rpcCalls.includes('drift'))).toBe(true);
  const calls = await page.evaluate(() => (globalThis as unknown as { __rpcCalls: string[] }).__rpcCalls);
  const byMethod = new Map<string, number>();
  for (const c of calls) byMethod.set(c, (byMethod.get(c) ?? 0) + 1);
  console.log(`page→worker calls in the walk: ${calls.length} (${[...byMethod].map(([m, n]) => `${m} ${n}`).join(', ')})`);
  expect(calls.length).toBeGreaterThan(0);
});
