import { expect, type Locator } from '@playwright/test';
import { AppPage } from './app-page';

/** Page object for the Settings page, in particular its Embeddings section. */
export class SettingsPage extends AppPage {
  async openSettings(): Promise<void> {
    await this.open('settings');
    await expect(this.heading).toHaveText('Settings');
    await expect(this.embeddings).toBeVisible();
  }

  get embeddings(): Locator {
    return this.page.getByRole('region', { name: 'Embeddings' });
  }

  fact(name: 'model' | 'source' | 'dim' | 'size' | 'backend' | 'status'): Locator {
    return this.embeddings.getByTestId(`embed-${name}`);
  }

  /** Resolves once the active model has loaded (the section loads it on open). */
  async waitForModel(): Promise<void> {
    await expect(this.fact('status')).toHaveText('Ready', { timeout: 60_000 });
  }

  get similarity(): Locator {
    return this.embeddings.getByTestId('embed-similarity');
  }

  get cacheReport(): Locator {
    return this.embeddings.getByTestId('embed-cache-report');
  }

  get testButton(): Locator {
    return this.embeddings.getByRole('button', { name: 'Test', exact: true });
  }

  /** Fills both sentences, runs the test and waits for its (new) report. */
  async runTest(first: string, second: string): Promise<void> {
    await this.embeddings.getByLabel('First sentence').fill(first);
    await this.embeddings.getByLabel('Second sentence').fill(second);
    await this.testButton.click();
    await expect(this.testButton).toHaveText('Test'); // 'Embedding…' while it runs
    await expect(this.similarity).toBeVisible();
  }

  /** Picks a Hugging Face model id and asks to use it. */
  async chooseHubModel(id: string): Promise<void> {
    await this.embeddings.getByRole('radio', { name: 'A Hugging Face model' }).check();
    await this.embeddings.getByRole('textbox', { name: 'Hugging Face model id' }).fill(id);
    await this.embeddings.getByRole('button', { name: 'Use this model' }).click();
  }

  /** Settings → Delete all data, confirmed; resolves once the app says it is done. */
  async deleteAllData(): Promise<void> {
    await this.open('settings');
    await this.page.getByRole('button', { name: 'Delete all data…' }).click();
    await this.page.getByRole('button', { name: 'Yes, delete everything' }).click();
    await expect(this.page.getByRole('status').filter({ hasText: 'All local data was deleted.' })).toBeVisible();
  }

  get modelError(): Locator {
    return this.embeddings.getByTestId('embed-switch-error');
  }
}
