import { test, expect } from './support/fixtures';
import { LabelPage } from './support/label-page';
import { MemoryPage } from './support/memory-page';

// Issue #16: pages read live and write through the workers, so a write shows wherever the data is
// on screen, in this tab or another one, without a reload. Two tabs of one browser share IndexedDB.

const ALPACA = 'tests/fixtures/import/alpaca_experiences_slice.csv';

test('an entry edited in one tab shows in another tab’s Memory page at once, and its undo too', async ({ memory, page, context }) => {
  await memory.importScoredCsv();
  await memory.goTo('Memory');
  await memory.build();
  await memory.waitBuilt();

  const other = new MemoryPage(await context.newPage());
  await other.open('memory');
  for (const m of [memory, other]) await m.tab('A').click();
  await expect(other.entries.first()).toBeVisible();

  await memory.entries.first().click();
  const detail = page.getByTestId('entry-detail');
  await detail.getByRole('button', { name: 'Edit' }).click();
  await detail.getByLabel('Entry text').fill('Stumbles on negated prompts (checked by hand)');
  await detail.getByRole('button', { name: 'Save as a new version' }).click();

  // The other tab asked for nothing: its live read of tool A's entries brings the new version.
  const edited = other.entries.filter({ hasText: 'checked by hand' });
  await expect(edited).toHaveCount(1);
  await expect(edited).toContainText('edited by you');
  // And this tab shows it too, with no reload after the write.
  await expect(memory.entries.filter({ hasText: 'checked by hand' })).toHaveCount(1);

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(other.entries.filter({ hasText: 'checked by hand' })).toHaveCount(0);
  await other.page.close();
});

test('a label given in one tab shows in another tab at once: the item’s other raters and the dataset’s count', async ({ label, context }) => {
  await label.importFile(ALPACA, 'Alpaca slice');
  await label.startAs('ivy');
  await expect(label.position).toHaveText('Item 1 of 12');
  const prompt = (await label.prompt.textContent())!;

  // A second rater, on the same first item in another tab: the rater name is read when the Label
  // page opens, so bob names himself in Settings first (ivy's tab keeps labelling as ivy).
  const bob = new LabelPage(await context.newPage());
  await bob.open('settings');
  await bob.page.getByLabel('Rater name').fill('bob');
  await bob.page.getByRole('region', { name: 'Rater' }).getByRole('button', { name: 'Save' }).click();
  await expect(bob.page.getByRole('status').filter({ hasText: 'rater “bob”' })).toBeVisible();
  await bob.goTo('Label');
  await expect(bob.position).toHaveText('Item 1 of 12');
  await expect(bob.prompt).toHaveText(prompt);
  // The slice's own judge has scored every item already.
  await expect(bob.page.getByText('1 other rater scored this')).toBeVisible();

  await label.scoreValue('0.7');
  await expect(label.position).toHaveText('Item 2 of 12');

  // Bob's screen: the item he is looking at now has ivy's label; his queue did not move under him.
  await expect(bob.page.getByText('2 other raters scored this')).toBeVisible();
  await expect(bob.position).toHaveText('Item 1 of 12');
  await expect(bob.prompt).toHaveText(prompt);
  await expect(bob.footerCount).toHaveText('Local-only · 13 experiences');
  await bob.page.close();
});
