import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures';
import { countStoreScript, generatedCsv, writeTemp } from './support/generated-files';

// The trap is prepended to the data worker's script as it is served; a service worker would serve
// that script from its cache instead, past the route.
test.use({ serviceWorkers: 'block' });

/**
 * A full disk, simulated: from the 2,501st experience row of the big file on, IndexedDB's put/add
 * throws a DOMException named QuotaExceededError (what Chromium raises when the origin's quota is
 * exhausted). The first batch of 2,000 rows is committed before that, so the rollback is exercised.
 */
/**
 * Serves the data worker with TRAP in front. A request the page abandons (a navigation while the
 * script is fetched: the route is then disposed) is not an error of the test; anything else is.
 */
async function trapImportWorker(page: Page): Promise<void> {
  await page.route(/\/assets\/data\.worker-[^/]*\.js$/, async (route) => {
    try {
      const response = await route.fetch();
      await route.fulfill({ response, body: TRAP + (await response.text()) });
    } catch (err) {
      if (!/disposed|closed/i.test((err as Error).message)) throw err;
    }
  });
}

const TRAP = `(() => {
  let writes = 0;
  const proto = IDBObjectStore.prototype;
  for (const method of ['add', 'put']) {
    const original = proto[method];
    proto[method] = function (value, ...rest) {
      if (this.name === 'experiences' && value && typeof value.prompt === 'string' && value.prompt.startsWith('quota ') && ++writes > 2500) {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      return original.call(this, value, ...rest);
    };
  }
})();
`;

test('storage full during an import: a clear message with usage and what to delete, and nothing partial is kept', async ({ data, page }) => {
  await page.addInitScript(TRAP);
  await trapImportWorker(page);

  const seed = writeTemp('seed.csv', generatedCsv(0, 12, { prefix: 'seed' }));
  const big = writeTemp('big.csv', generatedCsv(0, 6000, { prefix: 'quota' }));

  await data.startImport(seed);
  await data.dialog.getByLabel('Dataset name').fill('Quota test');
  await expect(data.dialog.getByTestId('preview-table')).toBeVisible();
  const seeded = await data.runImport();
  await expect(seeded.getByTestId('count-added')).toHaveText('12');
  await data.dialog.getByRole('button', { name: 'Import another file' }).click();

  await data.chooseFile(big);
  await data.dialog.getByLabel('Dataset name').fill('Quota test');
  await expect(data.dialog.getByTestId('preview-table')).toBeVisible();
  await data.dialog.getByRole('button', { name: 'Import', exact: true }).click();

  const problem = data.dialog.getByTestId('import-error');
  await expect(problem).toBeVisible({ timeout: 60_000 });
  await expect(problem).toContainText('Storage is full: the browser refused to store more data.');
  await expect(problem).toContainText(/This site uses [\d.]+ [KMG]B of the [\d.]+ [KMG]B the browser allows it\./);
  await expect(problem).toContainText('Nothing from this step was saved.');
  await expect(problem).toContainText('delete datasets you no longer need, with their images (Data page → Delete dataset…)');
  await expect(problem).toContainText('The rows already written by this import were removed again.');

  // Nothing partial: the dataset holds exactly what it held, in the UI and in IndexedDB.
  await data.dialog.getByRole('button', { name: 'Choose another file' }).click();
  await data.dialog.getByRole('button', { name: 'Close' }).first().click();
  const card = data.datasetCard('Quota test');
  await expect(card).toContainText('12 experiences');
  expect(await page.evaluate(countStoreScript, 'experiences')).toBe(12);
  await card.getByText('Import history').click();
  await expect(card.getByRole('row', { name: /big\.csv/ })).toContainText('failed');

  await page.reload();
  await expect(data.datasetCard('Quota test')).toContainText('12 experiences');
  expect(await page.evaluate(countStoreScript, 'experiences')).toBe(12);
});

test('the storage-full message links to the storage usage in Settings', async ({ data, page }) => {
  await trapImportWorker(page);
  await data.startImport(writeTemp('quota.csv', generatedCsv(0, 3000, { prefix: 'quota' })));
  await data.dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(data.dialog.getByTestId('import-error')).toContainText('Storage is full', { timeout: 60_000 });
  // A new dataset is not created at all.
  expect(await page.evaluate(countStoreScript, 'datasets')).toBe(0);
  expect(await page.evaluate(countStoreScript, 'experiences')).toBe(0);
  await data.dialog.getByRole('link', { name: 'See storage usage in Settings' }).click();
  await expect(data.heading).toHaveText('Settings');
  await expect(page.getByTestId('storage-usage')).toBeVisible();
});
