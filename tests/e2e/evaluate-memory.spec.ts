import { test, expect } from './support/fixtures';
import { useFakeLlmServer } from './support/fake-llm-server';

const { server: fakeServer } = useFakeLlmServer(test, 102, {
  scorePrediction: (user) => (/^Tool: .*DALLE_3/m.test(user) ? '{"score": 4.5}' : '{"score": 2.5}'),
});

/** The task of a prompt line (`Task: …` in build prompts, `New task: …` in predictions). */
const tasksIn = (prompts: string[], label: RegExp) => new Set(prompts.flatMap((u) => [...u.matchAll(label)].map((m) => m[1]!.trim())));

test('a memory built with the model, evaluated on the tasks it never saw; LLM prediction on the Predict page', async ({ app, page, memory, settings }) => {
  await memory.importGenaiSlice();
  await settings.connect(fakeServer().url, 'fake-model');

  // Build on 10 of the 20 tasks (seed 1) with the model: the other 10 stay unseen.
  await app.goTo('Memory');
  await page.getByLabel('Training tasks').fill('10');
  await page.getByRole('radio', { name: /The model chosen in Settings/ }).check();
  await memory.build();
  await memory.waitBuilt();
  const trained = tasksIn(
    fakeServer()
      .requests.filter((r) => r.schema === 'memory_update')
      .map((r) => r.user),
    /^Task: (.*)$/gm,
  );
  expect(trained.size).toBe(10);

  await app.goTo('Evaluate');
  const form = page.getByRole('form', { name: 'New evaluation' });
  const choice = form.getByLabel('Memory to evaluate');
  await expect(choice.locator('option').nth(1)).toHaveText(
    /^GenAI slice memory — fake-model at 127\.0\.0\.1:\d+ · 10 training tasks, seed 1 · built \w{3} \d+, \d{4}, .+$/,
  );
  await choice.selectOption({ index: 1 });
  await expect(form.getByTestId('stored-memory-hint')).toContainText('one split and one seed');
  await expect(form.getByLabel('Seeds')).toBeDisabled();
  await expect(form.getByLabel('Seeds')).toHaveValue('1');
  await expect(form.getByLabel('Training tasks')).toBeDisabled();
  for (const m of ['tool-median', 'knn', 'knn-difficulty', 'ensemble']) await form.getByLabel(m, { exact: true }).uncheck();
  await form.getByLabel('toolmem-llm', { exact: true }).check();
  await form.getByLabel('Task limit for LLM methods').fill('3');
  const before = fakeServer().requests.length;
  await form.getByRole('button', { name: 'Run evaluation' }).click();

  const summary = page.getByTestId('eval-summary');
  await expect(summary).toBeVisible({ timeout: 90_000 });
  // Each method's MAE leads its row (its interval, or ± sd, on the line below).
  for (const m of ['tool-mean', 'memory', 'toolmem-llm']) await expect(summary.getByRole('row', { name: new RegExp(`^${m} \\d\\.\\d{3}`) })).toBeVisible();
  await expect(summary).toContainText('10 train / 10 test tasks · 1 seed');
  await expect(summary.getByTestId('eval-memory')).toContainText(
    /GenAI slice memory — fake-model [\s\S]* tested\s+on\s+10\s+tasks\s+it\s+never\s+saw;\s+memory\s+cited\s+\d+;\s+toolmem-llm\s+cited\s+\d+\./,
  );
  await expect(form.getByLabel('Evaluation run').locator('option').first()).toHaveText(/^GenAI slice · memory GenAI slice memory · /);

  // toolmem-llm read the stored memory (the model's own entries), on tasks the build never showed it.
  const predictions = fakeServer()
    .requests.slice(before)
    .filter((r) => r.schema === 'score_prediction')
    .map((r) => r.user);
  expect(predictions).toHaveLength(18); // 3 test tasks × 6 tools
  expect(predictions.filter((u) => u.includes('Fake model:')).length).toBeGreaterThan(0);
  const tested = tasksIn(predictions, /^New task: (.*)$/gm);
  expect(tested.size).toBe(3);
  expect([...tested].filter((t) => trained.has(t))).toEqual([]);

  // Predict page: the model forecasts each tool, and the page picks the best.
  await app.goTo('Predict');
  await expect(page.getByLabel('Prediction method').locator('option[value="toolmem-llm"]')).toBeEnabled();
  await page.getByLabel('Prediction method').selectOption('toolmem-llm');
  await page.getByLabel('Task', { exact: true }).fill('A red bicycle leaning against a brick wall');
  await page.getByRole('button', { name: /^Predict/ }).click();
  const shown = page.getByTestId('predictions');
  await expect(shown.getByTestId('selected-tool')).toHaveText('DALLE_3', { timeout: 30_000 });
  await expect(shown.locator('article')).toHaveCount(6);
  await expect(shown.locator('article', { hasText: 'DALLE_3' }).locator('.score')).toHaveText('4.50');
  await expect(shown.locator('article', { hasText: 'SDXL_Turbo' }).locator('.score')).toHaveText('2.50');
  expect(fakeServer().requests.filter((r) => r.schema === 'score_prediction' && r.user.includes('New task: A red bicycle'))).toHaveLength(6);
});
