import { test, expect } from './support/fixtures';
import { useFakeLlmServer } from './support/fake-llm-server';

// Settings → Language model: the form says what is missing before anything is tried, "Test
// connection" lists the server's models to pick from, errors are in plain language and belong to
// the engine they came from. A local chat-completions server stands in for Ollama; a port next to it
// where nothing listens stands in for a server that is not running.
const { port, server: fakeServer } = useFakeLlmServer(test, 103, { models: ['fake-model', 'qwen2.5:0.5b'] });
const DEAD_PORT = port + 1;
test.use({ allowedOrigins: [`http://127.0.0.1:${port}`, `http://127.0.0.1:${DEAD_PORT}`] });

test('an endpoint without a model name: the buttons are disabled and say why', async ({ settings }) => {
  await settings.openSettings();
  await settings.chooseEngine(/OpenAI-compatible endpoint/);
  await settings.section.getByLabel('Endpoint base URL').fill(fakeServer().url);
  await settings.section.getByLabel('Model name').fill('');
  const use = settings.section.getByRole('button', { name: 'Use this model' });
  await expect(use).toBeDisabled();
  await expect(settings.section.getByTestId('llm-why')).toHaveText(/Enter a model name/);
  await expect(use).toHaveAccessibleDescription(/Enter a model name/);
  await expect(settings.section.getByRole('button', { name: 'Load and try' })).toBeDisabled();
  await expect(settings.section.getByRole('alert')).toHaveCount(0);

  // wllama with no model: one sentence saying what to give, no parser message, nothing twice.
  await settings.chooseEngine(/on the CPU/);
  await expect(settings.section.getByTestId('llm-why')).toHaveText(/Enter the URL of a \.gguf model file/);
  await expect(settings.section.getByRole('button', { name: 'Use this model' })).toBeDisabled();
  await expect(settings.section.getByRole('button', { name: 'Load and try' })).toBeDisabled();
  await expect(settings.section.getByText(/Bad wllama model source/)).toHaveCount(0);
  await expect(settings.active).toHaveText('none (capability analysis only)');
});

test('Test connection lists the server models to pick from, and names a missing one', async ({ settings }) => {
  await settings.openSettings();
  await settings.chooseEngine(/OpenAI-compatible endpoint/);
  await settings.section.getByLabel('Endpoint base URL').fill(fakeServer().url);
  await settings.section.getByLabel('Model name').fill('llama3');
  await settings.section.getByRole('button', { name: 'Test connection' }).click();
  const list = settings.section.getByLabel('Models on the server');
  await expect(list.locator('option:not([disabled])')).toHaveText(['fake-model', 'qwen2.5:0.5b']);
  expect(fakeServer().modelRequests).toEqual(['/v1/models']);
  await expect(settings.section.getByRole('alert')).toHaveText("The server has no model called 'llama3'. It offers 2 models: pick one from the list.");

  await list.selectOption('qwen2.5:0.5b');
  await expect(settings.section.getByLabel('Model name')).toHaveValue('qwen2.5:0.5b');
  await expect(settings.section.getByRole('alert')).toHaveCount(0);
  // Tested with this server and key: usable; another key was not tested.
  const use = settings.section.getByRole('button', { name: 'Use this model' });
  await expect(use).toBeEnabled();
  await settings.section.getByLabel('API key').fill('other');
  await expect(use).toBeDisabled();
  await settings.section.getByLabel('API key').fill('');
  await settings.save();
  await expect(settings.active).toHaveText(`qwen2.5:0.5b at 127.0.0.1:${port}`);
  await settings.tryIt('Say hello');
  await expect(settings.reply).toContainText('Fake feedback');
});

test('errors in plain language, cleared on switching engine', async ({ settings }) => {
  await settings.openSettings();
  await settings.chooseEngine(/OpenAI-compatible endpoint/);
  const url = settings.section.getByLabel('Endpoint base URL');
  const test = settings.section.getByRole('button', { name: 'Test connection' });
  const alert = settings.section.getByRole('alert');

  await url.fill(`http://127.0.0.1:${DEAD_PORT}/v1`);
  await settings.section.getByLabel('Model name').fill('fake-model');
  await test.click();
  await expect(alert).toContainText(`Nothing answers at 'http://127.0.0.1:${DEAD_PORT}/v1'. Is the server running?`);
  // A failed test leaves "Use this model" off, and says why.
  await expect(settings.section.getByRole('button', { name: 'Use this model' })).toBeDisabled();
  await expect(settings.section.getByTestId('llm-why')).toHaveText(/^Press "Test connection" \(or "Load and try"\) first/);

  // A port the browser refuses (port 9, "discard") is named as such, not as a server that is not running.
  await url.fill('http://127.0.0.1:9/v1');
  await test.click();
  await expect(alert).toHaveText(
    "The browser refuses to connect to port 9 (it blocks this port for safety), so 'http://127.0.0.1:9/v1' cannot be reached from this page. Use another port, e.g. 11434 (Ollama's default).",
  );

  await url.fill(`http://127.0.0.1:${port}/api`);
  await test.click();
  await expect(alert).toContainText('has no OpenAI-compatible API there (HTTP 404): the address is probably wrong. It usually ends in /v1');

  // The error belongs to the endpoint: gone when another engine is chosen, and not back on return.
  await settings.chooseEngine(/on the CPU/);
  await expect(alert).toHaveCount(0);
  await settings.chooseEngine(/OpenAI-compatible endpoint/);
  await expect(alert).toHaveCount(0);
});
