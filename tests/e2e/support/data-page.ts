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
    await this.page
      .getByRole('button', { name: /Import (file|a file)/ })
      .first()
      .click();
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
   * Sets the scale in the import dialog: the minimum, then (once its change has reached the flow:
   * the source line says "Set by you") the maximum. A bound that already shows the value (the
   * scale inferred from the file) is left as it is.
   */
  async setScale(min: string, max: string): Promise<void> {
    const minimum = this.dialog.getByLabel('Scale minimum');
    const maximum = this.dialog.getByLabel('Scale maximum');
    // The inferred scale lands in Min and Max when the whole-file read ends: read them after it.
    await expect(this.dialog.getByText('Reading…', { exact: true })).toHaveCount(0);
    await expect(this.dialog.getByText(/^Reading the scores/)).toHaveCount(0);
    if ((await minimum.inputValue()) !== min) {
      await minimum.fill(min);
      await minimum.blur();
      await expect(this.dialog.getByTestId('scale-source')).toHaveText('Set by you for this import.');
    }
    await expect(minimum).toHaveValue(min);
    if ((await maximum.inputValue()) !== max) {
      await maximum.fill(max);
      await maximum.blur();
    }
    await expect(maximum).toHaveValue(max);
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

  /** Opens a dataset card's "Browse experiences" fold; returns the browser. */
  async browse(name: string): Promise<Locator> {
    const card = this.datasetCard(name);
    const fold = card.locator('details').filter({ has: this.page.getByText('Browse experiences', { exact: true }) });
    if ((await fold.getAttribute('open')) === null) await fold.getByText('Browse experiences', { exact: true }).click();
    const browser = card.getByTestId('experience-browser');
    await expect(browser).toBeVisible();
    return browser;
  }

  /** Opens a dataset card's import history; returns its table's region. */
  async history(name: string): Promise<Locator> {
    const card = this.datasetCard(name);
    await card.getByText(/^Import history \(/).click();
    const region = card.getByRole('region', { name: `Import history of ${name}` });
    await expect(region).toBeVisible();
    return region;
  }

  /** The import dialog's drop zone (its label wraps the hidden file input that takes the focus). */
  get dropZone(): Locator {
    return this.dialog.locator('label.drop');
  }

  async loadDemo(): Promise<void> {
    await this.page.getByRole('button', { name: 'Load demo data' }).first().click();
    await expect(this.page.getByRole('status').filter({ hasText: 'Demo data loaded' })).toBeVisible({ timeout: 120_000 });
  }
}
