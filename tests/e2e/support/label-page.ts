import { expect, type Locator } from '@playwright/test';
import { DataPage } from './data-page';

/** Page object for the Label page (scoring, pairwise, agreement). */
export class LabelPage extends DataPage {
  /** Imports the 20-prompt GenAI-Bench slice (6 tools × 3 raters) as dataset "GenAI slice". */
  async importGenaiSlice(): Promise<void> {
    await this.importFile('tests/fixtures/import/genai_image_slice.json', 'GenAI slice');
  }

  /** Imports a file that needs no column mapping as dataset `name`, and closes the dialog. */
  async importFile(path: string, name: string): Promise<void> {
    await this.importAs(path, name);
    await this.closeImport();
  }

  /** The notice an image dataset without images shows instead of its queue. */
  get noImages(): Locator {
    return this.page.getByRole('region', { name: /^No images attached to/ });
  }

  /** Dismisses that notice for the dataset (the rater views the pictures elsewhere). */
  async scoreWithoutImages(): Promise<void> {
    await this.noImages.getByRole('button', { name: 'Score without the images' }).click();
    await expect(this.noImages).toBeHidden();
  }

  /** The text answer on screen (rendered Markdown, or its source). */
  get answer(): Locator {
    return this.page.getByRole('region', { name: 'Output text' });
  }

  /** My labels among the items the filters select (not within the queue: it shrinks on a reload). */
  get progress(): Locator {
    return this.page.getByRole('progressbar', { name: 'Labelled by you' });
  }

  /** The experiences count at the foot of the main navigation. */
  get footerCount(): Locator {
    return this.page.getByRole('navigation', { name: 'Main' }).getByText(/^Local-only · /);
  }

  /** The row of queue filters (dataset, tool, which items, order) with the shortcuts button. */
  get filters(): Locator {
    return this.page.getByRole('toolbar', { name: 'Queue' });
  }

  /** The labelling modes (Score, Compare pairs, Raters & agreement, Add items). */
  get modes(): Locator {
    return this.page.getByRole('tablist', { name: 'Labelling modes' });
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

  /** Gives a score on a continuous scale (typed, then saved), and leaves the box so keys work again. */
  async scoreValue(value: string): Promise<void> {
    const box = this.page.getByLabel('Score value');
    await box.fill(value);
    await box.press('Enter');
    await box.blur();
  }

  /** Presses a key with nothing focused (as a person using shortcuts would). */
  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }
}
