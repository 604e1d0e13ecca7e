/**
 * Issue #38, a newcomer's third pass, without the demo: phone tables that become cards with whole
 * words, a top bar that wraps, visible labels and focus rings, honest empty states for a dataset of
 * outputs awaiting labels (its card, Browse, Label), an import dialog that asks for the scale it
 * cannot tell and shows the one it infers, and an image viewer that uses the free height.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from './support/fixtures';
import type { PageName } from './support/app-page';
import { brokenWords, fieldsWithoutVisibleLabel, sidewaysScroll } from './support/layout-checks';
import { writePng } from './support/png';
import { shootBoth } from './support/screens';
import { axeViolations, blocking, describe as describeAxe } from './support/axe';

const PAGES: PageName[] = ['Data', 'Label', 'Memory', 'Predict', 'Evaluate', 'Tools', 'Settings'];

/** Three tasks × two tools of one's own, no score column, each output a 640 × 480 PNG in images/<tool>/<id>.png. */
function ownOutputs(): { csv: string; folder: string } {
  const root = mkdtempSync(join(tmpdir(), 'toolmem-newcomer-'));
  const lines = ['id,prompt,model'];
  for (const task of ['q1', 'q2', 'q3']) {
    for (const tool of ['flux-dev', 'sdxl-lightning']) {
      lines.push(`${task},a photographer capturing a heron at dawn over the lake ${task},${tool}`);
      writePng(join(root, 'images', tool, `${task}.png`), 640, 480);
    }
  }
  const csv = join(root, 'outputs.csv');
  writeFileSync(csv, `${lines.join('\n')}\n`);
  return { csv, folder: join(root, 'images') };
}

test('a phone: the top bar wraps, tables become cards with whole words, every field has a visible label', async ({ label, page }) => {
  test.setTimeout(240_000);
  await label.open('data');
  await label.importFile('tests/fixtures/import/promptfoo/results.json', 'Promptfoo');
  await label.importGenaiSlice();
  await page.setViewportSize({ width: 390, height: 844 });

  // The top bar: every page's entry whole and in view, on every page (no cut "P…", no hidden entries).
  for (const name of PAGES) {
    await label.goTo(name);
    for (const entry of PAGES) await expect(label.nav.getByRole('link', { name: entry })).toBeInViewport({ ratio: 1 });
    expect(await sidewaysScroll(page), `${name} at 390 px`).toBe(0);
  }

  // Data: the experience browser, the tools and the import history as cards; no word broken inside.
  await label.goTo('Data');
  for (const name of ['Promptfoo', 'GenAI slice']) {
    const browser = await label.browse(name);
    await expect(browser.locator('tbody tr.item')).toHaveCount(25);
    const history = await label.history(name);
    const card = label.datasetCard(name);
    expect(await brokenWords(browser), `${name}: experience browser`).toEqual([]);
    expect(await brokenWords(history), `${name}: import history`).toEqual([]);
    expect(await brokenWords(card.locator('table.tools')), `${name}: tool names`).toEqual([]);
    // Every figure of the import is in view, the Undo button too (the table no longer runs off the right).
    await expect(history.getByRole('button', { name: 'Undo' })).toBeInViewport({ ratio: 1 });
    await expect(history.locator('td[data-label="Rejected"]').first()).toBeInViewport({ ratio: 1 });
    // A card's prompt is readable: at least half the screen wide.
    const prompt = (await browser.locator('td.prompt').first().boundingBox())!;
    expect(prompt.width).toBeGreaterThan(195);
  }
  expect(await sidewaysScroll(page)).toBe(0);
  await shootBoth(page, 'data-cards', [390, 1280]);

  // Every form field on every page has a visible label, at 390 and 1280 (a placeholder is not one).
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    for (const name of PAGES) {
      await label.goTo(name);
      await expect(page.getByText('Loading…', { exact: true })).toHaveCount(0);
      expect(await fieldsWithoutVisibleLabel(page), `${name} at ${width} px`).toEqual([]);
    }
  }
  // Settings' endpoint fields (URL, model, API key) and the import dialog's too.
  await label.goTo('Settings');
  await page.getByRole('radio', { name: /OpenAI-compatible endpoint/ }).check();
  await expect(page.getByLabel('Endpoint base URL')).toBeVisible();
  expect(await fieldsWithoutVisibleLabel(page)).toEqual([]);
  await shootBoth(page, 'settings-labels');
  await label.goTo('Data');
  await label.openImport();
  expect(await fieldsWithoutVisibleLabel(label.dialog)).toEqual([]);

  // The drop zone shows the keyboard focus: tabbing onto its hidden file input rings the zone.
  await label.dialog.locator('header').getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Tab');
  await expect(label.dialog.getByLabel('Choose a file to import')).toBeFocused();
  await expect(label.dropZone).toHaveCSS('outline-style', 'solid');
  await expect(label.dropZone).toHaveCSS('outline-width', '2px');
  await page.screenshot({ path: test.info().outputPath('import-focus-1280.png') });
  await label.dialog.locator('header').getByRole('button', { name: 'Close' }).click();
});

test('outputs awaiting labels: the dialog asks for their scale, the card and Browse tell the truth, Label offers them, the viewer fills the free height', async ({
  label,
  page,
}) => {
  test.setTimeout(240_000);
  const { csv, folder } = ownOutputs();
  await label.open('data');
  await label.importGenaiSlice();

  // No score column: the dialog cannot tell the scale, says so, and waits for it.
  await label.startImport(csv);
  await expect(label.dialog.getByTestId('scale-needed')).toHaveText(
    /^This file has no scores \(6 outputs to label\), so it cannot tell the scale their labels will use: give its Min and Max to import it\.$/,
  );
  await expect(label.dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await label.dialog.getByLabel('Dataset name').fill('Herons');
  await label.setScale('1', '5');
  await expect(label.dialog.getByTestId('scale-needed')).toHaveCount(0);
  const result = await label.runImport();
  await expect(result.getByTestId('scale-said')).toHaveText('scale 1–5, given for this import');
  await label.closeImport();

  // The card: no empty histogram with 0–100% axes, no bare "Raters:".
  const card = label.datasetCard('Herons');
  await expect(card.getByTestId('awaiting-total')).toHaveText('6 outputs awaiting labels');
  await expect(card.getByTestId('no-histogram')).toHaveText('No score yet, so no score distribution: it shows once outputs are labelled.');
  await expect(card.getByTestId('score-histogram')).toHaveCount(0);
  await expect(card.getByTestId('no-raters')).toHaveText('No rater yet: 6 outputs await labels.');
  await expect(card.getByText(/^Raters:/)).toHaveCount(0);
  await card.getByText('Attach images').click();
  await card.getByLabel('Choose image folder').setInputFiles(folder);
  await expect(card.getByTestId('attach-result')).toContainText('6 images attached');

  // Browse lists the outputs awaiting labels (it used to say "0–0 of 0 · No experiences.").
  const browser = await label.browse('Herons');
  await expect(browser.getByLabel('Show')).toHaveValue('awaiting');
  await expect(browser.getByTestId('browser-range')).toHaveText('1–6 of 6');
  await expect(browser.locator('tbody tr.item')).toHaveCount(6);
  await expect(browser.getByTestId('thumb')).toHaveCount(6);
  await expect(browser.locator('tbody tr.item').first()).toContainText('to label');
  await shootBoth(page, 'data-awaiting');

  // Label opens on the dataset with outputs awaiting labels; from an image dataset without images it is offered too.
  await label.startAs('ann');
  await expect(label.filters.getByLabel('Dataset to label')).toHaveValue('herons');
  await expect(label.position).toHaveText('Item 1 of 6');
  await label.filters.getByLabel('Dataset to label').selectOption({ label: 'GenAI slice' });
  await expect(label.noImages.getByRole('button', { name: 'Label Herons instead (6 outputs awaiting labels)' })).toBeVisible();
  await label.noImages.getByRole('button', { name: 'Label Herons instead (6 outputs awaiting labels)' }).click();
  await expect(label.position).toHaveText('Item 1 of 6');

  // The viewer uses the free height: a 640 × 480 image is fitted to its column, nothing covers it or its caption.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('viewer-zoom')).toContainText('640 × 480 px · fit');
  await page.screenshot({ path: test.info().outputPath('label-viewer-1280.png') });
  const img = (await page.getByTestId('viewer-image').boundingBox())!;
  const frame = (await page.getByTestId('image-viewer').locator('.frame').boundingBox())!;
  const caption = (await page.getByTestId('image-viewer').locator('figcaption').boundingBox())!;
  const bar = (await page.getByTestId('score-controls').boundingBox())!;
  // As large as the frame allows: it fills the frame's width or its height (within a pixel or two).
  expect(Math.max(img.width / frame.width, img.height / frame.height)).toBeGreaterThan(0.98);
  // The free height used: the caption ends near the window's bottom (no band of empty page under it).
  expect(caption.y + caption.height).toBeGreaterThan(800 - 60);
  const clear = (b: typeof img) => b.y + b.height <= bar.y + 1 || bar.x + bar.width <= b.x + 1;
  expect(clear(img) && clear(caption)).toBe(true);
  expect(caption.y + caption.height).toBeLessThanOrEqual(800);

  // A phone: the modes and the filters wrap, "?" is in reach, the image still clear of the score bar.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const mode of ['Score', 'Compare pairs', 'Raters & agreement', 'Add items'])
    await expect(label.modes.getByRole('tab', { name: mode })).toBeInViewport({ ratio: 1 });
  await expect(label.filters.getByRole('button', { name: 'Keyboard shortcuts' })).toBeInViewport({ ratio: 1 });
  // The filters fold into one line that says what they are set to; unfolded they wrap, none off the right.
  const toggle = label.filters.getByTestId('filters-toggle');
  await expect(toggle).toHaveText('Filters: Herons · all tools · not labelled by me');
  await toggle.click();
  for (const name of ['Dataset to label', 'Tool to label', 'Which items', 'Order']) await expect(label.filters.getByLabel(name)).toBeInViewport({ ratio: 1 });
  expect(await label.filters.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath('label-filters-390.png') });
  await toggle.click();
  await page.screenshot({ path: test.info().outputPath('label-390.png') });
  const phoneImg = (await page.getByTestId('viewer-image').boundingBox())!;
  const phoneBar = (await page.getByTestId('score-controls').boundingBox())!;
  expect(phoneImg.y + phoneImg.height).toBeLessThanOrEqual(phoneBar.y + 1);
  expect(await sidewaysScroll(page)).toBe(0);
  const found = describeAxe(blocking(await axeViolations(page)));
  expect(found, found.join('\n')).toEqual([]);
});

test('the import dialog shows the scale it infers, says plainly where a scale comes from, and no "% sure" for a plain CSV', async ({ data, page }) => {
  // A plain CSV: no known format; its 180 whole scores 1–5 give 1–5, shown in Min and Max before the import.
  await data.startImport('tests/fixtures/e2e/capability.csv');
  await expect(data.dialog.getByTestId('preset-detected')).toHaveText('No known format recognised: say which column holds what below.');
  await expect(data.dialog).not.toContainText('% sure');
  await expect(data.dialog.getByLabel('Scale minimum')).toHaveValue('1');
  await expect(data.dialog.getByLabel('Scale maximum')).toHaveValue('5');
  await expect(data.dialog.getByTestId('scale-source')).toHaveText("Inferred from the file's 180 scores: change Min or Max if it is wrong.");
  await page.screenshot({ path: test.info().outputPath('import-inferred-1280.png') });
  await data.mapColumn('id', 'id');
  await data.dialog.getByLabel('Dataset name').fill('Capability');
  const plain = await data.runImport();
  await expect(plain.getByTestId('scale-said')).toHaveText('scale 1–5, inferred from the 180 scores (lowest 1, highest 5)');
  await data.closeImport();

  // A format with its own scale: the sentence names it without the file pattern in brackets.
  await data.startImport('tests/fixtures/import/promptfoo/results.json');
  await expect(data.dialog.getByTestId('preset-detected')).toHaveText('Recognised from the file.');
  await expect(data.dialog.getByTestId('scale-source')).toHaveText('The scale of every promptfoo results file.');
  await expect(data.dialog.getByLabel('Scale maximum')).toHaveValue('1');
  const result = await data.runImport();
  await expect(result.getByTestId('scale-said')).toHaveText('scale 0–1, the scale of every promptfoo results file');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('import-result-390.png') });
});
