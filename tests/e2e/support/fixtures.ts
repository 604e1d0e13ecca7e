import { test as base, expect, type Page } from '@playwright/test';
import { AppPage } from './app-page';
import { CapabilityPage } from './capability-page';
import { DataPage } from './data-page';
import { EvaluatePage } from './evaluate-page';
import { LabelPage } from './label-page';
import { LlmSettingsPage } from './llm-page';
import { MemoryPage } from './memory-page';
import { ToolsPage } from './tools-page';

/**
 * Every e2e test gets a fresh browser context (fresh IndexedDB) and a guard: any request that leaves
 * the app's own origin is aborted and counted, and the test fails if there was one. The app must
 * never talk to the network unless the user configured an endpoint (`allowedOrigins`).
 */
const guarded = base.extend<{ app: AppPage; foreignRequests: string[]; allowedOrigins: string[] }>({
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

/** The page objects, one fixture each; every one is built on `app`, so the guards above hold for it. */
interface Pages {
  data: DataPage;
  label: LabelPage;
  memory: MemoryPage;
  cap: CapabilityPage;
  tools: ToolsPage;
  evaluate: EvaluatePage;
  /** The Settings page, with helpers for its Language model section. */
  settings: LlmSettingsPage;
  /** The Data page with the demo data loaded (GenAI-Bench, 6 tools); a slow import, so it has its own timeout. */
  demo: DataPage;
}

export const test = guarded.extend<Pages>({
  data: async ({ app }, use) => use(new DataPage(app.page)),
  label: async ({ app }, use) => use(new LabelPage(app.page)),
  memory: async ({ app }, use) => use(new MemoryPage(app.page)),
  cap: async ({ app }, use) => use(new CapabilityPage(app.page)),
  tools: async ({ app }, use) => use(new ToolsPage(app.page)),
  evaluate: async ({ app }, use) => use(new EvaluatePage(app.page)),
  settings: async ({ app }, use) => use(new LlmSettingsPage(app.page)),
  demo: [
    async ({ data }, use) => {
      await data.open('data');
      await data.loadDemo();
      await use(data);
    },
    { timeout: 180_000 },
  ],
});

export { expect, type Page };
