/// <reference lib="webworker" />
// Thin host for memory builds: the build loop (core/memory) and LLM endpoint calls run here, so the
// UI never waits on them. Progress is the build Run itself, as committed. Texts are embedded by the
// embed worker and in-browser LLMs run in the llm worker, both reached through ports the page sends.
import { PortClient, expose, workerScopeEndpoint } from '../src/rpc';
import { llmWorkerEngines } from '../src/model-host/worker-engine';
import type { LlmApi } from '../src/model-host/llm-api';
import { ToolMemDB, createRepositories } from '../src/db';
import { DexieEmbeddingStore, embeddingModelSetting } from '../src/db/embedding-store';
import { getSetting } from '../src/db/settings';
import { DexieMemoryImportStore } from '../src/db/memory-import-store';
import { BUNDLED_EMBED_MODEL, type EmbedApi, type EmbedPortApi } from '../src/model-host/embed-api';
import { remoteEmbedder } from '../src/model-host/embed-remote';
import { createMemoryHandlers } from '../src/app/memory/handlers';
import type { MemoryApi } from '../src/app/memory/api';

const db = new ToolMemDB();
const embed = new PortClient<EmbedApi>('The embed worker');
const llm = new PortClient<LlmApi>('The llm worker');

const model = embeddingModelSetting(db);

expose<MemoryApi & EmbedPortApi>(
  {
    ...createMemoryHandlers({
      repos: createRepositories(db),
      // The same IndexedDB cache as the embed worker's: the build and the checks look vectors up
      // here (cachedEmbed over this store), so the embed worker only runs the model for them.
      store: new DexieEmbeddingStore(db),
      currentModel: async () => (await model.get()) || BUNDLED_EMBED_MODEL,
      // The embed worker's active model whatever is asked for: the callers compare its id with the
      // memory's model and say which model to choose in Settings when they differ.
      embedder: () => remoteEmbedder(embed, { cache: false }),
      apiKey: async () => (await getSetting(db, 'llmApiKey')) || undefined,
      importStore: new DexieMemoryImportStore(db),
      engineOf: llmWorkerEngines(() => llm.current),
      onLlmPort: (port) => llm.attach(port),
    }),
    attachEmbed: embed.handler,
  },
  workerScopeEndpoint(),
);
