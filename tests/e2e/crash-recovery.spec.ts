import { test, expect } from './support/fixtures';
import type { DataPage } from './support/data-page';
import { countStoreScript, generatedCsv, writeTemp } from './support/generated-files';

/** Rows read so far, from the import dialog's progress line ("12,345 rows · …"). */
async function rowsRead(data: DataPage): Promise<number> {
  const text =
    (await data.dialog
      .getByTestId('import-progress')
      .textContent()
      .catch(() => '')) ?? '';
  const m = /([\d,]+) rows ·/.exec(text);
  return m ? Number(m[1]!.replace(/,/g, '')) : 0;
}

async function importInto(data: DataPage, path: string, dataset: string): Promise<void> {
  await data.openImport();
  await data.chooseFile(path);
  await data.dialog.getByLabel('Dataset name').fill(dataset);
  await expect(data.dialog.getByTestId('preview-table')).toBeVisible();
  await data.dialog.getByRole('button', { name: 'Import', exact: true }).click();
}

test('reload in the middle of an import: rolled back, never duplicated; the re-import gives exactly the full rows', async ({ data, page }) => {
  test.setTimeout(240_000); // two imports of a large file on a slow, shared machine
  const ROWS = 60_000;
  const seed = writeTemp('crash.csv', generatedCsv(0, 40)); // the big file's first 40 rows
  const big = writeTemp('crash.csv', generatedCsv(0, ROWS));

  await data.open('data');
  await importInto(data, seed, 'Crash test');
  await expect(data.dialog.getByTestId('import-result').getByTestId('count-added')).toHaveText('40');
  await data.dialog.getByRole('button', { name: 'Done' }).click();

  await importInto(data, big, 'Crash test');
  // At least three batches (2,000 rows each) are committed when the page goes away.
  await expect.poll(() => rowsRead(data), { timeout: 60_000 }).toBeGreaterThanOrEqual(6000);
  await page.reload();

  // Startup recovery rolled the interrupted import back: only the 40 rows from before remain.
  await expect(page.getByRole('status').filter({ hasText: 'The import of crash.csv was interrupted' })).toBeVisible();
  const card = data.datasetCard('Crash test');
  await expect(card).toContainText('40 experiences');
  expect(await page.evaluate(countStoreScript, 'experiences')).toBe(40);
  await card.getByText('Import history').click();
  await expect(card.locator('.history tbody tr')).toHaveCount(2);
  await expect(card.locator('.history tbody tr').first()).toContainText('failed');

  // Importing the same file again gives exactly what an uninterrupted import gives.
  await importInto(data, big, 'Crash test');
  const result = data.dialog.getByTestId('import-result');
  await expect(result).toBeVisible({ timeout: 90_000 });
  await expect(result.getByTestId('count-added')).toHaveText((ROWS - 40).toLocaleString('en-US'));
  await data.dialog.getByRole('button', { name: 'Done' }).click();
  await expect(data.datasetCard('Crash test')).toContainText(`${ROWS.toLocaleString('en-US')} experiences`);
  expect(await page.evaluate(countStoreScript, 'experiences')).toBe(ROWS);
});

test('reload in the middle of an evaluation: shown as interrupted, and running it again gives the uninterrupted numbers', async ({ data, page }) => {
  await data.open('data');
  test.setTimeout(240_000); // three evaluations
  await importInto(data, writeTemp('eval-crash.csv', generatedCsv(0, 1200)), 'Eval crash');
  await expect(data.dialog.getByTestId('import-result')).toBeVisible({ timeout: 60_000 });
  await data.dialog.getByRole('button', { name: 'Done' }).click();

  await data.goTo('Evaluate');
  const form = page.getByRole('form', { name: 'New evaluation' });
  for (const m of ['tool-median', 'knn-difficulty', 'ensemble']) await form.getByLabel(m, { exact: true }).uncheck();
  await form.getByLabel('Seeds').fill('3');
  await form.getByText('Top-k ablation').click();
  const summary = page.getByTestId('eval-summary');

  // 1. Uninterrupted.
  await form.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(summary).toBeVisible({ timeout: 110_000 });
  const uninterrupted = await summary.locator('tbody').innerText();

  // 2. The same again, reloaded once the run is stored as running.
  await form.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(page.getByRole('progressbar', { name: 'Evaluation progress' })).toBeVisible();
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const open = indexedDB.open('toolmem');
              open.onsuccess = () => {
                const req = open.result.transaction(['runs'], 'readonly').objectStore('runs').index('state').count('running');
                req.onsuccess = () => {
                  open.result.close();
                  resolve(req.result);
                };
              };
            }),
        ),
      { timeout: 60_000, intervals: [50] },
    )
    .toBe(1);
  await page.reload();

  const unfinished = page.getByTestId('unfinished-run');
  await expect(unfinished).toHaveCount(1);
  await expect(unfinished).toContainText('interrupted');
  await expect(unfinished).toContainText('the tab was closed or reloaded');
  expect(
    await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open('toolmem');
          open.onsuccess = () => {
            const req = open.result.transaction(['runs'], 'readonly').objectStore('runs').index('state').count('running');
            req.onsuccess = () => {
              open.result.close();
              resolve(req.result);
            };
          };
        }),
    ),
  ).toBe(0);

  // 3. Run again: the same numbers as the uninterrupted run.
  await unfinished.getByRole('button', { name: 'Run again' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Evaluation finished.' })).toBeVisible({ timeout: 110_000 });
  await expect(page.getByLabel('Evaluation run').locator('option')).toHaveCount(2);
  expect(await summary.locator('tbody').innerText()).toBe(uninterrupted);
});

test('reload in the middle of embedding a dataset: only whole vectors are cached, and a rerun embeds only the missing prompts', async ({ data, page }) => {
  test.setTimeout(180_000);
  const TASKS = 30_000;
  await data.open('data');
  await importInto(data, writeTemp('embed-crash.csv', generatedCsv(0, TASKS, { tools: 1 })), 'Embed crash');
  await expect(data.dialog.getByTestId('import-result')).toBeVisible({ timeout: 60_000 });
  await data.dialog.getByRole('button', { name: 'Done' }).click();

  await data.goTo('Settings');
  const panel = page.getByTestId('precompute-embeddings');
  await panel.getByLabel('Dataset to embed').selectOption({ label: 'Embed crash' });
  await panel.getByRole('button', { name: 'Embed prompts' }).click();
  const progress = panel.getByTestId('precompute-progress');
  await expect
    .poll(async () => Number(((await progress.textContent().catch(() => '')) ?? '').split(' of ')[0]!.replace(/,/g, '') || 0), {
      timeout: 90_000,
      intervals: [50],
    })
    .toBeGreaterThanOrEqual(1000);
  await page.reload();

  // The cache keeps blocks of vectors (schema v5, src/db/embedding-blocks.ts): count their rows.
  const cachedVectors = () =>
    page.evaluate(
      () =>
        new Promise<{ count: number; dims: number[]; finite: boolean }>((resolve) => {
          const open = indexedDB.open('toolmem');
          open.onsuccess = () => {
            const req = open.result.transaction(['embeddingBlocks'], 'readonly').objectStore('embeddingBlocks').getAll();
            req.onsuccess = () => {
              open.result.close();
              const blocks = req.result as { dim: number; hashes: string[]; vectors: Float32Array }[];
              resolve({
                count: blocks.reduce((sum, b) => sum + b.hashes.length, 0),
                dims: [...new Set(blocks.map((b) => (b.vectors instanceof Float32Array && b.vectors.length === b.hashes.length * b.dim ? b.dim : -1)))],
                finite: blocks.every((b) => b.vectors instanceof Float32Array && b.vectors.every(Number.isFinite)),
              });
            };
          };
        }),
    );
  const cached = await cachedVectors();
  expect(cached.count).toBeGreaterThanOrEqual(1000);
  expect(cached.count).toBeLessThan(TASKS);
  // Whole model batches only: batches of 32 within calls of 2,000 prompts (EMBED_CHUNK,
  // src/model-host/embed-dataset.ts), so a finished call ends with a batch of 2,000 mod 32 = 16.
  expect((cached.count % 2000) % 32).toBe(0);
  expect(cached.dims).toEqual([100]);
  expect(cached.finite).toBe(true);

  await page.getByTestId('precompute-embeddings').getByLabel('Dataset to embed').selectOption({ label: 'Embed crash' });
  await page.getByTestId('precompute-embeddings').getByRole('button', { name: 'Embed prompts' }).click();
  const result = page.getByTestId('precompute-result');
  await expect(result).toBeVisible({ timeout: 90_000 });
  await expect(result).toContainText(
    `Embedded ${(TASKS - cached.count).toLocaleString('en-US')} new prompts of Embed crash; ${cached.count.toLocaleString('en-US')} were already cached (${TASKS.toLocaleString('en-US')} distinct prompts`,
  );
  expect((await cachedVectors()).count).toBe(TASKS);
});
