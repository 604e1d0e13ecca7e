import { expect, type Locator, type Page } from '@playwright/test';

export type PageName = 'Data' | 'Label' | 'Memory' | 'Predict' | 'Evaluate' | 'Tools' | 'Settings';

/** Page object for the app shell; feature pages add their own helpers beside this one. */
export class AppPage {
  constructor(readonly page: Page) {}

  async open(route = 'data'): Promise<void> {
    await this.page.goto(`/#/${route}`);
    await expect(this.nav).toBeVisible();
  }

  get nav(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' });
  }

  async goTo(name: PageName): Promise<void> {
    await this.nav.getByRole('link', { name }).click();
    await expect(this.heading).toHaveText(name);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  get emptyState(): Locator {
    return this.page.getByTestId('empty-state');
  }

  /** Resolves once the service worker controls the page (the app shell is precached). */
  async waitForServiceWorker(): Promise<void> {
    await this.page.waitForFunction(async () => {
      const reg = await navigator.serviceWorker.ready;
      return !!reg.active && navigator.serviceWorker.controller !== null;
    });
  }
}
