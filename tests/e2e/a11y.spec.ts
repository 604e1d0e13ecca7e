import { test, expect } from './support/fixtures';
import type { AppPage, PageName } from './support/app-page';
import { axeViolations, blocking, describe } from './support/axe';

// axe-core on every page: no serious or critical violation (and no heading-order one), empty and
// with the demo loaded, wide and narrow, light and dark.
const PAGES: PageName[] = ['Data', 'Label', 'Memory', 'Predict', 'Evaluate', 'Tools', 'Settings'];

async function auditAll(app: AppPage, when: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of PAGES) {
    await app.goTo(name);
    await expect(app.page.getByText('Loading…', { exact: true })).toHaveCount(0);
    const violations = await axeViolations(app.page);
    found.push(...describe(blocking(violations)).map((line) => `${when} ${name}: ${line}`));
  }
  return found;
}

test('every page passes axe-core when empty, wide in light and narrow in dark', async ({ app, page }) => {
  await app.open();
  const found = await auditAll(app, 'empty 1280 light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 800 });
  found.push(...(await auditAll(app, 'empty 390 dark')));
  expect(found, found.join('\n')).toEqual([]);
});

test('every page passes axe-core with the demo loaded', async ({ app, page, demo }) => {
  test.setTimeout(300_000);
  void demo;
  const found = await auditAll(app, 'demo 1280 light');
  await page.emulateMedia({ colorScheme: 'dark' });
  found.push(...(await auditAll(app, 'demo 1280 dark')));
  expect(found, found.join('\n')).toEqual([]);
});

test('the narrow navigation wraps: every entry whole and in view, reached with the keyboard', async ({ app, page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await app.open();
  const list = app.nav.getByRole('list');
  // Issue #38: nothing hidden behind a fade or cut mid-word ("P…", "Mem…"): the entries wrap onto two rows.
  expect(await list.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  for (const name of ['Data', 'Label', 'Memory', 'Predict', 'Evaluate', 'Tools', 'Settings'])
    await expect(app.nav.getByRole('link', { name })).toBeInViewport({ ratio: 1 });
  expect((await app.nav.boundingBox())!.height).toBeLessThan(100);
  await app.nav.getByRole('link', { name: 'Settings' }).focus();
  await page.keyboard.press('Enter');
  await expect(app.heading).toHaveText('Settings');
  await expect(app.nav.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
});
