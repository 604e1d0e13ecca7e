import { test, expect, type Page } from './support/fixtures';

/** Collects the page's CSP violations (directive and blocked URL) from now on. */
async function watchViolations(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __violations: { directive: string; blocked: string }[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }));
  });
}
const violations = (page: Page) => page.evaluate(() => (window as unknown as { __violations: { directive: string; blocked: string }[] }).__violations);

/** A page-side fetch: 'ok <status>' or the error it threw. */
const tryFetch = (page: Page, url: string) =>
  page.evaluate(async (u) => {
    try {
      const res = await fetch(u);
      return `ok ${res.status}`;
    } catch (err) {
      return `refused: ${(err as Error).name}`;
    }
  }, url);

test('an inline script injected into the page is blocked by the Content-Security-Policy', async ({ app, page }) => {
  await app.open('data');
  await watchViolations(page);
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true;';
    document.body.append(s);
    const img = document.createElement('div');
    img.innerHTML = '<img src="x" onerror="window.__handlerRan = true">';
    document.body.append(img);
  });
  await expect.poll(async () => (await violations(page)).map((v) => v.directive)).toContain('script-src-elem');
  expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
  expect(await page.evaluate(() => (window as unknown as { __handlerRan?: boolean }).__handlerRan)).toBeUndefined();
  // The static policy is also sent as a header with the document (and forbids framing).
  const res = await page.request.get('/');
  expect(res.headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
});

test('the page may not connect to an origin the user did not configure', async ({ app, page }) => {
  await app.open('data');
  await watchViolations(page);
  expect(await tryFetch(page, 'https://example.com/collect?data=1')).toBe('refused: TypeError');
  await expect.poll(() => violations(page)).toContainEqual({ directive: 'connect-src', blocked: 'https://example.com/collect?data=1' });
  // The app's own origin and local model servers stay reachable as far as the policy goes.
  expect(await tryFetch(page, '/manifest.webmanifest')).toBe('ok 200');
  const policy = await page.locator('meta[data-policy="connect"]').getAttribute('content');
  expect(policy).toBe("connect-src 'self' blob: data: http://localhost:* http://127.0.0.1:*");
  // The user is told, with a way to allow a newly configured endpoint.
  await expect(page.getByRole('alert').filter({ hasText: 'security policy blocked a connection to https://example.com' })).toBeVisible();
});

test.describe('with an endpoint configured', () => {
  test.use({ allowedOrigins: ['https://llm.example.test'] });

  test('its origin is allowed after the next start, other origins still are not', async ({ app, page }) => {
    await app.open('data');
    // What Settings stores for an OpenAI-compatible endpoint (src/db/settings.ts: llmEngine).
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('toolmem');
          open.onsuccess = () => {
            const tx = open.result.transaction(['settings'], 'readwrite');
            tx.objectStore('settings').put({ key: 'llmEngine', value: 'openai:https://llm.example.test/v1#my-model' });
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
    );
    await page.route('https://llm.example.test/**', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"data":[]}' }));
    await page.reload();
    await expect(app.nav).toBeVisible();
    await watchViolations(page);
    expect(await page.locator('meta[data-policy="connect"]').getAttribute('content')).toContain('https://llm.example.test');
    expect(await tryFetch(page, 'https://llm.example.test/v1/models')).toBe('ok 200');
    expect(await tryFetch(page, 'https://other.example.test/v1/models')).toBe('refused: TypeError');
    await expect.poll(() => violations(page)).toEqual([{ directive: 'connect-src', blocked: 'https://other.example.test/v1/models' }]);
  });
});
