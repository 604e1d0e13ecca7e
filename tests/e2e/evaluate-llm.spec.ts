import { test, expect } from './support/fixtures';
import { useFakeLlmServer } from './support/fake-llm-server';
import { LlmSettingsPage } from './support/llm-page';
import { MemoryPage } from './support/memory-page';

const { server: fakeServer } = useFakeLlmServer(test, 101);

test('LLM methods: enabled once a model is chosen, limited to N test tasks, calls and parse counts shown', async ({ app, page }) => {
  const memory = new MemoryPage(page);
  await memory.importGenaiSlice();
  const settings = new LlmSettingsPage(page);
  await settings.openSettings();
  await settings.useEndpoint(fakeServer().url, 'fake-model');

  await app.goTo('Evaluate');
  const form = page.getByRole('form', { name: 'New evaluation' });
  for (const m of ['tool-median', 'knn', 'knn-difficulty', 'ensemble', 'memory']) await form.getByLabel(m, { exact: true }).uncheck();
  await form.getByLabel('generic-llm', { exact: true }).check();
  await form.getByLabel('toolmem-llm', { exact: true }).check();
  await expect(form.getByText(/scored on the first 50 test tasks/)).toBeVisible();
  await form.getByLabel('Task limit for LLM methods').fill('3');
  await form.getByLabel('Training tasks').fill('10');
  await form.getByLabel('Test tasks').fill('10');
  await form.getByLabel('Seeds').fill('1');
  await form.getByRole('button', { name: 'Run evaluation' }).click();

  const stats = page.getByTestId('llm-stats');
  await expect(stats).toBeVisible({ timeout: 90_000 });
  // 3 test tasks × 6 tools = 18 calls per method; the fake model answers in prose ("earned 3"), which is read.
  await expect(stats.getByRole('row', { name: /^generic-llm 3 18 0 0/ })).toBeVisible();
  await expect(stats.getByRole('row', { name: /^toolmem-llm 3 18 0 0/ })).toBeVisible();
  const prompts = fakeServer().requests.filter((r) => r.schema === 'score_prediction').map((r) => r.user);
  expect(prompts).toHaveLength(36);
  // toolmem-llm's prompts carry the memory block (its related entries, or that it has none for this task); generic-llm's do not.
  expect(prompts.filter((u) => u.includes('What is known about this tool'))).toHaveLength(18);
  await expect(page.getByTestId('eval-summary').getByRole('row', { name: /^toolmem-llm \d\.\d{3}/ })).toBeVisible();
});
