import { expect, type Locator } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SettingsPage } from './settings-page';

/** The tiny random-weight llama (1.7 MB) that proves loading and generation; its text is noise. */
export const TINY_GGUF_PATH = fileURLToPath(new URL('../../fixtures/llm/llama-2-tiny-random.gguf', import.meta.url));
/** Served from the app's origin by a route, so the model never ships in the app itself. */
export const TINY_GGUF_URL = '/test-models/llama-2-tiny-random.gguf';
/** Random models emit raw byte tokens (ids 3–258); banning them keeps the text valid UTF-8. */
export const TINY_BIAS = '3-258:-100';

/** Page object for Settings → Language model. */
export class LlmSettingsPage extends SettingsPage {
  get section(): Locator {
    return this.page.getByRole('region', { name: 'Language model' });
  }

  /** Serves the tiny GGUF at {@link TINY_GGUF_URL}; returns how many times it was fetched. */
  async serveTinyModel(): Promise<{ fetches: () => number }> {
    let n = 0;
    const body = readFileSync(TINY_GGUF_PATH);
    await this.page.route(`**${TINY_GGUF_URL}`, (route) => {
      n++;
      return route.fulfill({
        status: 200,
        body,
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(body.length), 'cross-origin-resource-policy': 'same-origin' },
      });
    });
    return { fetches: () => n };
  }

  async chooseEngine(name: RegExp): Promise<void> {
    await this.section.getByRole('radio', { name }).check();
  }

  async useWllamaUrl(url: string, bias: string): Promise<void> {
    await this.chooseEngine(/on the CPU/);
    await this.section.getByRole('radio', { name: 'From a URL' }).check();
    await this.section.getByLabel('GGUF model URL').fill(url);
    await this.section.getByText('Advanced').click();
    await this.section.getByLabel('Token bias').fill(bias);
    // "Use this model" waits for a passing test of these settings: load the model and let it answer.
    await this.tryIt('Hi');
    await expect(this.stats).toBeVisible({ timeout: 90_000 });
    await this.save();
  }

  /** Opens Settings and makes the endpoint at `baseUrl` with `model` the active language model. */
  async connect(baseUrl: string, model: string): Promise<void> {
    await this.openSettings();
    await this.useEndpoint(baseUrl, model);
  }

  async useEndpoint(baseUrl: string, model: string): Promise<void> {
    await this.chooseEngine(/OpenAI-compatible endpoint/);
    await this.section.getByLabel('Endpoint base URL').fill(baseUrl);
    await this.section.getByLabel('Model name').fill(model);
    await this.testConnection();
    await this.save();
  }

  /** "Test connection", resolved once the server's models are listed (the test passed). */
  async testConnection(): Promise<void> {
    await this.section.getByRole('button', { name: 'Test connection' }).click();
    await expect(this.section.getByLabel('Models on the server')).toBeVisible();
  }

  async save(): Promise<void> {
    await this.section.getByRole('button', { name: 'Use this model' }).click();
    await expect(this.section.getByRole('button', { name: 'Use this model' })).toBeDisabled();
  }

  get active(): Locator {
    return this.section.getByTestId('llm-active');
  }

  async tryIt(prompt: string): Promise<void> {
    await this.section.getByLabel('Trial prompt').fill(prompt);
    await this.section.getByRole('button', { name: 'Load and try' }).click();
  }

  get reply(): Locator {
    return this.section.getByTestId('llm-reply');
  }

  get stats(): Locator {
    return this.section.getByTestId('llm-trial-stats');
  }
}
