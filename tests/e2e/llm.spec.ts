import { test, expect } from './support/fixtures';
import { TINY_BIAS, TINY_GGUF_PATH, TINY_GGUF_URL } from './support/llm-page';

// The real wllama path (llama.cpp compiled to WebAssembly) in Chromium, with a 1.7 MB random-weight
// llama: the model is fetched from the app's origin, loaded in the llm worker, and generates tokens.
test('wllama loads a GGUF from a URL and generates tokens in the llm worker', async ({ app, settings }) => {
  const served = await settings.serveTinyModel();
  await settings.openSettings();
  await settings.useWllamaUrl(TINY_GGUF_URL, TINY_BIAS);
  await expect(settings.active).toHaveText('llama-2-tiny-random.gguf (wllama, CPU)');

  await settings.tryIt('Hello');
  await expect(settings.stats).toBeVisible({ timeout: 90_000 });
  const stats = await settings.stats.textContent();
  const generated = Number(/\+ (\d+) generated tokens/.exec(stats ?? '')?.[1]);
  expect(generated).toBeGreaterThan(0);
  await expect(settings.reply).not.toHaveText('');
  const downloads = served.fetches();
  expect(downloads).toBeGreaterThan(0);

  // The choice survives a reload, and the model then loads from the browser's cache: no new download.
  await app.page.reload();
  await expect(settings.active).toHaveText('llama-2-tiny-random.gguf (wllama, CPU)');
  await settings.tryIt('Hello again');
  await expect(settings.stats).toBeVisible({ timeout: 90_000 });
  expect(served.fetches()).toBe(downloads);
});

test('wllama loads a GGUF file the user picks, kept in the browser for later', async ({ settings }) => {
  await settings.openSettings();
  await settings.chooseEngine(/on the CPU/);
  await settings.section.getByRole('radio', { name: 'A file on this computer' }).check();
  await settings.section.getByLabel('GGUF model file').setInputFiles(TINY_GGUF_PATH);
  await expect(settings.section.getByLabel('Stored GGUF model')).toHaveValue('llama-2-tiny-random.gguf');
  await settings.section.getByText('Advanced').click();
  await settings.section.getByLabel('Token bias').fill(TINY_BIAS);
  // Usable only once it has loaded and answered.
  await expect(settings.section.getByTestId('llm-why')).toHaveText('Press "Load and try" first: the model can be used once it loads and answers.');
  await settings.tryIt('Hi');
  await expect(settings.stats).toBeVisible({ timeout: 90_000 });
  await settings.save();

  // A file that is not a GGUF model is refused with the reason.
  await settings.section
    .getByLabel('GGUF model file')
    .setInputFiles({ name: 'notes.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from('not a model') });
  await expect(settings.section.getByRole('alert')).toContainText('notes.gguf is not a GGUF model file');
});

// WebLLM needs WebGPU and weights from the model hub, neither of which exists here: what can be
// proved is that the app notices the missing adapter, says what to do instead, and offers nothing
// that would fail later.
test('choosing WebLLM without a WebGPU adapter explains why it cannot run', async ({ settings }) => {
  await settings.openSettings();
  await settings.chooseEngine(/on the GPU/);
  await expect(settings.section.getByTestId('webgpu-missing')).toContainText('Use wllama (CPU) or an endpoint instead');
  await expect(settings.section.getByRole('button', { name: 'Use this model' })).toBeDisabled();
  await expect(settings.section.getByRole('button', { name: 'Load and try' })).toHaveCount(0);
  await expect(settings.active).toHaveText('none (capability analysis only)');
});
