/// <reference lib="webworker" />
// Thin host for memory builds: the build loop (core/memory), the embedding model and LLM calls run
// here, so the UI never waits on them. Progress is the build Run itself, as committed.
import { expose, workerScopeEndpoint } from '../src/rpc';
import { ToolMemDB, createRepositories } from '../src/db';
import { DexieEmbeddingStore, EMBEDDING_MODEL_KEY } from '../src/db/embedding-store';
import { createBrowserEmbedHost } from '../src/services/embed-browser';
import { BUNDLED_EMBED_MODEL } from '../src/services/embed-api';
import type { Embedder } from '../src/core/embed';
import { createMemoryHandlers } from '../src/services/memory-service';
import type { MemoryApi } from '../src/services/memory-api';

const db = new ToolMemDB();
const host = createBrowserEmbedHost();
const loaded = new Map<string, Promise<Embedder>>();

async function setting(key: string): Promise<string | undefined> {
  const row = await db.settings.get(key);
  return typeof row?.value === 'string' && row.value ? row.value : undefined;
}

expose<MemoryApi>(
  createMemoryHandlers({
    repos: createRepositories(db),
    store: new DexieEmbeddingStore(db),
    currentModel: async () => (await setting(EMBEDDING_MODEL_KEY)) ?? BUNDLED_EMBED_MODEL,
    embedder(model) {
      let found = loaded.get(model);
      if (!found) {
        found = host.load(model, () => undefined).then((m) => m.embedder);
        found.catch(() => loaded.delete(model));
        loaded.set(model, found);
      }
      return found;
    },
    apiKey: () => setting('llmApiKey'),
  }),
  workerScopeEndpoint(),
);
