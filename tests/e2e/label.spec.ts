import { test as base, expect } from './support/fixtures';
import { LabelPage } from './support/label-page';

const test = base.extend<{ label: LabelPage }>({
  label: async ({ app }, use) => {
    await use(new LabelPage(app.page));
  },
});

test('label 10 items with the keyboard only, undo one, reload: every label is intact', async ({ label, page }) => {
  await label.importGenaiSlice();
  await label.startAs('alice');
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
  await label.tab('Compare pairs').click();
  await page.getByLabel('First tool').selectOption('DALLE_3');
  await page.getByLabel('Second tool').selectOption('SDXL_2_1');
  await expect(page.getByTestId('pair-count')).toHaveText('0 of 20 compared');
  await label.press('ArrowLeft');
  await label.press('ArrowRight');
  await label.press('t');
  await expect(page.getByTestId('pair-count')).toHaveText('3 of 20 compared');
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
