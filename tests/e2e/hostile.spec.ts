import { test, expect } from './support/fixtures';

// The fixtures fail the test on any dialog (alert/confirm) and any uncaught page error; here we also
// check that the markup stayed text and that nothing overflows the window.
test('hostile prompts, tool names and feedback render as inert text on every page', async ({ memory, page }) => {
  await memory.open('data');
  await memory.openImport();
  await memory.dialog.getByLabel('Choose a file to import').setInputFiles('tests/fixtures/e2e/hostile.csv');
  await expect(memory.dialog.getByTestId('preview-table')).toContainText('<script>alert("x")</script>');
  await memory.dialog.getByLabel('Dataset name').fill('<img src=x onerror=alert(9)>');
  await memory.runImport();
  await memory.dialog.getByRole('button', { name: 'Done' }).click();

  const card = page.getByTestId('dataset-card').first();
  await expect(card.getByRole('heading', { level: 2 })).toHaveText('<img src=x onerror=alert(9)>');
  await card.getByText('Browse experiences').click();
  await expect(card.getByTestId('experience-browser')).toContainText('<script>alert("x")</script>');

  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  for (const name of ['Data', 'Label', 'Memory', 'Predict', 'Evaluate', 'Tools'] as const) {
    await memory.goTo(name);
    if (name === 'Label') {
      await page.getByLabel('Your rater name').fill('<b>eve</b>');
      await page.getByLabel('Your rater name').press('Enter');
      await expect(page.getByTestId('item-prompt')).toBeVisible();
    }
    expect(await overflow(), `${name} overflows the window`).toBeLessThanOrEqual(0);
    // No element was created from imported markup.
    expect(await page.locator('img[src="x"], script:not([src]), svg[onload]').count()).toBe(0);
  }
  await memory.goTo('Tools');
  await expect(page.getByTestId('tool-card').filter({ hasText: '<img src=x onerror=alert(1)>' })).toHaveCount(1);
});
