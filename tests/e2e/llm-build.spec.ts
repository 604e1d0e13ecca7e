import { test, expect } from './support/fixtures';
import { useFakeLlmServer } from './support/fake-llm-server';
import { TINY_BIAS, TINY_GGUF_URL } from './support/llm-page';

const { port: LLM_PORT, server: fakeServer } = useFakeLlmServer(test, 100);

test('a memory built with an OpenAI-compatible endpoint: feedback, updates and critiques from the model', async ({ app, page, memory, settings }) => {
  await memory.importGenaiSlice();
  await settings.connect(fakeServer().url, 'fake-model');
  await expect(settings.active).toHaveText(`fake-model at 127.0.0.1:${LLM_PORT}`);
  await settings.tryIt('Say hello');
  await expect(settings.reply).toContainText('Fake feedback');

  await app.goTo('Memory');
  await page.getByRole('radio', { name: /The model chosen in Settings/ }).check();
  await memory.build();
  await memory.waitBuilt();

  // Each kind of call reached the model: feedback (no schema), updates and critiques (JSON schema).
  const kinds = new Set(fakeServer().requests.map((r) => r.schema));
  expect([...kinds].sort()).toEqual(expect.arrayContaining(['critique', 'memory_update', null]));
  const updates = fakeServer().requests.filter((r) => r.schema === 'memory_update');
  // Each update shows one experience and only retrieved entries (k per level), never the whole memory.
  expect(updates.every((r) => (r.user.match(/^Task: /gm) ?? []).length === 1)).toBe(true);

  await page.getByRole('tab', { name: 'DALLE_3' }).click();
  await expect(memory.entries.filter({ hasText: 'Fake model:' }).first()).toBeVisible();
  await expect(memory.entries.filter({ hasText: 'Fake critique:' }).first()).toBeVisible();
  const stored = Object.values(await memory.storedMemories()).flat();
  expect(stored.some((line) => line.includes('|good|Fake model: handles'))).toBe(true);
  expect(stored.some((line) => line.includes('|weak|Fake critique:'))).toBe(true);
});

test('a build with the in-browser wllama model: nonsense replies are refused and the memory stays valid', async ({ app, page, memory, settings }) => {
  await memory.importGenaiSlice();
  await settings.serveTinyModel();
  await settings.openSettings();
  await settings.useWllamaUrl(TINY_GGUF_URL, TINY_BIAS);

  await app.goTo('Memory');
  await page.getByLabel('Training tasks').fill('1');
  await page.getByRole('radio', { name: /The model chosen in Settings/ }).check();
  await memory.build();
  // The random-weight model writes noise: every update and critique reply is invalid, so each
  // experience is skipped after one retry and nothing it wrote reaches the memory.
  // While it runs, each tool has its own progress bar (experiences done / total).
  await expect(page.getByTestId('build-tools').getByRole('progressbar')).toHaveCount(6, { timeout: 60_000 });
  const report = page.getByTestId('build-report');
  await expect(report).toBeVisible({ timeout: 110_000 });
  await expect(report.getByTestId('build-report-llm')).toContainText('model calls');
  await expect(report.getByTestId('build-report-skipped')).toContainText('skipped');
  const stored = Object.values(await memory.storedMemories()).flat();
  // Only the analysis' own entries, if any: evidence clusters ("mean …") and each tool's profile ("Overall: averages …").
  expect(stored.filter((line) => !line.includes('mean') && !line.includes('Overall: averages'))).toEqual([]);
});
