import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect } from './support/fixtures';
import { MemoryPage } from './support/memory-page';
import { SettingsPage } from './support/settings-page';
import { ToolsPage } from './support/tools-page';

const test = base.extend<{ memory: MemoryPage; settings: SettingsPage; tools: ToolsPage }>({
  memory: async ({ app }, use) => use(new MemoryPage(app.page)),
  settings: async ({ app }, use) => use(new SettingsPage(app.page)),
  tools: async ({ app }, use) => use(new ToolsPage(app.page)),
});

interface FileEntry { text: string; value: number; evidenceTasks: string[] }
interface FileTool { id: string; entries: FileEntry[] }

test('share a memory: export, delete everything, import it back — same memory; newer contradicting data flags it stale', async ({ memory, settings, tools, page }) => {
  test.setTimeout(240_000);
  await memory.importGenaiSlice();
  await memory.goTo('Memory');
  await memory.build();
  await memory.waitBuilt();
  const shownBefore = await memory.shownEntries();
  expect(Object.keys(shownBefore)).toHaveLength(6);
  // A private folder: test-results/ may be cleared by another Playwright run meanwhile.
  const dir = mkdtempSync(join(tmpdir(), 'toolmem-share-'));
  const path = join(dir, 'shared.toolmem-memory.json');
  const exported = await memory.exportMemory(path);

  await tools.goTo('Tools');
  await expect(page.locator('p.entry').first()).toBeVisible();
  const cardsBefore = await tools.strongestAndWeakest();

  await settings.deleteAllData();
  await memory.open('memory');
  await expect(memory.entries).toHaveCount(0);

  // A broken file is refused with its JSON paths, and nothing is imported.
  await memory.chooseMemoryFile('tests/fixtures/bad-inputs/memory-unknown-level.json');
  await expect(memory.importPanel.getByTestId('memory-import-issues')).toContainText('$.tools[0].entries[0].level');
  await memory.importPanel.getByRole('button', { name: 'Choose another file' }).click();

  await memory.importMemoryFile(path);
  await memory.waitBuilt();
  expect(await memory.shownEntries()).toEqual(shownBefore);
  // Export of the imported memory gives the same file back, byte for byte.
  expect(await memory.exportMemory(join(dir, 'again.json'))).toBe(exported);

  await tools.goTo('Tools');
  await expect.poll(() => tools.strongestAndWeakest(), { timeout: 30_000 }).toEqual(cardsBefore);

  // New experiences arrive: DALLE_3 now scores 1 on the tasks behind its strongest claim (5 elsewhere).
  const file = JSON.parse(exported) as { tools: FileTool[] };
  const claim = file.tools.find((t) => t.id === 'DALLE_3')!.entries.filter((e) => e.value > 0)[0]!;
  const rows = [
    ...claim.evidenceTasks.map((t) => `${t},"a prompt of task ${t}",DALLE_3,1,late`),
    ...claim.evidenceTasks.map((_, i) => `other-${i},"another prompt ${i}",DALLE_3,5,late`),
  ];
  const csv = join(dir, 'later.csv');
  writeFileSync(csv, `id,prompt,tool,score,rater\n${rows.join('\n')}\n`);
  await memory.open('data');
  await memory.openImport();
  await memory.chooseFile(csv);
  await memory.mapColumn('id', 'id');
  await memory.dialog.getByLabel('Dataset name').fill('Later labels');
  // The memory's scale (1–5): only data on the same scale is compared with it.
  for (const [label, value] of [['Scale minimum', '1'], ['Scale maximum', '5']] as const) {
    await memory.dialog.getByLabel(label).fill(value);
    await memory.dialog.getByLabel(label).blur();
    await expect(memory.dialog.getByLabel(label)).toHaveValue(value);
  }
  await expect((await memory.runImport()).getByTestId('count-added')).toHaveText(String(rows.length));
  await memory.dialog.getByRole('button', { name: 'Done' }).click();

  await memory.goTo('Memory');
  await page.getByRole('tab', { name: 'DALLE_3' }).click();
  const entry = memory.entries.filter({ hasText: claim.text });
  await expect(entry.getByText('stale', { exact: true })).toBeVisible({ timeout: 30_000 });
  await entry.click();
  const note = page.getByTestId('stale-note');
  await expect(note).toBeVisible();
  await expect(note.getByTestId('contradicting-experience')).toHaveCount(claim.evidenceTasks.length);
  await expect(note.getByTestId('contradicting-experience').first()).toContainText('score 1');

  await tools.goTo('Tools');
  const card = tools.card('DALLE_3');
  await expect(card.getByTestId('stale-count')).toBeVisible({ timeout: 30_000 });
  await expect(card.locator('p.entry.good').filter({ hasText: claim.text }).getByText('stale', { exact: true })).toBeVisible();

  // Pin one of the new tasks as a test case, run the test cases, see the run in the card's history.
  await memory.open('data');
  const browser = page.getByTestId('dataset-card').filter({ hasText: 'Later labels' });
  await browser.getByText('Browse experiences').click();
  await browser.getByRole('row', { name: new RegExp(claim.evidenceTasks[0]!) }).first().click();
  await browser.getByRole('button', { name: 'Pin as test case of DALLE_3' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'pinned as a test case of DALLE_3' })).toBeVisible();
  await tools.goTo('Tools');
  await card.getByRole('button', { name: 'Run test cases' }).click();
  const row = card.getByTestId('history-row').filter({ hasText: 'test cases' }).first();
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row.locator('.badge')).toHaveText(/^(completed|failed)$/);
  await expect(row).toContainText('of 1 within');
});
