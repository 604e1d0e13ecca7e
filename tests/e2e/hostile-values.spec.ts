/**
 * Issue #14 classes 2 and 5 in the app: mixed line endings import their good rows, a value nested
 * 100,000 levels deep is a row error (the worker's reply used to fail in postMessage with "Maximum
 * call stack size exceeded"), and a file whose every row is rejected leaves no empty dataset behind.
 */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from './support/fixtures';

function temp(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolmem-e2e-')), name);
  writeFileSync(path, text);
  return path;
}

test('a CSV mixing CR, LF and CRLF line endings imports every good row', async ({ data }) => {
  const result = await data.importAs('tests/fixtures/bad-inputs/mixed-line-endings.csv', 'Mixed endings');
  await expect(result.getByTestId('count-added')).toHaveText('4');
  await expect(result.getByTestId('count-rejected')).toHaveText('0');
  await data.closeImport();
  await expect(data.datasetCard('Mixed endings')).toContainText('4 experiences');
});

test('a JSONL value nested 100,000 levels deep is a row error, not an internal postMessage failure', async ({ data }) => {
  const levels = 100_000;
  const path = temp(
    'deep.jsonl',
    [
      '{"prompt":"A cat","model":"gpt-4","score":4}',
      `{"prompt":${'['.repeat(levels)}"x"${']'.repeat(levels)},"model":"gpt-4","score":3}`,
      '{"prompt":"A dog","model":"gpt-4","score":5}',
    ].join('\n'),
  );
  const result = await data.importAs(path, 'Deep');
  await expect(result.getByTestId('count-added')).toHaveText('2');
  await expect(result.getByTestId('count-rejected')).toHaveText('1');
  await expect(result.getByTestId('row-errors')).toContainText('line 2: the record nests arrays and objects 100,001 levels deep; the limit is 64 levels');
  await expect(data.dialog.getByText(/postMessage|Maximum call stack/)).toHaveCount(0);
});

test('a file whose every row is rejected leaves no empty dataset', async ({ data }) => {
  const result = await data.importAs(temp('all-bad.csv', 'prompt,model,score\nWrite a haiku,gpt-4,0x3\nWrite an ode,gpt-4,0b11\n'), 'All rejected');
  await expect(result.getByTestId('count-added')).toHaveText('0');
  await expect(result.getByTestId('count-rejected')).toHaveText('2');
  await expect(result.getByTestId('dataset-not-created')).toContainText('was not created');
  await data.dialog.getByRole('button', { name: 'Done' }).click();
  await expect(data.datasetCard('All rejected')).toHaveCount(0);
  await expect(data.emptyState).toBeVisible();
});
