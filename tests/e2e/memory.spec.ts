import { test, expect } from './support/fixtures';

test('build a memory without an LLM: capability entries with evidence; edit, history, retire and undo', async ({ memory, page }) => {
  await memory.importScoredCsv();
  await memory.goTo('Memory');
  await memory.build();
  await memory.waitBuilt();

  // A is weak and B strong on the negation tasks: each gets its entry.
  for (const tool of ['A', 'B']) {
    await page.getByRole('tab', { name: tool, exact: true }).click();
    await expect(memory.entries.filter({ hasText: 'negation' }).first()).toBeVisible();
  }
  await page.getByRole('tab', { name: 'A', exact: true }).click();
  const first = memory.entries.first();
  const original = (await first.locator('span.user-text').textContent())!;
  await first.click();
  const detail = page.getByTestId('entry-detail');
  await expect(detail.getByRole('heading', { name: /Evidence \(\d+\)/ })).toBeVisible();
  await expect(detail.locator('.evidence li').first()).toContainText('score');

  await detail.getByRole('button', { name: 'Edit' }).click();
  await detail.getByLabel('Entry text').fill('Renders cosy indoor scenes well (checked by hand)');
  await detail.getByRole('button', { name: 'Save as a new version' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Entry edited' })).toBeVisible();
  const edited = memory.entries.filter({ hasText: 'checked by hand' });
  await expect(edited).toContainText('edited by you');
  await edited.click();
  await expect(detail.getByRole('heading', { name: 'Earlier versions' })).toBeVisible();
  await expect(detail.locator('.history .removed').first()).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.toolmem-memory\.json$/);
  const json = JSON.parse(Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8'));
  expect(json).toMatchObject({ kind: 'toolmem-memory', version: 4 });
  expect(json.tools.map((t: { id: string }) => t.id)).toContain('A');
  expect(json.build.capability.tools).toEqual(['A', 'B', 'C']);

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(memory.entries.filter({ hasText: 'checked by hand' })).toHaveCount(0);
  await expect(memory.entries.filter({ hasText: original.slice(0, 30) })).toHaveCount(1);
});

test('a build interrupted by a reload resumes and ends with the same memory as an uninterrupted one', async ({ memory, page }) => {
  test.setTimeout(240_000); // demo import and two builds on a 2-core machine
  await memory.open('data');
  await memory.loadDemo();
  await memory.goTo('Memory');
  // All 1,600 tasks: the capability step (embedding, facets, effects, the fit) then takes long enough to reload in the middle.
  await page.getByLabel('Training tasks').fill('1600');
  await memory.build();
  await memory.waitBuilt();

  await page.getByLabel('Training tasks').fill('1600');
  await memory.build();
  const progress = page.getByTestId('build-progress');
  await expect(progress).toContainText(/0 of 1 steps?/, { timeout: 60_000 });
  await page.reload();
  // A build interrupted during its step resumes by itself; one interrupted before the step began
  // (the whole analysis takes seconds) waits under "Unfinished builds" with a Resume button.
  const resume = page.getByRole('button', { name: 'Resume' });
  await expect
    .poll(
      async () => {
        if (await resume.isVisible()) await resume.click();
        return Object.values(await memory.storedMemories()).map((lines) => lines.length > 0);
      },
      { timeout: 90_000 },
    )
    .toEqual([true, true]);
  await expect(page.getByText('Unfinished builds')).toHaveCount(0);
  const stored = await memory.storedMemories();
  const names = Object.keys(stored);
  expect(names).toHaveLength(2);
  expect(stored[names[0]!]!.length).toBeGreaterThan(6);
  expect(stored[names[1]!]).toEqual(stored[names[0]!]);
});
