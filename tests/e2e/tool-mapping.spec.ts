import { test, expect } from './support/fixtures';
import type { DataPage } from './support/data-page';

// Issue #14 class 8: a file tool `dalle` beside a stored DALLE_3 is neither refused without a way
// out nor silently merged: the dialog asks, per name, "new tool" or "same as DALLE_3".
const KNOWN = 'tests/fixtures/e2e/tool-mapping-known.csv';
const LOOKALIKE = 'tests/fixtures/e2e/tool-mapping-lookalike.jsonl';

async function importKnown(data: DataPage) {
  const result = await data.importAs(KNOWN, 'Shapes');
  await expect(result.getByTestId('count-added')).toHaveText('3');
  await data.closeImport();
}

async function chooseLookalike(data: DataPage) {
  await data.openImport();
  await data.chooseFile(LOOKALIKE);
  await data.dialog.getByLabel('Dataset name').fill('Shapes');
  await expect(data.nearMissTools).toBeVisible();
  await expect(data.toolChoice('dalle')).toContainText('2 rows, close to DALLE_3');
}

test('map a look-alike tool to the stored one: its rows count under DALLE_3', async ({ data, page }) => {
  await importKnown(data);
  await chooseLookalike(data);
  const choice = data.toolChoice('dalle');
  await expect(choice.getByRole('radio', { name: "New tool 'dalle'" })).not.toBeChecked();
  // Keyboard: Tab into the group, arrow to the second option.
  await choice.getByRole('radio', { name: "New tool 'dalle'" }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(choice.getByRole('radio', { name: 'Same as DALLE_3' })).toBeChecked();
  // The preview is read again with the choice: its rows are no longer shown as problems.
  await expect(data.dialog.getByText("unknown tool 'dalle': did you mean DALLE_3?")).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 800 });
  await data.nearMissTools.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('tool-mapping-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await data.nearMissTools.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('tool-mapping-390.png') });
  // Nothing in the section is wider than the dialog at phone width.
  const overflow = await data.nearMissTools.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  const result = await data.runImport();
  await expect(result.getByTestId('count-added')).toHaveText('2');
  await expect(result.getByTestId('count-rejected')).toHaveText('0');
  await expect(result.getByRole('row', { name: /DALLE_3/ })).toContainText('2');
  await data.dialog.getByRole('button', { name: 'Done' }).click();
  await expect(
    data
      .datasetCard('Shapes')
      .getByRole('row', { name: /DALLE_3/ })
      .getByRole('cell')
      .nth(1),
  ).toHaveText('5');
  await expect(data.datasetCard('Shapes').getByRole('cell', { name: 'dalle', exact: true })).toHaveCount(0);

  await data.goTo('Tools');
  await expect(data.page.getByTestId('tool-card')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'dalle', exact: true })).toHaveCount(0);
});

test('accept a look-alike as a new tool: a tool "dalle" appears on the Tools page', async ({ data, tools }) => {
  await importKnown(data);
  await chooseLookalike(data);
  await data.toolChoice('dalle').getByRole('radio', { name: "New tool 'dalle'" }).check();
  const result = await data.runImport();
  await expect(result.getByTestId('count-added')).toHaveText('2');
  await expect(result.getByRole('row', { name: /^dalle/ })).toContainText('2');
  await data.dialog.getByRole('button', { name: 'Done' }).click();

  await data.goTo('Tools');
  await expect(tools.card('dalle')).toBeVisible();
  await expect(tools.card('DALLE_3')).toBeVisible();
});

test('left undecided, the look-alike rows are rejected with the suggestion, as before', async ({ data }) => {
  await importKnown(data);
  await chooseLookalike(data);
  const result = await data.runImport();
  await expect(result.getByTestId('count-rejected')).toHaveText('2');
  await expect(result.getByTestId('row-errors')).toContainText("unknown tool 'dalle': did you mean DALLE_3?");
});
