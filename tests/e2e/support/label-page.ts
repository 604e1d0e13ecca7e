import { expect, type Locator, type Page } from '@playwright/test';
import { DataPage } from './data-page';

/** Page object for the Label page (scoring, pairwise, agreement). */
export class LabelPage extends DataPage {
  constructor(page: Page) {
    super(page);
  }

  /** Imports the 20-prompt GenAI-Bench slice (6 tools × 3 raters) as dataset "GenAI slice". */
  async importGenaiSlice(): Promise<void> {
    await this.open('data');
    await this.openImport();
    await this.chooseFile('tests/fixtures/import/genai_image_slice.json');
    await this.dialog.getByLabel('Dataset name').fill('GenAI slice');
    await this.runImport();
    await this.dialog.getByRole('button', { name: 'Done' }).click();
  }

  tab(name: string): Locator {
    return this.page.getByRole('tab', { name });
  }

  get position(): Locator {
    return this.page.getByTestId('queue-position');
  }

  get prompt(): Locator {
    return this.page.getByTestId('item-prompt');
  }

  async startAs(rater: string): Promise<void> {
    await this.goTo('Label');
    const name = this.page.getByLabel('Your rater name');
    await name.fill(rater);
    await name.press('Enter');
    await expect(this.tab('Score')).toHaveAttribute('aria-selected', 'true');
  }

  /** Presses a key with nothing focused (as a person using shortcuts would). */
  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }
}
