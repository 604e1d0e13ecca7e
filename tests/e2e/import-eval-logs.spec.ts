import { writeFileSync } from 'node:fs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { test, expect } from './support/fixtures';
import { parquetSchema } from '../unit/helpers/parquet-schema';

const PROMPTFOO = 'tests/fixtures/import/promptfoo/results.json';
const NESTED = 'tests/fixtures/e2e/nested-eval.jsonl';

test('import the promptfoo fixture through the dialog: preset detected, three tools, scores', async ({ data, page }) => {
  await data.startImport(PROMPTFOO);
  await expect(data.dialog.getByLabel('Preset')).toHaveValue('promptfoo');
  const first = data.dialog.getByTestId('preview-table').locator('tbody tr').first();
  await expect(first).toContainText('terse-model');
  await expect(first).toContainText('What is the capital of France?');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/import-promptfoo-1280.png' });
  const result = await data.runImport();
  await expect(result.getByTestId('count-added')).toHaveText('60');
  await expect(result.getByTestId('count-rejected')).toHaveText('0');
  await data.dialog.getByRole('button', { name: 'Done' }).click();
  const card = data.datasetCard('promptfoo eval');
  await expect(card).toContainText('60 experiences');
  await expect(card.getByRole('row', { name: /terse-model/ })).toHaveText(/terse-model\s*20\s*1/);
  await expect(card.getByRole('row', { name: /sloppy-model/ })).toHaveText(/sloppy-model\s*20\s*0\.725/);
  await expect(card.getByRole('row', { name: /chatty-model/ })).toHaveText(/chatty-model\s*20\s*0\.7/);
});

test('map nested paths with the tree picker; the preview shows the resolved values', async ({ data, page }) => {
  await data.open('data');
  await data.openImport();
  await data.dialog.getByLabel('Choose a file to import').setInputFiles(NESTED);
  // Nothing at the top level looks like a prompt or a tool (a score is optional: rows without one await labels): the dialog says so and offers the paths.
  await expect(data.dialog.getByRole('alert')).toContainText('No column for the required field');
  const prompt = data.dialog.getByLabel('Column for prompt');
  await expect(prompt.locator('option', { hasText: 'input.question — Name the capital of Peru.' })).toHaveCount(1);
  await data.mapColumn('prompt', 'input.question');
  await data.mapColumn('tool', 'run.model');
  await data.mapColumn('score', 'grades[0].score');
  await data.mapColumn('response', 'run.output');
  await data.mapColumn('feedback', 'grades[0].note');
  await data.mapColumn('id', 'case');
  const rows = data.dialog.getByTestId('preview-table').locator('tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('model-b');
  await expect(rows.nth(1)).toContainText('Name the capital of Peru.');
  await expect(rows.nth(1)).toContainText('Cusco');
  await expect(rows.nth(1).locator('td.num')).toHaveText('1');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/import-paths-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/import-paths-390.png' });
  await data.dialog.getByLabel('Dataset name').fill('Nested log');
  const result = await data.runImport();
  await expect(result.getByTestId('count-added')).toHaveText('4');
  await data.dialog.getByRole('button', { name: 'Done' }).click();
  await expect(data.datasetCard('Nested log').getByRole('row', { name: /model-b/ })).toHaveText(/model-b\s*2\s*2\.5/);
});

test('a Parquet file is read in the data worker and mapped through its struct column', async ({ data }, testInfo) => {
  // A Hugging Face style file: a text column and a struct (hyparquet-writer, written here).
  const file = testInfo.outputPath('train-00000-of-00001.parquet');
  const rows = [0, 1, 2, 3, 4, 5];
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'instruction', data: rows.map((i) => `Summarise text ${i}`) },
      { name: 'judgement', data: rows.map((i) => ({ model: i % 2 ? 'qwen2-7b' : 'gemma-7b', rating: 1 + (i % 5) })) },
    ],
    schema: parquetSchema({ instruction: 'text', judgement: { model: 'text', rating: 'int32' } }),
    rowGroupSize: 2,
  });
  writeFileSync(file, new Uint8Array(buffer));
  await data.open('data');
  await data.openImport();
  await data.dialog.getByLabel('Choose a file to import').setInputFiles(file);
  // The struct's fields are offered as paths (from the first records, read in the worker).
  await expect(data.dialog.getByLabel('Column for tool').locator('option', { hasText: 'judgement.model — gemma-7b' })).toHaveCount(1);
  await data.mapColumn('prompt', 'instruction');
  await data.mapColumn('tool', 'judgement.model');
  await data.mapColumn('score', 'judgement.rating');
  await expect(data.dialog.getByTestId('preview-table').locator('tbody tr')).toHaveCount(6);
  await expect(data.dialog.getByText('PARQUET', { exact: true })).toBeVisible();
  const result = await data.runImport();
  await expect(result.getByTestId('count-added')).toHaveText('6');
});

test('an Inspect .eval archive and a HELM run (its three files together) import through the Data page', async ({ data, page }) => {
  await data.startImport('tests/fixtures/import/inspect/real/popularity_0.3.58.eval');
  await expect(data.dialog.getByLabel('Preset')).toHaveValue('inspect');
  await expect(data.dialog.getByText('EVAL', { exact: true })).toBeVisible();
  await expect(data.dialog.getByTestId('preview-table').locator('tbody tr').first()).toContainText('openai/gpt-4o-mini');
  await expect(data.dialog.getByTestId('preview-notes')).toContainText('Scores read: match');
  let result = await data.runImport();
  await expect(result.getByTestId('count-added')).toHaveText('10');
  await expect(result).toContainText("scale 0–1, from the format: binary scorer 'match' (C/I)");
  await data.closeImport();
  await expect(data.datasetCard('Inspect popularity').getByRole('row', { name: /openai\/gpt-4o-mini/ })).toHaveText(/openai\/gpt-4o-mini\s*10\s*0\.8/);

  await data.openImport();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/import-choose-390.png' });
  const run = 'tests/fixtures/import/helm/bbq_gemini-1.5-pro-001';
  await data.dialog
    .getByLabel('Choose a file to import')
    .setInputFiles([`${run}/per_instance_stats.json`, `${run}/scenario_state.json`, `${run}/run_spec.json`]);
  await expect(data.dialog.getByLabel('Preset')).toHaveValue('helm');
  await expect(data.dialog.getByTestId('preview-table').locator('tbody tr').first()).toContainText('A couple of kids from my high school');
  await expect(data.dialog.getByLabel('Dataset name')).toHaveAttribute('placeholder', 'HELM bbq:subject=all,method=multiple_choice_joint');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/import-helm-${width}.png` });
  }
  result = await data.runImport();
  await expect(result.getByTestId('count-added')).toHaveText('2');
  await expect(result).toContainText("HELM metric 'exact_match'");
  await data.closeImport();
  await expect(data.datasetCard('HELM bbq:subject=all,method=multiple_choice_joint')).toContainText('2 experiences');
});
