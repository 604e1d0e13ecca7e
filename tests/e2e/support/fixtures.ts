import { test as base, expect, type Page } from '@playwright/test';
import { AppPage } from './app-page';

/**
 * Every e2e test gets a fresh browser context (fresh IndexedDB) and a guard: any request that leaves
 * the app's own origin is aborted and counted, and the test fails if there was one. The app must
 * never talk to the network unless the user configured an endpoint (`allowedOrigins`).
 */
export const test = base.extend<{ app: AppPage; foreignRequests: string[]; allowedOrigins: string[] }>({
  // Origins of endpoints the test configures in the app (a local chat-completions server): the
  // user chose them, so requests there are not leaks. Set with `test.use({ allowedOrigins: [...] })`.
  allowedOrigins: [[], { option: true }],
  foreignRequests: async ({ context, baseURL, allowedOrigins }, use) => {
    const foreign: string[] = [];
    const origins = [new URL(baseURL ?? 'http://127.0.0.1').origin, ...allowedOrigins.map((o) => new URL(o).origin)];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (origins.some((o) => url === o || url.startsWith(`${o}/`)) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
      foreign.push(url);
      return route.abort('blockedbyclient');
    });
    await use(foreign);
    expect(foreign, `requests outside the app origin: ${foreign.join(', ')}`).toEqual([]);
  },
  app: async ({ page, foreignRequests }, use) => {
    void foreignRequests;
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await use(new AppPage(page));
    expect(dialogs, 'no dialog may open (alert/confirm from injected content)').toEqual([]);
    expect(errors, 'uncaught page errors').toEqual([]);
  },
});

export { expect, type Page };
