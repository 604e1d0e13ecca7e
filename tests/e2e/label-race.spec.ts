import { test, expect } from './support/fixtures';
import { HeldQueueReplies } from './support/held-replies';
import type { LabelPage } from './support/label-page';

/**
 * Issue #35: labels go only to the item on screen. The Label page restores the dataset shown last
 * time; a person who picks another dataset at once must not label the old one's items while its
 * queue is still loading, nor after its late answer arrives, and the Dataset select keeps the keys
 * its own. The old queue is made slow by holding the data worker's answer (support/held-replies.ts)
 * until the test releases it: no timers.
 */
const ALPACA = 'tests/fixtures/import/alpaca_experiences_slice.csv';

/** Two text datasets of the same 12 outputs ("Old queue" first, then "New queue"), and the rater ray on "Old queue". */
async function twoDatasets(label: LabelPage): Promise<void> {
  await label.importFile(ALPACA, 'Old queue');
  await label.importFile(ALPACA, 'New queue');
  await label.startAs('ray');
  await label.page.getByLabel('Dataset to label').selectOption({ label: 'Old queue' });
  await expect(label.position).toHaveText('Item 1 of 12');
}

/** ray's labels per dataset, as the Data page's cards show them ("ray (n)"); 0 when the card names no ray. */
async function raysLabels(label: LabelPage, dataset: string): Promise<number> {
  const text = (await label.datasetCard(dataset).textContent()) ?? '';
  return Number(/\bray \((\d+)\)/.exec(text)?.[1] ?? 0);
}

for (const order of ['the old answer after the new queue is on screen', 'the old answer while the new queue loads'] as const) {
  test(`changing the dataset at once while the old queue loads: no label lands in the old dataset (${order})`, async ({ label, page }) => {
    const held = await HeldQueueReplies.install(page);
    await twoDatasets(label);
    await label.goTo('Data');
    // Both queues answer only when released: first the old one is slow, then the new one too.
    await held.hold('old-queue', 'new-queue');
    await label.goTo('Label'); // restores "Old queue": its queue is asked for, and held
    await expect.poll(() => held.count()).toBe(1);
    const select = page.getByLabel('Dataset to label');
    await expect(select).toHaveValue(/old-queue/);
    await select.selectOption({ label: 'New queue' });
    await expect.poll(() => held.count()).toBe(2);
    // Nothing is on screen: number and move keys do nothing.
    await page.getByRole('heading', { name: 'Label', level: 1 }).click(); // focus leaves the select, as a person's click would
    for (const key of ['5', 'ArrowRight', '4', 'j', 'u']) await label.press(key);
    await expect(page.getByText('Building the queue…')).toBeVisible();
    await expect(label.position).toHaveCount(0);

    if (order === 'the old answer while the new queue loads') {
      await held.release('old-queue');
      await label.press('5');
      await expect(page.getByText('Building the queue…')).toBeVisible();
      await held.release('new-queue');
    } else {
      await held.release('new-queue');
    }
    await expect(label.position).toHaveText('Item 1 of 12');
    const first = await label.prompt.textContent();
    if (order === 'the old answer after the new queue is on screen') await held.release('old-queue');
    await expect.poll(() => held.count()).toBe(0);

    // The new dataset gets exactly the labels pressed now, each once its item is on screen.
    for (const [i, key] of ['5', '2', '4'].entries()) {
      await expect(label.position).toHaveText(`Item ${i + 1} of 12`);
      await label.press(key);
    }
    await expect(label.position).toHaveText('Item 4 of 12');
    await expect(select).toHaveValue(/new-queue/);
    await expect(label.progress).toHaveAttribute('aria-valuetext', '3 of 12 labelled by you');
    await expect(page.getByRole('alert')).toHaveCount(0);
    // Still the new queue's order: back three items is the first one shown.
    for (const n of [3, 2, 1]) {
      await label.press('k');
      await expect(label.position).toHaveText(`Item ${n} of 12`);
    }
    await expect(label.prompt).toHaveText(first!);

    await label.goTo('Data');
    await expect(label.datasetCard('New queue')).toContainText('ray (3)');
    expect(await raysLabels(label, 'Old queue')).toBe(0);
  });
}

test('the Dataset select keeps the focus and its keys: ArrowDown changes the dataset, the next ArrowDown and "3" label nothing, Esc gives the keys back', async ({
  label,
  page,
}) => {
  await twoDatasets(label);
  await expect(label.footerCount).toHaveText('Local-only · 24 experiences');
  // Tab to the select from the last mode tab before it.
  await label.tab('Add items').focus();
  await page.keyboard.press('Tab');
  const select = page.getByLabel('Dataset to label');
  await expect(select).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(select).toHaveValue(/new-queue/);
  await expect(select).toBeFocused();
  await expect(label.position).toHaveText('Item 1 of 12');
  const first = await label.prompt.textContent();
  // The select is on its last dataset: ArrowDown changes nothing, and neither key touches the item.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('3');
  await expect(select).toBeFocused();
  await expect(select).toHaveValue(/new-queue/);
  await expect(label.position).toHaveText('Item 1 of 12');
  await expect(label.prompt).toHaveText(first!);
  await expect(label.progress).toHaveAttribute('aria-valuetext', '0 of 12 labelled by you');
  await expect(label.footerCount).toHaveText('Local-only · 24 experiences');
  // ArrowUp goes back to the first dataset, still in the select.
  await page.keyboard.press('ArrowUp');
  await expect(select).toHaveValue(/old-queue/);
  await expect(select).toBeFocused();
  await expect(label.position).toHaveText('Item 1 of 12');
  // Esc leaves the select: now "3" labels the item on screen (3 = 0.5 on this 0–1 scale).
  await page.keyboard.press('Escape');
  await expect(select).not.toBeFocused();
  await label.press('3');
  await expect(label.position).toHaveText('Item 2 of 12');
  await expect(label.footerCount).toHaveText('Local-only · 25 experiences');
  await page.screenshot({ path: test.info().outputPath('label-focus-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('label-focus-390.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await label.goTo('Data');
  await expect(label.datasetCard('Old queue')).toContainText('ray (1)');
  expect(await raysLabels(label, 'New queue')).toBe(0);
});

test('Compare pairs: the Dataset select keeps the focus; its arrows record no choice until Esc gives the keys back', async ({ label, page }) => {
  await twoDatasets(label);
  await label.tab('Compare pairs').click();
  const count = page.getByTestId('pair-count');
  await expect(count).toHaveText(/^0 of \d+ compared$/);
  await label.tab('Add items').focus();
  await page.keyboard.press('Tab');
  const select = page.getByLabel('Dataset to compare');
  await expect(select).toBeFocused();
  const before = await select.inputValue();
  await page.keyboard.press(before.includes('old-queue') ? 'ArrowDown' : 'ArrowUp');
  await expect(select).not.toHaveValue(before);
  await expect(select).toBeFocused();
  await expect(page.getByTestId('pair-prompt')).toBeVisible();
  // ArrowDown is "tie" on the page and t is too: in the select they are the select's, and nothing is recorded.
  for (const key of ['ArrowDown', 't', 'ArrowLeft']) await page.keyboard.press(key);
  await expect(select).toBeFocused();
  await expect(count).toHaveText(/^0 of \d+ compared$/);
  await page.keyboard.press('Escape');
  await expect(select).not.toBeFocused();
  // The arrows above may have switched the dataset again: wait for its pair before answering it.
  await expect(page.getByTestId('pair-prompt')).toBeVisible();
  await label.press('t');
  await expect(count).toHaveText(/^1 of \d+ compared$/);
});
