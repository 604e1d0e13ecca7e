import { expect, type Locator } from '@playwright/test';
import { AppPage } from './app-page';

/** Page object for the Tools page: one card per tool. */
export class ToolsPage extends AppPage {
  card(toolName: string): Locator {
    return this.page.getByTestId('tool-card').filter({ has: this.page.getByRole('heading', { name: toolName, exact: true }) });
  }

  /**
   * Opens a card's "Details" fold (description, further entries, facets, scores, test cases,
   * history, schema: the card leads with a compact summary, issue #28); returns the card.
   */
  async openDetails(toolName: string): Promise<Locator> {
    const card = this.card(toolName);
    const fold = card.getByTestId('tool-details');
    if ((await fold.getAttribute('open')) === null) await fold.locator('> summary').click();
    await expect(fold).toHaveAttribute('open', '');
    return card;
  }

  /** Each card's strongest and weakest entries (the summary's and the fold's): tool → { strongest, weakest }. */
  async strongestAndWeakest(): Promise<Record<string, { strongest: string[]; weakest: string[] }>> {
    await expect(this.page.getByTestId('tool-card').first()).toBeVisible();
    const out: Record<string, { strongest: string[]; weakest: string[] }> = {};
    for (const card of await this.page.getByTestId('tool-card').all()) {
      const name = (await card.getByRole('heading', { level: 2 }).textContent())!.trim();
      out[name] = {
        strongest: await card.locator('p.entry.good').allTextContents(),
        weakest: await card.locator('p.entry.bad').allTextContents(),
      };
    }
    return out;
  }
}
