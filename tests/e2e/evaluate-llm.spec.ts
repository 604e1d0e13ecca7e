import { test, expect } from './support/fixtures';
import { useFakeLlmServer } from './support/fake-llm-server';

const { server: fakeServer } = useFakeLlmServer(test, 101);

test('LLM methods: enabled once a model is chosen, limited to N test tasks, calls and parse counts shown', async ({
  app,
  page,
  memory,
  settings,
  evaluate,
}) => {
  await memory.importGenaiSlice();
  await settings.connect(fakeServer().url, 'fake-model');

  await app.goTo('Evaluate');
  const form = evaluate.form;
  await evaluate.chooseMethods(['generic-llm', 'toolmem-llm'], ['tool-median', 'knn', 'knn-difficulty', 'ensemble', 'memory']);
  await expect(form.getByText(/scored\s+on\s+the\s+first\s+50\s+test\s+tasks/)).toBeVisible();
  await form.getByLabel('Task limit for LLM methods').fill('3');
  await evaluate.fillSplit(10, 10, 1);
  await form.getByRole('button', { name: 'Run evaluation' }).click();

  const stats = page.getByTestId('llm-stats');
  await expect(stats).toBeVisible({ timeout: 90_000 });
  // 3 test tasks × 6 tools = 18 calls per method; the fake model answers in prose ("earned 3"), which is read.
  await expect(stats.getByRole('row', { name: /^generic-llm 3 18 0 0/ })).toBeVisible();
  await expect(stats.getByRole('row', { name: /^toolmem-llm 3 18 0 0/ })).toBeVisible();
  const prompts = fakeServer()
    .requests.filter((r) => r.schema === 'score_prediction')
    .map((r) => r.user);
  expect(prompts).toHaveLength(36);
  // toolmem-llm's prompts carry the memory block (its related entries, or that it has none for this task); generic-llm's do not.
  expect(prompts.filter((u) => u.includes('What is known about this tool'))).toHaveLength(18);
  await expect(page.getByTestId('eval-summary').getByRole('row', { name: /^toolmem-llm \d\.\d{3}/ })).toBeVisible();
});
