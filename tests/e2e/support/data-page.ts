import { expect, type Locator } from '@playwright/test';
import { AppPage } from './app-page';

/** Page object for the Data page and its import dialog. */
export class DataPage extends AppPage {
  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Import experiences' });
  }

  datasetCard(name: string): Locator {
    return this.page.getByTestId('dataset-card').filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }

  async openImport(): Promise<void> {
    await this.page.getByRole('button', { name: /Import (file|a file)/ }).first().click();
    await expect(this.dialog).toBeVisible();
  }

  async chooseFile(path: string): Promise<void> {
    await this.dialog.getByLabel('Choose a file to import').setInputFiles(path);
    await expect(this.dialog.getByTestId('preview-table')).toBeVisible();
  }

  async mapColumn(field: string, column: string): Promise<void> {
    await this.dialog.getByLabel(`Column for ${field}`).selectOption(column);
  }

  /** The look-alike tools section, shown after the preview when a file tool resembles a stored one. */
  get nearMissTools(): Locator {
    return this.dialog.getByRole('region', { name: 'Tools that look like ones you have' });
  }

  /** One look-alike name's choice: its fieldset (named by the file's tool name). */
  toolChoice(name: string): Locator {
    return this.nearMissTools.getByRole('group', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} —`) });
  }

  /**
   * Sets the scale in the import dialog: the minimum, then the maximum once the minimum's change has
   * filled in its default (`autoMax`): typing into the field before that races it ('55').
   */
  async setScale(min: string, max: string, autoMax = '5'): Promise<void> {
    const minimum = this.dialog.getByLabel('Scale minimum');
    const maximum = this.dialog.getByLabel('Scale maximum');
    await minimum.fill(min);
    await minimum.blur();
    await expect(maximum).toHaveValue(autoMax);
    await maximum.fill(max);
    await maximum.blur();
  }

  async runImport(): Promise<Locator> {
    await this.dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const result = this.dialog.getByTestId('import-result');
    await expect(result).toBeVisible();
    return result;
  }

  /** From the Data page, opens the import dialog and chooses `path`; resolves once the preview shows. */
  async startImport(path: string): Promise<void> {
    await this.open('data');
    await this.openImport();
    await this.chooseFile(path);
  }

  /**
   * Imports a file that needs no column mapping as dataset `name`, from the Data page; returns the
   * result panel (the dialog stays open: {@link closeImport} closes it).
   */
  async importAs(path: string, name: string): Promise<Locator> {
    await this.startImport(path);
    await this.dialog.getByLabel('Dataset name').fill(name);
    return this.runImport();
  }

  /** Closes the import dialog once its result is shown. */
  async closeImport(): Promise<void> {
    await this.dialog.getByRole('button', { name: 'Done' }).click();
  }

  async loadDemo(): Promise<void> {
    await this.page.getByRole('button', { name: 'Load demo data' }).first().click();
    await expect(this.page.getByRole('status').filter({ hasText: 'Demo data loaded' })).toBeVisible({ timeout: 120_000 });
  }
}
