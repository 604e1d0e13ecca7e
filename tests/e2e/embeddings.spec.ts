import { test, expect } from './support/fixtures';

// Every request outside the app's origin is aborted and fails the test (see the fixtures): these
// tests prove that embeddings work with no network at all.
test('the bundled model embeds offline in a worker, and a second run is served from the cache', async ({ settings }) => {
  await settings.openSettings();
  await expect(settings.fact('model')).toHaveText('glove-100d');
  await expect(settings.fact('source')).toHaveText('Bundled');
  await expect(settings.fact('dim')).toHaveText('100');
  await settings.waitForModel();
  await expect(settings.fact('backend')).toContainText('WASM');
  await expect(settings.fact('size')).toHaveText(/^\d+(\.\d)? MB$/);

  await settings.runTest('A red apple on a wooden table.', 'An apple sits on a table made of wood.');
  await expect(settings.similarity).toHaveText(/^Similarity (0\.\d{3}|1\.000)$/);
  const first = Number((await settings.similarity.textContent())?.replace(/[^\d.]/g, ''));
  expect(first).toBeGreaterThan(0.5);
  await expect(settings.cacheReport).toContainText('0 from the cache, 2 embedded now (1 model call)');

  // Same texts again: both vectors come from IndexedDB, the model is not called.
  await settings.testButton.click();
  await expect(settings.cacheReport).toContainText('2 from the cache, 0 embedded now (0 model calls)');
  await expect(settings.similarity).toHaveText(`Similarity ${first.toFixed(3)}`);

  // An unrelated sentence scores lower than the paraphrase.
  await settings.runTest('A red apple on a wooden table.', 'The stock market fell sharply on Monday.');
  await expect(settings.cacheReport).toContainText('1 from the cache, 1 embedded now');
  const unrelated = Number((await settings.similarity.textContent())?.replace(/[^\d.-]/g, ''));
  expect(unrelated).toBeLessThan(first);
});

test('the model choice explains what is wrong: a bad id, or no network for a hub model', async ({ settings, context }) => {
  await settings.openSettings();
  await settings.waitForModel();

  await settings.chooseHubModel('../../etc/passwd');
  await expect(settings.modelError).toContainText('is not a model id');

  await context.setOffline(true);
  await settings.chooseHubModel('Xenova/all-MiniLM-L6-v2');
  await expect(settings.modelError).toContainText('no network connection');
  await context.setOffline(false);

  // The bundled model is still the active one and still works.
  await expect(settings.fact('model')).toHaveText('glove-100d');
  await settings.runTest('Dogs running in the snow', 'A dog plays in snow');
  await expect(settings.similarity).toBeVisible();
});

test('after a first use online, embeddings work offline: model and onnxruntime WASM come from the service worker', async ({ settings, page, context }) => {
  await settings.open();
  await settings.waitForServiceWorker(); // installed = the app shell precached; model and WASM are cached on first use
  await page.reload(); // the embedding worker now starts under the service worker, which keeps what it fetches
  await settings.goTo('Settings');
  await settings.waitForModel();
  await context.setOffline(true);
  await page.reload();
  await settings.goTo('Settings');
  await settings.waitForModel();
  await expect(settings.fact('backend')).toContainText('WASM');
  await settings.runTest('A quiet street at night', 'An empty road in the dark');
  await expect(settings.cacheReport).toContainText('2 embedded now');
  await context.setOffline(false);
});

// Evaluate and Predict embed in the embed worker, reached through a port: the vectors an
// evaluation needed are in the cache the Settings page reads, so embedding the dataset afterwards
// finds every prompt there.
test('an evaluation embeds its prompts through the one shared cache', async ({ memory, evaluate, page }) => {
  await memory.importGenaiSlice();
  await evaluate.goTo('Evaluate');
  // The ensemble uses prompt vectors when there are any, so the run embeds every prompt (a run of
  // methods that read none, e.g. tf-idf neighbours alone, embeds nothing).
  await evaluate.chooseMethods(['knn', 'ensemble'], ['tool-median', 'knn-difficulty', 'memory']);
  await evaluate.fillSplit(10, 10, 1);
  await evaluate.run();

  await evaluate.goTo('Settings');
  const precompute = page.getByTestId('precompute-embeddings');
  await precompute.getByRole('button', { name: 'Embed prompts' }).click();
  await expect(page.getByTestId('precompute-result')).toContainText('Embedded 0 new prompts of GenAI slice; 20 were already cached (20 distinct prompts');
});
