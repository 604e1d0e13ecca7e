/**
 * Issue #26 end to end: a person's own unscored outputs (real PNG files of 8 px to 2,048 px) are
 * imported from a CSV without a score column, their images attached as a folder, labelled with the
 * keyboard in a viewer that fits and zooms (checked by the image's box on screen against the
 * viewport, score controls always inside it at 1280 × 800 and 390 × 844), compared in pairs by two
 * raters, exported with the image's file name, and the pairs made memory evidence: a memory built
 * from them says its scores come from pairwise judgements.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { writePng } from './support/png';

/** Task → [flux size, sdxl size] in px (square images). */
const SIZES: Record<string, [number, number]> = { p1: [64, 8], p2: [1024, 300], p3: [512, 2048] };

function ownOutputs(): { csv: string; folder: string } {
  const root = mkdtempSync(join(tmpdir(), 'toolmem-own-'));
  const lines = ['id,prompt,model'];
  for (const [task, [flux, sdxl]] of Object.entries(SIZES)) {
    lines.push(`${task},a prompt for ${task} with a red and cream checkerboard,flux`, `${task},a prompt for ${task} with a red and cream checkerboard,sdxl`);
    writePng(join(root, 'images', 'flux', `${task}.png`), flux, flux);
    writePng(join(root, 'images', 'sdxl', `${task}.png`), sdxl, sdxl);
  }
  const csv = join(root, 'outputs.csv');
  writeFileSync(csv, `${lines.join('\n')}\n`);
  return { csv, folder: join(root, 'images') };
}

/** The image's box on screen, the viewport, and the score controls' box. */
async function boxes(page: Page, controls = 'score-controls') {
  const img = await page.getByTestId('viewer-image').first().boundingBox();
  const bar = await page.getByTestId(controls).boundingBox();
  const vp = page.viewportSize()!;
  return { img: img!, bar: bar!, vp };
}

type Box = { x: number; y: number; width: number; height: number };
/** The score controls cover none of a box: they are under it (a phone) or beside it (a wide window, issue #38). */
const clearOf = (box: Box, bar: Box) => box.y + box.height <= bar.y + 1 || bar.x + bar.width <= box.x + 1;

/** The prompt (beside or above the image), the image with its caption and the score controls (under or beside them), all inside the viewport. */
async function allInView(page: Page) {
  const b = await boxes(page);
  const prompt = (await page.getByTestId('item-prompt').boundingBox())!;
  const caption = (await page.getByTestId('image-viewer').locator('figcaption').boundingBox())!;
  expect(prompt.y).toBeGreaterThanOrEqual(0);
  expect(prompt.y + prompt.height).toBeLessThanOrEqual(b.bar.y);
  expect(prompt.y + prompt.height <= b.img.y + 1 || prompt.x + prompt.width <= b.img.x + 1).toBe(true);
  expect(b.img.x).toBeGreaterThanOrEqual(0);
  expect(b.img.x + b.img.width).toBeLessThanOrEqual(b.vp.width);
  expect(clearOf(b.img, b.bar)).toBe(true);
  expect(clearOf(caption, b.bar)).toBe(true);
  expect(caption.y + caption.height).toBeLessThanOrEqual(b.vp.height);
  expect(b.bar.y + b.bar.height).toBeLessThanOrEqual(b.vp.height);
  return b;
}

test('label your own outputs: unscored import, attached folder, a viewer that fits and zooms, pairs by two raters, exports, a memory from the pairs', async ({
  label,
  memory,
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const { csv, folder } = ownOutputs();

  // Import: no score column → 6 outputs to label.
  await label.startImport(csv);
  await expect(label.dialog.getByTestId('outputs-to-label')).toContainText('6 outputs to label');
  // No score says nothing of the scale the labels will use: it is asked for (issue #38).
  await label.setScale('1', '5');
  await label.dialog.getByLabel('Dataset name').fill('Mine');
  const result = await label.runImport();
  await expect(result.getByTestId('count-unscored')).toHaveText('6');
  await label.closeImport();
  const card = label.datasetCard('Mine');
  await expect(card.getByTestId('awaiting-total')).toHaveText('6 outputs awaiting labels');

  // Attach the folder (images/<tool>/<id>.png).
  await card.getByText('Attach images').click();
  await card.getByLabel('Choose image folder').setInputFiles(folder);
  await expect(card.getByTestId('attach-result')).toContainText('6 images attached (0 experiences, 6 outputs awaiting labels)');
  await page.screenshot({ path: test.info().outputPath('data-1280.png'), fullPage: true });

  // Label with the keyboard: p1 · flux (64 px) first, fitted (scaled up) inside the viewport.
  await label.startAs('ann');
  await expect(label.position).toHaveText('Item 1 of 6');
  await expect(page.getByTestId('viewer-zoom')).toContainText('64 × 64 px · fit');
  let b = await allInView(page);
  expect(b.img.width).toBeGreaterThan(64 * 3);
  await expect(page.getByTestId('viewer-image')).toHaveCSS('image-rendering', 'pixelated');
  await page.screenshot({ path: test.info().outputPath('label-1280.png') });
  await label.press('z');
  await expect(page.getByTestId('viewer-zoom')).toContainText('100%');
  expect((await boxes(page)).img.width).toBeCloseTo(64, 0);
  await label.press('z');
  expect((await boxes(page)).img.width).toBeCloseTo(128, 0);
  await label.press('Escape');
  await expect(page.getByTestId('viewer-zoom')).toContainText('fit');
  await label.press('4');

  // p1 · sdxl (8 px): scaled up a lot, crisp.
  await expect(page.getByTestId('viewer-zoom')).toContainText('8 × 8 px · fit');
  expect((await boxes(page)).img.width).toBeGreaterThan(8 * 20);
  await label.press('3');

  // p2 · flux (1,024 px): fitted below its size; 100% is larger than the frame, arrows pan it.
  await expect(page.getByTestId('viewer-zoom')).toContainText('1024 × 1024 px · fit');
  b = await boxes(page);
  expect(b.img.height).toBeLessThan(1024);
  expect(clearOf(b.img, b.bar)).toBe(true);
  await label.press('z');
  await expect(page.getByTestId('viewer-zoom')).toContainText('1024 × 1024 px · 100%');
  const frame = page.locator('[data-testid="image-viewer"] .frame');
  const before = await frame.evaluate((el) => el.scrollLeft);
  await label.press('ArrowRight');
  await expect.poll(() => frame.evaluate((el) => el.scrollLeft)).toBeGreaterThan(before);
  await expect(label.position).toHaveText('Item 3 of 6'); // the arrow panned, it did not move in the queue
  b = await boxes(page);
  expect(b.bar.y + b.bar.height).toBeLessThanOrEqual(b.vp.height);
  await label.press('Escape');
  await label.press('5');

  // A phone: the prompt, the image (fitted to what is left) and the score controls all in view.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('viewer-zoom')).toContainText('300 × 300 px');
  b = await allInView(page);
  expect(b.img.height).toBeGreaterThan(150);
  await page.screenshot({ path: test.info().outputPath('label-390.png') });
  await label.press('2');
  // Each key once its item is on screen: a key pressed while the next item loads labels nothing (issue #35).
  await expect(label.position).toHaveText('Item 5 of 6');
  await label.press('4');
  await expect(page.getByTestId('viewer-zoom')).toContainText('2048 × 2048 px · fit');
  b = await allInView(page);
  expect(b.img.height).toBeGreaterThan(150);
  await label.press('1');
  await expect(page.getByTestId('queue-empty')).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });

  // Pairs: ann, then bob; both images fit beside each other above the choices.
  await label.tab('Compare pairs').click();
  await expect(page.getByTestId('pair-count')).toHaveText('0 of 3 compared');
  b = await boxes(page, 'pair-controls');
  expect(b.bar.y + b.bar.height).toBeLessThanOrEqual(b.vp.height);
  // Each key once the pair it judges is on screen (a key pressed while a choice is saved does nothing: issue #35).
  for (const [i, key] of ['a', 't', 'd'].entries()) {
    await label.press(key);
    await expect(page.getByTestId('pair-count')).toHaveText(`${i + 1} of 3 compared`);
  }
  await label.goTo('Settings');
  await page.getByLabel('Rater name').fill('bob');
  await page.getByLabel('Rater name').press('Enter');
  await label.goTo('Label');
  await label.tab('Compare pairs').click();
  await expect(page.getByTestId('pair-count')).toHaveText('0 of 3 compared');
  for (const [i, key] of ['a', 't', 'a'].entries()) {
    await label.press(key);
    await expect(page.getByTestId('pair-count')).toHaveText(`${i + 1} of 3 compared`);
  }
  const pooled = page.getByTestId('pair-pooled');
  // Sides are shuffled per task, so the counts depend on the placement; the totals do not.
  await expect(pooled).toContainText('flux vs sdxl');
  await expect(pooled).toContainText('agreement');
  await expect(pooled).toContainText('on 3 shared tasks');
  const pairCsv = page.waitForEvent('download');
  await page.getByTestId('pairwise-results').getByRole('button', { name: 'Export CSV' }).click();
  const pairText = readFileSync((await (await pairCsv).path())!, 'utf8');
  expect(pairText.split('\n')[0]).toBe('tool_a,tool_b,rater,wins_a,ties,wins_b,share_a,ci95_low,ci95_high,interval,agreement,agreement_pairs');
  expect(pairText.split('\n').filter((l) => l.startsWith('flux,sdxl,'))).toHaveLength(3); // ann, bob, pooled

  // The pairs as memory evidence: 6 judgements → 3 tasks × 2 tools, each a share of comparisons won.
  await page.getByRole('button', { name: 'Use as memory evidence' }).click();
  await expect(page.getByTestId('pairwise-evidence')).toContainText('“Mine · pairwise” now holds 6 scores from 6 judgements on 3 tasks');
  await page.getByTestId('pairwise-results').screenshot({ path: test.info().outputPath('pairs-evidence-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('pairwise-results').screenshot({ path: test.info().outputPath('pairs-evidence-390.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('pairwise-evidence').getByRole('link', { name: 'Build a memory from it' }).click();
  await page.getByLabel('Dataset to learn from').selectOption({ label: 'Mine · pairwise' });
  await expect(page.getByTestId('build-pairwise')).toContainText('Scores from pairwise judgements');
  await memory.build();
  await memory.waitBuilt();
  await expect(page.getByTestId('profile').first()).toContainText(
    'From pairwise judgements: a score here is the share of its comparisons on a task it won (a tie counts ½).',
  );
  await page.screenshot({ path: test.info().outputPath('memory-pairwise-1280.png'), fullPage: true });

  // The Data page: every output scored; the export names the files as imported.
  await label.goTo('Data');
  await expect(card.getByTestId('awaiting-total')).toHaveCount(0);
  const exp = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Export CSV' }).click();
  const text = readFileSync((await (await exp).path())!, 'utf8');
  const [header, ...rows] = text.split('\n');
  expect(header!.split(',').slice(-2)).toEqual(['image', 'image_id']);
  expect(rows).toHaveLength(6);
  expect(rows.some((r) => r.endsWith(',images/sdxl/p3.png,img:mine:sdxl/p3'))).toBe(true);

  // The Data browser opens a thumbnail in the same viewer.
  await card.getByText('Browse experiences').click();
  await card.getByTestId('thumb').first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('viewer-zoom')).toContainText('fit');
  await page.keyboard.press('z');
  await expect(dialog.getByTestId('viewer-zoom')).toContainText('100%');
  await page.keyboard.press('Escape');
  await expect(dialog.getByTestId('viewer-zoom')).toContainText('fit');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.screenshot({ path: test.info().outputPath('data-after-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('data-390.png'), fullPage: true });
});
