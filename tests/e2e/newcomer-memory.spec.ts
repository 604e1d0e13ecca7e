/**
 * Issue #38 on the Memory, Predict and Tools pages: an honest building state, a plain paragraph
 * first with the details folded (entry counts that add up, the embedding model said plainly), whole
 * matrix column names on hover and focus, a matrix a phone can read, the cell panel's status in
 * words, memory names told apart after an export is imported again, Predict counts that add up,
 * and tool cards that say why they have no entry.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from './support/fixtures';
import { sidewaysScroll } from './support/layout-checks';
import { shootBoth } from './support/screens';
import { axeViolations, blocking, describe as describeAxe } from './support/axe';

test('the demo memory: building state, a plain summary first, whole column names, a phone matrix, plain cell words, names told apart, Predict counts', async ({
  cap,
  page,
}) => {
  test.setTimeout(420_000);
  await cap.open('data');
  await cap.loadDemo();
  await cap.goTo('Memory');
  await cap.buildPanel.getByLabel('Dataset to learn from').selectOption({ label: 'GenAI-Bench demo' });
  // Every task a training task: a build long enough to look at while it runs.
  await cap.buildPanel.getByLabel('Training tasks').fill('1600');
  await cap.build();

  // While it runs: no "has no capability analysis", nothing to export or undo yet.
  const building = page.getByTestId('memory-building');
  await expect(building).toBeVisible({ timeout: 60_000 });
  await expect(building.getByRole('heading', { level: 2 })).toHaveText(/^Building .+…$/);
  await expect(page.getByTestId('capability-missing')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export JSON' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  await expect(page.getByText('Loading…', { exact: true })).toHaveCount(0);
  await shootBoth(page, 'memory-building', [1280]);
  await cap.waitBuilt();
  await expect(building).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export JSON' })).toBeEnabled();

  // A plain paragraph first, above the matrix; the details folded.
  await expect(cap.summary).toBeVisible();
  await expect(cap.summary.locator('p').first()).toHaveText(
    /^This memory learned from 1,600 training tasks of GenAI-Bench demo, about 6 tools\. Overall \S+ scores best \(\d\.\d+ on the 1–5 scale\) and \S+ worst \(\d\.\d+\)\. It makes \d+ claims? — kinds of task on which a tool does clearly better or worse against the others than it usually does, such as .+\./,
  );
  expect((await cap.summary.boundingBox())!.y).toBeLessThan((await cap.matrix.boundingBox())!.y);
  await expect(cap.details).not.toHaveAttribute('open', '');
  // The technical notes (themes as "embedding groups", …) are folded: in the details and the build report's.
  for (const note of await page.getByText(/embedding groups/).all()) await expect(note).toBeHidden();
  await cap.details.locator('summary').click();
  // The entry counts add up, the tools' profiles included.
  const counts = (await cap.details.getByTestId('memory-entry-counts').textContent())!;
  const m = /^([\d,]+) entries: 6 tool profiles, ([\d,]+) claims?, ([\d,]+) tentative(?:, ([\d,]+) other)?\.$/.exec(counts);
  expect(m, counts).not.toBeNull();
  const n = (s: string | undefined) => Number((s ?? '0').replace(/,/g, ''));
  expect(n(m![1])).toBe(6 + n(m![2]) + n(m![3]) + n(m![4]));
  await expect(cap.details).toContainText(
    /Prompts\s+are\s+compared\s+with\s+the\s+embedding\s+model\s+glove-100d@\w+\s+\(it\s+turns\s+a\s+text\s+into\s+numbers,\s+so\s+similar\s+tasks\s+can\s+be\s+found\)/,
  );
  await cap.details.locator('summary').click();

  // Whole column names: pointing at a cut header name shows it whole; so does the keyboard cursor.
  await expect(cap.columnName).toContainText("Point at a facet's name");
  await cap.grid.scrollIntoViewIfNeeded();
  const box = (await cap.matrix.locator('canvas').boundingBox())!;
  const region = (await cap.grid.locator('..').boundingBox())!;
  const tableNames = await cap.matrix.locator('thead th').allTextContents();
  // The last visible column's rotated name (the canvas may be wider than its scrolling region).
  await page.mouse.move(Math.min(box.x + box.width, region.x + region.width) - 20, box.y + 80);
  await expect(cap.columnName).toContainText(/^(category|cue|theme): .+ · \d+ training tasks$/);
  const named = (await cap.columnName.locator('b').textContent())!;
  expect(named.endsWith('…')).toBe(false);
  expect(tableNames).toContain(named);
  await page.mouse.move(0, 0);
  await cap.grid.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('End');
  await expect(cap.columnName.locator('b')).toHaveText(tableNames.at(-1)!);

  // The cell panel says its claim in words for that tool and facet.
  await cap.openCellWithEntry();
  await expect(cap.cellPanel.getByTestId('cell-status')).toHaveText(
    /^(claim|tentative,\s+not\s+a\s+claim)\s+\S+\s+(probably\s+)?does\s+(better|worse)\s+on\s+“.+”\s+tasks\s+against\s+the\s+other\s+tools\s+than\s+it\s+usually\s+does(;\s+the\s+chance\s+it\s+is\s+the\s+other\s+way\s+is\s+(below\s+0\.1%|[\d.]+%)\.|,\s+but\s+the\s+chance\s+it\s+is\s+the\s+other\s+way\s+is\s+[\d.]+%\s+—\s+too\s+high\s+to\s+state\s+it\s+as\s+a\s+fact\.)$/,
  );
  await expect(cap.cellPanel.getByTestId('cell-status')).not.toContainText('sign');
  await shootBoth(page, 'memory-summary');

  // A phone: the matrix turned a quarter, every facet's whole name down the side, all tools across, nothing sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(cap.phoneMatrix).toBeVisible();
  // The summary first on a phone too: above the build panel, not after it.
  expect((await cap.summary.boundingBox())!.y).toBeLessThan((await cap.buildPanel.boundingBox())!.y);
  const facets = await cap.phoneMatrix.locator('tbody th[scope="row"]').allTextContents();
  expect(facets).toEqual(tableNames.slice(1));
  await expect(cap.phoneMatrix.locator('thead th[scope="col"]')).toHaveCount(7);
  expect(await cap.phoneMatrix.evaluate((el) => el.scrollWidth - el.parentElement!.clientWidth)).toBeLessThanOrEqual(0);
  expect(await sidewaysScroll(page)).toBe(0);
  await cap.phoneMatrix.locator('button.cell').first().click();
  await expect(cap.cellPanel).toBeVisible();
  const found = describeAxe(blocking(await axeViolations(page)));
  expect(found, found.join('\n')).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Export, import again: the two memories of the same name are told apart by where they came from and when.
  const file = join(mkdtempSync(join(tmpdir(), 'toolmem-mem-')), 'demo.toolmem-memory.json');
  await cap.exportMemory(file);
  await cap.importMemoryFile(file);
  // The list is read once the imported memory has reached it (allTextContents does not wait).
  await expect(page.getByLabel('Memory', { exact: true }).locator('option')).toHaveCount(2);
  const names = await page.getByLabel('Memory', { exact: true }).locator('option').allTextContents();
  expect(names).toHaveLength(2);
  expect(new Set(names).size).toBe(2);
  expect(names.some((x) => / — built \w{3} \d+, \d{4}/.test(x))).toBe(true);
  expect(names.some((x) => / — imported \w{3} \d+, \d{4}/.test(x))).toBe(true);

  // Predict: counts that square with the dataset's 1,600 tasks; the dataset note's line explained.
  await cap.goTo('Predict');
  await page.getByLabel('Task', { exact: true }).fill('Two cups on a table, the left one bigger than the right one, and no spoon');
  await page.getByRole('button', { name: /^Predict/ }).click();
  await expect(page.getByTestId('trained-on')).toHaveText('9,600 scored outputs (1,600 tasks × 6 tools)');
  await expect(page.getByTestId('ranges-note')).toContainText(
    "1,000 of its 1,600 tasks (a seeded sample), split into 5 folds; each fold's tasks were predicted by a model that learned from at most 400 of the other tasks",
  );
  await expect(page.getByTestId('pick-margin')).not.toHaveText(/uncertain:\S/);
  await page.getByLabel('Prediction method').selectOption('memory');
  await page.getByRole('button', { name: /^Predict/ }).click();
  const contributions = page.getByTestId('contributions').first();
  await expect(contributions).toBeVisible();
  if (await contributions.locator('[data-kind="dataset"]').count()) {
    await expect(contributions.getByTestId('shared-why')).toContainText('the points on the right are its share in this prediction');
  }
  await shootBoth(page, 'predict-counts');
});

test('tool cards say why they hold no entry: no memory yet, or a memory with no claim about the tool', async ({ cap, tools, page }) => {
  test.setTimeout(180_000);
  // Two tools scoring the same on every task (2 or 4 by the task's parity): a memory of them can claim nothing.
  const lines = ['id,prompt,tool,score,category'];
  for (let i = 0; i < 40; i++)
    for (const tool of ['P', 'Q']) lines.push(`t${i},A plain prompt number ${i},${tool},${i % 2 ? 4 : 2},${i % 4 < 2 ? 'alpha' : 'beta'}`);
  const csv = join(mkdtempSync(join(tmpdir(), 'toolmem-same-')), 'same.csv');
  writeFileSync(csv, `${lines.join('\n')}\n`);
  await cap.importScoredCsv(csv, 'Same');
  await tools.goTo('Tools');
  await expect(tools.card('P').getByTestId('no-strength')).toHaveText('No memory yet — build one on the Memory page.');
  await cap.goTo('Memory');
  await cap.buildPanel.getByLabel('Dataset to learn from').selectOption({ label: 'Same' });
  await cap.build();
  await cap.waitBuilt();
  const memory = (await page.getByLabel('Memory', { exact: true }).locator('option:checked').textContent())!.split(' — ')[0]!;
  await tools.goTo('Tools');
  // The memory covers P and found nothing clear either way: it says so, not "no memory entry yet — build a memory".
  await expect(tools.card('P').getByTestId('no-strength')).toHaveText(
    `No claim of a strength in ${memory}: P is not clearly better than the other tools on any facet tested.`,
  );
  await expect(tools.card('P').getByTestId('no-weakness')).toHaveText(
    `No claim of a weakness in ${memory}: P is not clearly worse than the other tools on any facet tested.`,
  );
  await expect(page.getByText('No memory yet — build one on the Memory page.')).toHaveCount(0);
  await shootBoth(page, 'tools-no-claim');
});
