/// <reference lib="webworker" />
// Thin host for memory builds: the build loop (core/memory), the embedding model and LLM calls run
// here, so the UI never waits on them. Progress is the build Run itself, as committed.
import { createClient, expose, workerScopeEndpoint, type WorkerClient } from '../src/rpc';
import { WorkerLlmEngine } from '../src/llm/worker-engine';
import type { LlmApi } from '../src/services/llm-api';
import { ToolMemDB, createRepositories } from '../src/db';
import { DexieEmbeddingStore, EMBEDDING_MODEL_KEY } from '../src/db/embedding-store';
import { DexieMemoryImportStore } from '../src/db/memory-import-store';
import { createBrowserEmbedHost } from '../src/services/embed-browser';
import { BUNDLED_EMBED_MODEL } from '../src/services/embed-api';
import type { Embedder } from '../src/core/embed';
import { createMemoryHandlers } from '../src/services/memory-service';
import type { MemoryApi } from '../src/services/memory-api';

const db = new ToolMemDB();
// In-browser models live in the llm worker; the page hands us a port to it (attachLlm).
let llm: WorkerClient<LlmApi> | null = null;
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
    importStore: new DexieMemoryImportStore(db),
    browserEngine: (spec) => (llm ? new WorkerLlmEngine(llm, spec) : null),
    onLlmPort(port) {
      llm?.dispose();
      llm = createClient<LlmApi>(port);
    },
  }),
  workerScopeEndpoint(),
);
