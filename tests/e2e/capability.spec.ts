import type { Locator } from '@playwright/test';
import { test, expect } from './support/fixtures';
import type { CapabilityPage } from './support/capability-page';

/**
 * Full-height screenshots (the app scrolls inside <main>, so the viewport is made as tall as the
 * page), plus close-ups of `parts` at the same width, for a person to look at.
 */
async function shoot(cap: CapabilityPage, name: string, width: number, parts: Record<string, Locator> = {}): Promise<void> {
  const page = cap.page;
  await page.setViewportSize({ width, height: 800 });
  const height = await page.evaluate(() => Math.min(6000, document.querySelector('main')?.scrollHeight ?? 800));
  await page.setViewportSize({ width, height: Math.max(800, height + 40) });
  // Nothing may be wider than the screen outside the regions that scroll sideways on purpose.
  expect(await page.evaluate(() => document.querySelector('main')!.scrollWidth), `${name} at ${width} px`).toBeLessThanOrEqual(width);
  await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  for (const [part, locator] of Object.entries(parts)) await locator.screenshot({ path: test.info().outputPath(`${name}-${part}-${width}.png`) });
}

test('demo → build → capability matrix → a cell\'s entries and evidence; tool cards show facets; Predict shows contributions', async ({ cap, page }) => {
  test.setTimeout(300_000); // demo import and a GenAI-Bench build on a 2-core machine
  await cap.open('data');
  await cap.loadDemo();
  await cap.goTo('Memory');
  await cap.buildPanel.getByLabel('Dataset to learn from').selectOption({ label: 'GenAI-Bench demo' });
  await cap.build();
  await cap.waitBuilt();

  // The memory just built is the one shown, with its matrix.
  await expect(cap.matrix).toBeVisible();
  await expect(page.getByTestId('capability-missing')).toHaveCount(0);
  const drawMs = await cap.drawMs();
  const size = await cap.size();
  console.log(`capability matrix: ${size.rows} tools × ${size.cols} facets drawn in ${drawMs} ms`);
  expect(size.rows).toBe(6);

  // Hover: the tooltip names the cell with its numbers.
  await cap.hoverACell();
  await expect(cap.tooltip).toContainText(/ · .+ \((category|cue|theme)\)/);
  await page.mouse.move(0, 0);

  // Keyboard: walk to a cell with an entry, open it: its entries with effect bars, and the evidence.
  const head = await cap.openCellWithEntry();
  const [tool] = head.split(' · ');
  await expect(cap.cellPanel.getByRole('heading', { level: 3 })).toContainText(tool!);
  const entry = cap.cellPanel.getByRole('article', { name: 'Entry' }).first();
  await expect(entry.getByTestId('effect-bar').first()).toContainText(/n = \d+/);
  await expect(entry.getByRole('list', { name: 'Evidence' }).getByRole('listitem').first()).toContainText(/score \d/);

  // From the cell to the entry's full detail in the list.
  await entry.getByRole('button', { name: 'Open entry details' }).click();
  await expect(page.getByRole('tab', { name: tool!, exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('entry-detail').getByTestId('effect-bar')).toBeVisible();

  // Export PNG.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export the capability matrix as PNG' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.capability-matrix\.png$/);

  const memoryParts = { matrix: cap.matrix, cell: cap.cellPanel, detail: page.getByTestId('entry-detail') };
  await shoot(cap, 'memory', 1280, memoryParts);
  await shoot(cap, 'memory', 390, memoryParts);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Tool cards: strongest and weakest facets with their intervals.
  await cap.goTo('Tools');
  const facets = page.getByTestId('tool-facets').first();
  await expect(facets).toBeVisible();
  await expect(facets).toContainText(/\[[+−]?\d\.\d\d, [+−]?\d\.\d\d\]/);
  await expect(page.getByTestId('tool-card').first().locator('p.entry').first()).toBeVisible();
  await shoot(cap, 'tools', 1280, { card: page.getByTestId('tool-card').first() });
  await shoot(cap, 'tools', 390, { card: page.getByTestId('tool-card').first() });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Predict with the memory method: the contributions behind DALLE_3's score on a negation prompt.
  await cap.goTo('Predict');
  await page.getByLabel('Dataset to learn from').selectOption({ label: 'GenAI-Bench demo' });
  await cap.predict('A library shelf with no books on it', 'memory');
  const dalle = cap.prediction('DALLE_3');
  const contributions = dalle.getByTestId('contributions');
  await expect(contributions).toBeVisible();
  await expect(contributions.getByText('Tool mean')).toBeVisible();
  await expect(contributions.getByTestId('contribution').first()).toContainText(/[+−]\d\.\d\d/);
  await shoot(cap, 'predict', 1280, { dalle });
  await shoot(cap, 'predict', 390, { dalle });
});
