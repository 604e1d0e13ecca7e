import { test, expect } from './support/fixtures';
import { axeViolations, blocking, describe } from './support/axe';

const ALPACA = 'tests/fixtures/import/alpaca_experiences_slice.csv';

test('label 10 items with the keyboard only, undo one, reload: every label is intact', async ({ label, page }) => {
  await label.importGenaiSlice();
  await label.startAs('alice');
  await label.scoreWithoutImages(); // the slice has no images attached; the choice is kept across the reload below
  await expect(label.position).toHaveText(/^Item 1 of 1[0-9]{2}$/);
  const total = Number((await label.position.textContent())!.match(/of (\d+)/)![1]);

  const prompts: string[] = [];
  const scores = [5, 4, 3, 2, 1, 5, 4, 3, 2, 1];
  for (const [i, s] of scores.entries()) {
    await expect(label.position).toHaveText(`Item ${i + 1} of ${total}`);
    prompts.push((await label.prompt.textContent())!);
    await label.press(String(s));
  }
  await expect(label.position).toHaveText(`Item 11 of ${total}`);
  await label.press('u');
  await expect(label.position).toHaveText(`Item 10 of ${total}`);
  await expect(label.prompt).toHaveText(prompts[9]!);
  await expect(page.getByText('9 labelled this session')).toBeVisible();

  await page.reload();
  // The queue (not labelled by me) lost the 9 labelled items and resumes at the undone one.
  await expect(label.position).toHaveText(`Item 1 of ${total - 9}`);
  await expect(label.prompt).toHaveText(prompts[9]!);

  await label.goTo('Data');
  const card = label.datasetCard('GenAI slice');
  await expect(card).toContainText(/alice \(9\)/);

  // The stored scores are the ones given, in order (browse alice's labels through the agreement view).
  await label.goTo('Label');
  await label.tab('Raters & agreement').click();
  await expect(page.getByRole('row', { name: /alice 9 3\.22/ })).toBeVisible(); // mean of 5,4,3,2,1,5,4,3,2 = 29/9
});

test('pairwise mode stores a preference per task, with undo', async ({ label, page }) => {
  await label.importGenaiSlice();
  await label.startAs('bob');
  await label.scoreWithoutImages(); // kept for the Compare pairs tab too
  await label.tab('Compare pairs').click();
  await page.getByLabel('First tool').selectOption('DALLE_3');
  await page.getByLabel('Second tool').selectOption('SDXL_2_1');
  await expect(page.getByTestId('pair-count')).toHaveText('0 of 20 compared');
  // The select keeps the focus and its arrows (issue #35): Esc leaves it for the shortcuts.
  await page.getByLabel('Second tool').press('Escape');
  // Each key once the pair it judges is on screen: until the chosen pair's tasks are read, a key
  // judges nothing (issue #35), and the count alone cannot tell (every pair here has 20 tasks).
  for (const [i, key] of ['ArrowLeft', 'ArrowRight', 't'].entries()) {
    await expect(page.getByTestId('pair-controls')).toBeVisible();
    await label.press(key);
    await expect(page.getByTestId('pair-count')).toHaveText(`${i + 1} of 20 compared`);
  }
  await label.press('u');
  await expect(page.getByTestId('pair-count')).toHaveText('2 of 20 compared');
  await page.reload();
  await label.tab('Compare pairs').click();
  await expect(page.getByTestId('pair-count')).toHaveText('2 of 20 compared');
});

test('agreement of three raters, and choosing the ground truth', async ({ label, page }) => {
  await label.importGenaiSlice();
  await label.startAs('carol');
  await label.tab('Raters & agreement').click();
  const report = page.getByTestId('agreement');
  await expect(report).toContainText('3raters');
  await expect(page.getByTestId('alpha-ordinal')).toHaveText(/^0\.\d{3}$/);
  await expect(page.getByLabel('Ground truth policy')).toHaveValue('rater:rater1');
  await page.getByLabel('Ground truth policy').selectOption('mean');
  await expect(page.getByRole('status').filter({ hasText: 'the mean of raters' })).toBeVisible();
  await label.goTo('Data');
  await expect(label.datasetCard('GenAI slice')).toContainText('ground truth: mean of raters');
});

test('add an output by hand and score it', async ({ label, page }) => {
  await label.open('label');
  await page.getByLabel('Dataset for the new item').selectOption({ label: 'New dataset…' });
  await page.getByLabel('New dataset name').fill('My models');
  await page.getByLabel('Tool name').fill('house-llm');
  await page.getByLabel('Task prompt').fill('Name three rivers in Africa.');
  await page.getByLabel('Answer').fill('Nile, Congo, Niger.');
  await page.getByRole('button', { name: 'Add to queue' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added an output of house-llm' })).toBeVisible();
  await label.startAs('dana');
  await expect(label.prompt).toHaveText('Name three rivers in Africa.');
  await expect(page.getByTestId('item-output')).toContainText('Nile, Congo, Niger.');
  await label.press('4');
  await expect(page.getByTestId('queue-empty')).toBeVisible();
  await label.goTo('Data');
  await expect(label.datasetCard('My models')).toContainText('1 experience ·');
});

test('an image dataset without images says so once, and offers Attach images or a text dataset', async ({ label, page }) => {
  await label.importGenaiSlice();
  await label.importFile(ALPACA, 'Alpaca slice');
  await label.startAs('erin');
  await expect(label.noImages).toContainText('No images attached to GenAI slice');
  await expect(label.noImages).toContainText('Its 6 tools make images, but the file you imported holds only the prompts and the ratings (358 experiences)');
  await expect(page.getByTestId('item-output')).toHaveCount(0);
  await expect(label.footerCount).toHaveText('Local-only · 370 experiences');
  await label.press('5'); // nothing to judge: no label is saved
  await expect(label.noImages).toBeVisible();
  await expect(label.footerCount).toHaveText('Local-only · 370 experiences');

  // The pairwise tab says the same.
  await label.tab('Compare pairs').click();
  await expect(label.noImages).toBeVisible();
  await label.tab('Score').click();

  // Attach images right here: the notice gives way to the queue, with the picture.
  await label.noImages.getByRole('button', { name: 'Attach images' }).click();
  await label.noImages.getByLabel('Choose image folder').setInputFiles('tests/fixtures/images/genai');
  await expect(label.noImages).toBeHidden();
  await expect(label.position).toHaveText('Item 1 of 120');
  await expect(page.getByRole('img', { name: 'Output for this task' })).toBeVisible();
});

test('the notice switches to a text dataset, whose Markdown answers are formatted', async ({ label, page }) => {
  await label.importGenaiSlice();
  await label.importFile(ALPACA, 'Alpaca slice');
  await label.startAs('gus');
  await label.noImages.getByRole('button', { name: 'Label Alpaca slice instead' }).click();
  await expect(page.getByLabel('Dataset to label')).toHaveValue(/alpaca/);
  await expect(label.prompt).toHaveText('What are the names of some famous actors that started their careers on Broadway?');
  // claude-2.1 comes first: a "- " list, shown as list items.
  await expect(label.answer.getByRole('listitem').first()).toContainText('Hugh Jackman - He made his Broadway debut');
  await label.press('j'); // a continuous 0–1 scale: no score keys, j goes on
  // FuseChat: "**Legends:**" is bold, "*High Society*" italic, and no asterisk is left.
  await expect(label.answer.locator('strong').first()).toHaveText('Legends:');
  await expect(label.answer.locator('em').first()).toHaveText('High Society');
  await expect(label.answer).not.toContainText('**');
  await label.press('j');
  // gemma-2b-it opens with a stray "</h4>": it is text, not markup.
  await expect(label.answer).toContainText('</h4>');
  await expect(label.answer.getByRole('listitem')).toHaveCount(10);
  await expect(label.answer.locator('strong').first()).toHaveText('Patti LuPone');
  // Source shows the answer exactly as written.
  await page.getByRole('button', { name: 'Source' }).click();
  await expect(page.getByRole('button', { name: 'Source' })).toHaveAttribute('aria-pressed', 'true');
  await expect(label.answer).toContainText('1. **Patti LuPone**');
});

test('hostile markup in an answer shows as text: no image, script or javascript: link', async ({ label, page }) => {
  await label.open('label');
  await page.getByLabel('Dataset for the new item').selectOption({ label: 'New dataset…' });
  await page.getByLabel('New dataset name').fill('Hostile');
  await page.getByLabel('Tool name').fill('evil-llm');
  await page.getByLabel('Task prompt').fill('Say hello.');
  await page
    .getByLabel('Answer')
    .fill(
      '**Bold claim** and a list:\n\n- first\n- second\n\n<img src=x onerror=alert(1)> <script>alert(2)</script> [click](javascript:alert(3)) [docs](https://example.org/a)',
    );
  await page.getByRole('button', { name: 'Add to queue' }).click();
  await label.startAs('hana');
  await expect(label.answer.locator('strong')).toHaveText('Bold claim');
  await expect(label.answer.getByRole('listitem')).toHaveText(['first', 'second']);
  await expect(label.answer).toContainText('<img src=x onerror=alert(1)> <script>alert(2)</script> [click](javascript:alert(3))');
  await expect(label.answer.locator('img, script')).toHaveCount(0);
  // Only the http(s) link is a link, and it opens apart from the app.
  const links = label.answer.getByRole('link');
  await expect(links).toHaveCount(1);
  await expect(links).toHaveAttribute('href', 'https://example.org/a');
  await expect(links).toHaveAttribute('rel', 'noopener noreferrer nofollow');
});

test('the progress bar and the counts move the moment a label is saved or undone and mean the same after a reload; number keys on a 0–1 scale; toasts go quickly', async ({
  label,
  page,
}) => {
  await label.importFile(ALPACA, 'Alpaca slice');
  await label.startAs('ivy');
  await expect(label.position).toHaveText('Item 1 of 12');
  await expect(label.progress).toHaveAttribute('aria-valuetext', '0 of 12 labelled by you');
  await expect(label.progress).toHaveAttribute('aria-valuenow', '0');
  await expect(label.footerCount).toHaveText('Local-only · 12 experiences');
  await label.scoreValue('0.8');
  await expect(label.position).toHaveText('Item 2 of 12');
  await label.scoreValue('0.2');
  // The counts follow each save and undo (their timing is not asserted here: a loaded CI machine is slow).
  await expect(label.footerCount).toHaveText('Local-only · 14 experiences');
  await expect(label.progress).toHaveAttribute('aria-valuetext', '2 of 12 labelled by you');
  await expect(label.progress).toHaveAttribute('aria-valuenow', '17'); // 2/12 = 16.7 %
  await expect(page.getByTestId('queue-progress')).toHaveText('2 of 12 labelled by you');
  await label.press('u');
  await expect(label.position).toHaveText('Item 2 of 12');
  await expect(page.getByLabel('Score value')).toHaveValue(''); // the label is gone, the box is empty again
  await expect(label.progress).toHaveAttribute('aria-valuetext', '1 of 12 labelled by you');
  await expect(label.footerCount).toHaveText('Local-only · 13 experiences');
  // The confirmation toast leaves on its own (its duration is unit tested: tests/unit/ui/toast-timing.test.ts).
  const toast = page.getByRole('status').filter({ hasText: 'Last label undone.' });
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden();
  // Issue #28: on a 0–1 scale the number keys give quarter points, as the buttons and the help say.
  await expect(page.getByRole('button', { name: 'Score 0.5' })).toHaveAttribute('aria-keyshortcuts', '3');
  await label.press('3');
  await expect(label.position).toHaveText('Item 3 of 12');
  await expect(label.progress).toHaveAttribute('aria-valuetext', '2 of 12 labelled by you');
  await label.press('7'); // no score for 7 here: it says so, and the item stays
  await expect(page.getByTestId('key-note')).toHaveText('Key 7 gives no score on this 0–1 scale: press 1 = 0 · 2 = 0.25 · 3 = 0.5 · 4 = 0.75 · 5 = 1.');
  await expect(label.position).toHaveText('Item 3 of 12');
  await label.press('?');
  await expect(page.getByRole('dialog')).toContainText('1 = 0 · 2 = 0.25 · 3 = 0.5 · 4 = 0.75 · 5 = 1');
  await page.keyboard.press('Escape');
  await page.screenshot({ path: test.info().outputPath('label-keys-1280.png') });
  // A reload rebuilds the queue without my 2 labelled items; the progress line counts the same.
  await page.reload();
  await expect(label.position).toHaveText('Item 1 of 10');
  await expect(label.progress).toHaveAttribute('aria-valuetext', '2 of 12 labelled by you');
  await expect(page.getByTestId('queue-progress')).toHaveText('2 of 12 labelled by you');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('label-keys-390.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await label.goTo('Data');
  await expect(label.datasetCard('Alpaca slice')).toContainText('14 experiences ·');
});

test('the Label page passes axe-core with the no-images notice and with a Markdown answer, wide and narrow, light and dark', async ({ label, page }) => {
  await label.importGenaiSlice();
  await label.importFile(ALPACA, 'Alpaca slice');
  await label.startAs('jo');
  const found: string[] = [];
  const audit = async (when: string) => found.push(...describe(blocking(await axeViolations(page))).map((l) => `${when}: ${l}`));
  await expect(label.noImages).toBeVisible();
  await audit('notice 1280 light');
  await label.noImages.getByRole('button', { name: 'Label Alpaca slice instead' }).click();
  // Each key only once the item it acts on is shown (a key pressed while the queue loads does nothing).
  await expect(label.answer.getByRole('listitem').first()).toContainText('Hugh Jackman');
  await label.press('j');
  await expect(label.answer.locator('strong').first()).toHaveText('Legends:');
  await label.press('j'); // gemma-2b-it: an ordered list with bold items
  await expect(label.answer.getByRole('listitem')).toHaveCount(10);
  await audit('answer 1280 light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 800 });
  await audit('answer 390 dark');
  await label.tab('Compare pairs').click();
  await label.noImages.getByRole('button', { name: 'Label Alpaca slice instead' }).click(); // pairs start on the first dataset
  await expect(page.getByTestId('pair-prompt')).toBeVisible();
  await audit('pairs 390 dark');
  expect(found, found.join('\n')).toEqual([]);
});
