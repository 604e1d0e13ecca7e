import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from './support/fixtures';

interface FileEntry {
  id: string;
  text: string;
  value: number;
  evidenceTasks: string[];
  facet?: { rule: { type: string; value?: string } };
}
interface FileTool {
  id: string;
  entries: FileEntry[];
}

/**
 * Later labels that contradict "A is weak on negation": 40 new tasks, the first 20 tagged negation
 * (and written with "no"), where A now scores 4–5 and 1–2 elsewhere; B scores 2–3 everywhere.
 */
function laterCsv(): string {
  const rows = ['id,prompt,tool,score,category,rater'];
  for (let t = 0; t < 40; t++) {
    const neg = t < 20;
    const id = `late-${String(t).padStart(2, '0')}`;
    const prompt = neg ? `A bowl with no fruit, late ${t}` : `A green bowl on a shelf, late ${t}`;
    rows.push(`${id},"${prompt}",A,${neg ? 5 - (t % 2) : 1 + (t % 2)},${neg ? 'negation' : 'plain'},late`);
    rows.push(`${id},"${prompt}",B,${3 - (t % 2)},${neg ? 'negation' : 'plain'},late`);
  }
  return `${rows.join('\n')}\n`;
}

test('share a memory: export, delete everything, import it back — same memory; newer contradicting data flags it stale', async ({
  memory,
  settings,
  tools,
  page,
}) => {
  test.setTimeout(240_000);
  await memory.importScoredCsv();
  await memory.goTo('Memory');
  await memory.build();
  await memory.waitBuilt();
  const shownBefore = await memory.shownEntries();
  expect(Object.keys(shownBefore)).toEqual(expect.arrayContaining(['A', 'B']));
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
  // Export of the imported memory (format version 2) gives the same file back, byte for byte.
  const again = await memory.exportMemory(join(dir, 'again.json'));
  expect(again).toBe(exported);
  expect(JSON.parse(again)).toMatchObject({ version: 4, build: { capability: { tools: ['A', 'B', 'C'] } } });

  await tools.goTo('Tools');
  await expect.poll(() => tools.strongestAndWeakest(), { timeout: 30_000 }).toEqual(cardsBefore);

  // New experiences arrive in which A does well on negation: its weakness there is contradicted.
  const file = JSON.parse(exported) as { tools: FileTool[] };
  const claim = file.tools
    .find((t) => t.id === 'A')!
    .entries.find((e) => e.value < 0 && e.facet?.rule.type === 'category' && e.facet.rule.value === 'negation')!;
  expect(claim).toBeDefined();
  const csv = join(dir, 'later.csv');
  writeFileSync(csv, laterCsv());
  expect(await memory.importScoredCsv(csv, 'Later labels')).toBe('80');

  await memory.goTo('Memory');
  await page.getByRole('tab', { name: 'A', exact: true }).click();
  const entry = memory.entries.filter({ hasText: claim.text });
  await expect(entry.getByText('stale', { exact: true })).toBeVisible({ timeout: 30_000 });
  await entry.click();
  const note = page.getByTestId('stale-note');
  await expect(note).toBeVisible();
  // The 20 later negation scores of A (4–5, above its later mean) go against "weak at negation".
  await expect(note.getByTestId('contradicting-experience')).toHaveCount(20);
  await expect(note.getByTestId('contradicting-experience').first()).toContainText(/score [45]/);

  await tools.goTo('Tools');
  const card = tools.card('A');
  await expect(card.getByTestId('stale-count')).toBeVisible({ timeout: 30_000 });
  // The claim may be one of the entries folded under the card's "Details".
  await tools.openDetails('A');
  await expect(card.locator('p.entry').filter({ hasText: claim.text }).getByText('stale', { exact: true })).toBeVisible();

  // Pin one of the new tasks as a test case, run the test cases, see the run in the card's history.
  await memory.open('data');
  const browser = page.getByTestId('dataset-card').filter({ hasText: 'Later labels' });
  await browser.getByText('Browse experiences').click();
  await browser
    .getByRole('row', { name: /late-00/ })
    .first()
    .click();
  await browser.getByRole('button', { name: 'Pin as test case of A' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'pinned as a test case of A' })).toBeVisible();
  await tools.goTo('Tools');
  await tools.openDetails('A');
  await card.getByRole('button', { name: 'Run test cases' }).click();
  const row = card.getByTestId('history-row').filter({ hasText: 'test cases' }).first();
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row.locator('.badge')).toHaveText(/^(completed|failed)$/);
  await expect(row).toContainText('of 1 within');
});

test('a version-1 memory file (from before capability memories) still imports and exports as it was', async ({ memory, page }) => {
  await memory.open('memory');
  await memory.importMemoryFile('tests/fixtures/bad-inputs/memory-valid.json');
  await memory.waitBuilt();
  await expect(memory.entries.first()).toBeVisible();
  const dir = mkdtempSync(join(tmpdir(), 'toolmem-v1-'));
  const text = await memory.exportMemory(join(dir, 'v1.json'));
  expect(JSON.parse(text)).toMatchObject({ version: 1 });
  // Without a capability analysis the page says how to get one, instead of an empty matrix.
  await expect(page.getByTestId('capability-missing')).toContainText('imported from a version-1 file');
});
