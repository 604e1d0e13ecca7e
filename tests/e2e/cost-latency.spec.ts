import { test, expect } from './support/fixtures';
import { axeViolations, blocking, describe } from './support/axe';

const PROMPTFOO = 'tests/fixtures/import/promptfoo/results.json';

test("the promptfoo log's costs and latencies show on the tool cards; a price set on a card wins, bad input is refused", async ({ data, tools, page }) => {
  await data.startImport(PROMPTFOO);
  await expect(data.dialog.getByLabel('Preset')).toHaveValue('promptfoo');
  await expect((await data.runImport()).getByTestId('count-added')).toHaveText('60');
  await data.dialog.getByRole('button', { name: 'Done' }).click();

  await tools.goTo('Tools');
  // Medians of 20 logged calls each: chatty $0.000084, terse $0.000002 per call.
  const chatty = tools.card('chatty-model');
  await expect(chatty.getByTestId('tool-cost-value')).toHaveText('$84 per 1M calls · from the data, median of 20 logged costs');
  await expect(chatty.getByTestId('tool-latency-value')).toContainText('from the data, median of 20 logged latencies');
  const terse = tools.card('terse-model');
  await expect(terse.getByTestId('tool-cost-value')).toHaveText('$2 per 1M calls · from the data, median of 20 logged costs');

  await terse.getByRole('button', { name: /^(Set|Change) price \/ latency of terse-model$/ }).click();
  await terse.getByLabel('Price of terse-model in US dollars').fill('abc');
  await terse.getByRole('button', { name: 'Save' }).click();
  await expect(terse.getByRole('alert')).toHaveText('The price must be a number like 0.04, got "abc".');
  await terse.getByLabel('Price unit of terse-model').selectOption('1k-tokens');
  await terse.getByLabel('Price of terse-model in US dollars').fill('0.01');
  await terse.getByLabel('Tokens per call of terse-model').fill('500');
  await terse.getByLabel('Typical latency of terse-model in ms').fill('1200');
  await terse.getByRole('button', { name: 'Save' }).click();
  // 0.01 $ per 1k tokens × 500 tokens = 0.005 $ per call.
  await expect(terse.getByTestId('tool-cost-value')).toHaveText(/^\$0\.005 per call \(\$0\.01 per 1k tokens × 500 tokens\) · set by you$/);
  await expect(terse.getByTestId('tool-latency-value')).toHaveText('1.2 s · set by you');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await terse.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/tool-cost-${width}.png` });
  }

  // Cancel leaves the card as it was; Undo in the toast puts back the data's median.
  await terse.getByRole('button', { name: /^(Set|Change) price \/ latency of terse-model$/ }).click();
  await terse.getByLabel('Price of terse-model in US dollars').fill('9');
  await terse.getByRole('button', { name: 'Cancel' }).click();
  await expect(terse.getByTestId('tool-cost-value')).toContainText('$0.005 per call');
  await page.reload();
  const again = tools.card('terse-model');
  await expect(again.getByTestId('tool-cost-value')).toContainText('$0.005 per call');
  await again.getByRole('button', { name: /^(Set|Change) price \/ latency of terse-model$/ }).click();
  await again.getByLabel('Price unit of terse-model').selectOption('call');
  await again.getByLabel('Price of terse-model in US dollars').fill('0.02');
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(again.getByTestId('tool-cost-value')).toHaveText('$0.02 per call · set by you');
  await page.getByRole('status').filter({ hasText: 'Saved terse-model' }).getByRole('button', { name: 'Undo' }).click();
  await expect(again.getByTestId('tool-cost-value')).toContainText('$0.005 per call');
});

test("the demo's evaluation draws the cost–quality plane with its frontier, from example prices", async ({ demo: data, evaluate, page }) => {
  test.setTimeout(240_000);
  await data.goTo('Tools');
  const dalle = page.getByTestId('tool-card').filter({ has: page.getByRole('heading', { name: 'DALLE_3', exact: true }) });
  await expect(dalle.getByTestId('tool-cost-value')).toHaveText('$0.04 per call · example price — set your own');

  await data.goTo('Evaluate');
  await evaluate.form.getByLabel('Dataset to evaluate').selectOption({ label: 'GenAI-Bench demo' });
  await evaluate.chooseMethods(['tool-mean', 'knn'], ['tool-median', 'knn-difficulty', 'ensemble', 'memory']);
  await evaluate.fillSplit(200, 200, 1);
  await evaluate.form.getByRole('button', { name: 'Run evaluation' }).click();
  const plane = page.getByTestId('cost-plane');
  await expect(plane).toBeVisible({ timeout: 180_000 });
  const canvas = plane.locator('figure').filter({ hasText: 'Cost–quality plane' }).locator('canvas');
  await expect(canvas).toBeVisible();
  // Issue #28: Okabe–Ito colours by the run's order (tool-mean blue, knn orange) and a black star
  // for the oracle; vermillion, the oracle's old colour that an orange method was mistaken for, is gone.
  const [blue, orange, black, vermillion] = await evaluate.canvasColours(canvas, ['#0072B2', '#E69F00', '#000000', '#D55E00']);
  expect(blue).toBeGreaterThan(20);
  expect(orange).toBeGreaterThan(20);
  expect(black).toBeGreaterThan(5);
  expect(vermillion).toBe(0);
  await expect(plane).toContainText('on 200 test tasks of the first seed');
  // SDXL_Turbo is the cheapest example price ($0.001): nothing is cheaper, so the frontier starts there.
  await expect(page.getByTestId('cost-plane-summary')).toContainText(/^The frontier has \d+ points, from always SDXL_Turbo \(\$0\.001, score \d\.\d+\) to /);
  await expect(page.getByTestId('cost-plane-summary')).toContainText('The best single tool is always DALLE_3 ($0.04, score');
  await expect(plane).toContainText('example prices (set on the tool cards by the demo');
  await plane.getByText(/points as a table/).click();
  const table = page.getByTestId('cost-plane-table');
  await expect(table.getByRole('row', { name: /^always DALLE_3 \$0\.04 / })).toBeVisible();
  await expect(table.getByRole('row', { name: /^oracle / })).toBeVisible();
  await expect(table.getByRole('row', { name: /^knn at λ 0 / })).toBeVisible();
  expect(await table.getByRole('row').filter({ hasText: /yes$/ }).count()).toBeGreaterThan(0);

  const download = page.waitForEvent('download');
  await plane.getByRole('button', { name: 'Export the cost–quality plane as CSV' }).click();
  const csv = (await (await download).createReadStream()).toArray();
  const text = Buffer.concat(await csv).toString('utf8');
  expect(text.split('\n')[0]).toBe('kind,label,lambda,mean_cost_usd,mean_score,frontier');
  expect(text).toMatch(/\nalways,DALLE_3,,0\.04,\d/);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await plane.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/cost-plane-${width}.png` });
    // The plane (chart, summary, open table) passes axe-core, and nothing is wider than a phone.
    expect(describe(blocking(await axeViolations(page)))).toEqual([]);
    if (width === 390) expect(await plane.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
  }
});
