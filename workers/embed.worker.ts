/// <reference lib="webworker" />
// Thin host: the tab's one embedding model (transformers.js + onnxruntime-web, WebGPU or WASM) and
// its IndexedDB cache run here, off the UI thread. The page calls it directly; the memory and eval
// workers through ports (`connect`). The use cases are in src/model-host/embed-service.ts.
import { expose, workerScopeEndpoint, type ConnectApi, type Handlers } from '../src/rpc';
import { DexieEmbeddingStore, ToolMemDB, createRepositories, embeddingModelSetting } from '../src/db';
import { createBrowserEmbedHost } from '../src/model-host/embed-browser';
import { createEmbedHandlers } from '../src/model-host/embed-service';
import type { EmbedApi } from '../src/model-host/embed-api';
import { createEmbedDatasetHandlers, distinctPrompts, type EmbedDatasetApi } from '../src/model-host/embed-dataset';

const db = new ToolMemDB();
const repos = createRepositories(db);
const embed = createEmbedHandlers({ host: createBrowserEmbedHost(), store: new DexieEmbeddingStore(db), setting: embeddingModelSetting(db) });
const handlers: Handlers<EmbedApi & EmbedDatasetApi & ConnectApi> = {
  ...embed,
  ...createEmbedDatasetHandlers({ embed: embed.embed, prompts: async (id) => distinctPrompts(await repos.experiences.byDataset(id)) }),
  connect({ port }) {
    expose<EmbedApi & EmbedDatasetApi & ConnectApi>(handlers, port);
    return null;
  },
};
expose<EmbedApi & EmbedDatasetApi & ConnectApi>(handlers, workerScopeEndpoint());
