import { test, expect } from './support/fixtures';
import type { PageName } from './support/app-page';

const PAGES: { name: PageName; empty: RegExp }[] = [
  { name: 'Data', empty: /Import your first experiences/ },
  { name: 'Label', empty: /Nothing to label yet/ },
  { name: 'Memory', empty: /No capability memory yet/ },
  { name: 'Predict', empty: /Nothing to predict from yet/ },
  { name: 'Evaluate', empty: /No data to evaluate on/ },
  { name: 'Tools', empty: /No tools yet/ },
];

test('every page has a navigation entry and a real empty state', async ({ app }) => {
  await app.open();
  for (const { name, empty } of PAGES) {
    await app.goTo(name);
    await expect(app.emptyState).toContainText(empty);
    await expect(app.nav.getByRole('link', { name })).toHaveAttribute('aria-current', 'page');
  }
  await app.goTo('Settings');
  await expect(app.page.getByRole('heading', { name: 'Storage' })).toBeVisible();
});

test('deep links open the right page and unknown routes fall back to Data', async ({ app, page }) => {
  await page.goto('/#/tools');
  await expect(app.heading).toHaveText('Tools');
  await page.goto('/#/no-such-page');
  await expect(app.heading).toHaveText('Data');
});

test('the layout works in a narrow window', async ({ app, page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await app.open('memory');
  await expect(app.emptyState).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await app.goTo('Settings');
});

test('the rater name is saved in IndexedDB and survives a reload', async ({ app, page }) => {
  await app.open('settings');
  await page.getByLabel('Rater name').fill('alice');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'rater “alice”' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Rater name')).toHaveValue('alice');
});

test('the installed app opens offline from the service worker cache, every page and the demo files used before', async ({ app, page, context }) => {
  await app.open();
  await app.waitForServiceWorker();
  // Precached: the shell and every page's chunk. Cached on first use: the demo files (and models).
  const demoFile = () => page.evaluate(async () => (await fetch('/demo/genai_skills.json')).status).catch(() => 0);
  expect(await demoFile()).toBe(200);
  await context.setOffline(true);
  await page.reload();
  await expect(app.heading).toHaveText('Data');
  await expect(page.getByTestId('offline-badge')).toBeVisible();
  for (const { name } of PAGES) await app.goTo(name);
  await app.goTo('Settings');
  expect(await demoFile()).toBe(200);
  await context.setOffline(false);
});

test('the web manifest names the app and its icons', async ({ page }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const manifest = await (await page.request.get(href!)).json();
  expect(manifest.name).toBe('ToolMem Studio');
  expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
});

test('back up everything and restore it after deleting all data', async ({ app, page }) => {
  await app.open('settings');
  await page.getByLabel('Rater name').fill('zoe');
  await page.getByRole('button', { name: 'Save' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Back up everything' }).click();
  const path = await (await download).path();
  await page.getByRole('button', { name: 'Delete all data…' }).click();
  await page.getByRole('button', { name: 'Yes, delete everything' }).click();
  // The data worker empties the tables: reload once it says so.
  await expect(page.getByRole('status').filter({ hasText: 'All local data was deleted.' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Rater name')).toHaveValue('');
  // The restore control is a labelled button that stays inside its card (issue #28).
  const card = page.getByRole('region', { name: 'Backup' });
  const pick = card.getByText('Choose a backup file to restore…');
  await expect(card.getByTestId('restore-file')).toHaveText('No file chosen');
  const [inner, outer] = [(await pick.boundingBox())!, (await card.boundingBox())!];
  expect(inner.x >= outer.x && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height).toBe(true);
  await card.getByLabel('Choose a backup file to restore').setInputFiles(path);
  await expect(card.getByTestId('restore-file')).not.toHaveText('No file chosen');
  await page.getByRole('button', { name: 'Replace everything with this backup' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Restored' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Rater name')).toHaveValue('zoe');
});
