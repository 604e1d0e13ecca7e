import { readFileSync } from 'node:fs';
import { test, expect } from './support/fixtures';

const LOG = 'tests/fixtures/e2e/team-eval-log.csv';

test('import a generic CSV with a column mapping, see it stored, reload, undo', async ({ data, page }) => {
  await data.startImport(LOG);

  // Detected as a generic file; the obvious columns are mapped already, the task id is not.
  await expect(data.dialog.getByLabel('Preset')).toHaveValue('generic');
  await expect(data.dialog.getByLabel('Column for score')).toHaveValue('grade');
  await expect(data.dialog.getByLabel('Column for tool')).toHaveValue('system');
  await data.mapColumn('id', 'case');
  await data.dialog.getByLabel('Dataset name').fill('Team eval log');
  // The scale: 1–5 (what the file's grades imply, shown before the import; set here as it was before).
  await data.setScale('1', '5');
  // The preview shows rows as they will be stored: task id from the `case` column.
  await expect(data.dialog.getByTestId('preview-table').locator('tbody tr').first()).toContainText('assistant-a');

  const result = await data.runImport();
  await expect(result.getByTestId('count-added')).toHaveText('9');
  await expect(result.getByTestId('count-rejected')).toHaveText('1');
  await expect(result.getByTestId('row-errors')).toContainText('grade');
  await expect(result.getByRole('button', { name: /Download rejected rows/ })).toBeVisible();
  await data.dialog.getByRole('button', { name: 'Done' }).click();

  const card = data.datasetCard('Team eval log');
  await expect(card).toContainText('9 experiences');
  await expect(card).toContainText('scores 1–5, higher is better');
  await expect(card.getByTestId('score-histogram')).toBeVisible();
  await expect(card.getByRole('row', { name: /assistant-a/ })).toContainText('4.60');

  await page.reload();
  await expect(data.datasetCard('Team eval log')).toContainText('9 experiences');

  // The history's rejected count opens its reasons: file, row, column, why.
  await data.datasetCard('Team eval log').getByText('Import history').click();
  await data.datasetCard('Team eval log').getByRole('button', { name: '1 rejected: show why' }).click();
  const why = data.datasetCard('Team eval log').getByTestId('rejected-reasons');
  await expect(why).toContainText('Why 1 row of team-eval-log.csv was rejected:');
  await expect(why.getByRole('row', { name: "team-eval-log.csv 8 grade score 'n/a' is not a number" })).toBeVisible();
  // Undo the import as a whole from the history.
  await data.datasetCard('Team eval log').getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Undid the import' })).toBeVisible();
  await expect(data.datasetCard('Team eval log')).toHaveCount(0);
  await expect(data.emptyState).toBeVisible();
});

test('a file dropped on the drop zone is previewed; the zone is highlighted while the file is held over it', async ({ data, page }) => {
  await data.open('data');
  await data.openImport();
  const text = readFileSync(LOG, 'utf8');
  // A real DataTransfer holding the file, as the browser builds it for a drag from the desktop.
  const transfer = await page.evaluateHandle((csv) => {
    const dt = new DataTransfer();
    dt.items.add(new File([csv], 'team-eval-log.csv', { type: 'text/csv' }));
    return dt;
  }, text);
  await page.mouse.move(0, 0); // not hovering: the highlight below comes from the drag alone
  const border = () => data.dropZone.evaluate((el) => getComputedStyle(el).borderColor);
  const resting = await border();
  await data.dropZone.dispatchEvent('dragover', { dataTransfer: transfer });
  await expect(data.dropZone).toHaveClass(/\bdragging\b/);
  expect(await border()).not.toBe(resting);
  await data.dropZone.dispatchEvent('dragleave', { dataTransfer: transfer });
  await expect(data.dropZone).not.toHaveClass(/\bdragging\b/);
  await data.dropZone.dispatchEvent('dragover', { dataTransfer: transfer });
  await data.dropZone.dispatchEvent('drop', { dataTransfer: transfer });
  await expect(data.dialog.getByTestId('preview-table').locator('tbody tr').first()).toContainText('assistant-a');
});

test('re-importing the same file stores nothing twice', async ({ data }) => {
  await data.open('data');
  for (const expected of ['9', '0']) {
    await data.openImport();
    await data.chooseFile(LOG);
    await data.mapColumn('id', 'case');
    await data.dialog.getByLabel('Dataset name').fill('Team eval log');
    const result = await data.runImport();
    await expect(result.getByTestId('count-added')).toHaveText(expected);
    await data.dialog.getByRole('button', { name: 'Done' }).click();
  }
  await expect(data.datasetCard('Team eval log')).toContainText('9 experiences');
});

test('a file that cannot be read says why and stores nothing', async ({ data }) => {
  await data.open('data');
  await data.openImport();
  await data.dialog.getByLabel('Choose a file to import').setInputFiles('tests/fixtures/bad-inputs/truncated.json');
  await expect(data.dialog.getByRole('alert')).toContainText(/truncated|ends|unexpected end/i);
  await expect(data.dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await data.dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(data.emptyState).toBeVisible();
});

test('the demo data loads with all six GenAI-Bench generators and their histograms', async ({ data }) => {
  await data.open('data');
  await data.loadDemo();
  const genai = data.datasetCard('GenAI-Bench demo');
  await expect(genai).toContainText('1,600 tasks');
  for (const tool of ['DALLE_3', 'Midjourney_6', 'DeepFloyd_I_XL_v1', 'SDXL_Base', 'SDXL_Turbo', 'SDXL_2_1']) {
    await expect(genai.getByRole('row', { name: new RegExp(tool) })).toBeVisible();
  }
  await expect(genai).toContainText('rater1 (9,600)');
  await expect(data.datasetCard('AlpacaEval demo')).toContainText('600 experiences');
  await data.goTo('Tools');
  await expect(data.page.getByTestId('tool-card')).toHaveCount(12);
});

test('attach a folder of images by the <tool>/<id>.<ext> pattern and see them in the browser', async ({ data, page }) => {
  await data.startImport('tests/fixtures/import/genai_image_slice.json');
  await expect(data.dialog.getByLabel('Preset')).toHaveValue('genai-bench');
  await data.dialog.getByLabel('Dataset name').fill('GenAI slice');
  await data.runImport();
  await data.dialog.getByRole('button', { name: 'Done' }).click();

  const card = data.datasetCard('GenAI slice');
  await card.getByText('Attach images').click();
  await card.getByLabel('Choose image folder').setInputFiles('tests/fixtures/images/genai');
  const result = card.getByTestId('attach-result');
  await expect(result).toContainText('3 images attached (9 experiences)'); // 3 raters share each image
  await expect(result).toContainText('2 files not matched');
  await expect(card.getByTestId('attach-images')).toContainText('no tool named Imagen_9 in this dataset');
  await expect(card.getByTestId('attach-images')).toContainText('notes.txt');

  await card.getByText('Browse experiences').click();
  const browser = card.getByTestId('experience-browser');
  await browser.getByLabel('Filter by tool').selectOption('DALLE_3');
  const firstRow = browser.getByRole('row', { name: /^00000 DALLE_3 rater1/ });
  await expect(firstRow.getByRole('img', { name: 'Output of DALLE_3 for task 00000' })).toBeVisible();
  await firstRow.click();
  // The detail's image opens the viewer dialog (issue #26).
  await browser.getByRole('button', { name: 'View the output of DALLE_3 for task 00000 large' }).click();
  await expect(page.getByRole('dialog').getByTestId('viewer-zoom')).toContainText('fit');
  await page.keyboard.press('Escape');
  await page.reload();
  await data.datasetCard('GenAI slice').getByText('Browse experiences').click();
  await expect(data.datasetCard('GenAI slice').getByRole('img', { name: 'Output of DALLE_3 for task 00000' }).first()).toBeVisible();
});

test('scores are rounded for their scale and ids sort naturally; the CSV export keeps every digit', async ({ data, page }) => {
  // Twelve tasks 1–12 of one judge on 0–1: task 1 scores 0.4586309383, the others 0.5.
  await data.startImport('tests/fixtures/e2e/decimal-scores.csv');
  await data.mapColumn('id', 'case');
  await data.dialog.getByLabel('Dataset name').fill('Decimal log');
  await data.setScale('0', '1');
  await data.dialog.getByLabel('Whole numbers only').uncheck();
  const result = await data.runImport();
  await expect(result.getByTestId('count-added')).toHaveText('12');
  await data.closeImport();
  const card = data.datasetCard('Decimal log');
  // Mean (0.4586309383 + 11 × 0.5) / 12 = 0.49655…: three decimals on a 0–1 scale, the full value in its title.
  const mean = card
    .getByRole('row', { name: /judge-x/ })
    .getByRole('cell')
    .nth(2);
  await expect(mean).toHaveText('0.497');
  await expect(mean).toHaveAttribute('title', /^0\.4965525781/);
  await card.getByText('Browse experiences').click();
  const rows = card.getByTestId('experience-browser').locator('tbody tr');
  await expect(rows.locator('td:first-child')).toHaveText(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
  await expect(rows.first().locator('td.num')).toHaveText('0.459');
  await expect(rows.first().locator('td.num')).toHaveAttribute('title', '0.4586309383');

  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('decimal-log-experiences.csv');
  const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  expect(text.split('\n')[0]).toContain('prompt,tool,score,rater,human,score_source');
  expect(text).toContain(',judge-x,0.4586309383,');
});
