/// <reference lib="webworker" />
// Thin host: text embeddings (transformers.js + onnxruntime-web, WebGPU or WASM) and their
// IndexedDB cache run here, off the UI thread. The service logic is in src/services/embed-service.ts.
import { expose, workerScopeEndpoint } from '../src/rpc';
import { DexieEmbeddingStore, ToolMemDB, createRepositories, embeddingModelSetting } from '../src/db';
import { createBrowserEmbedHost } from '../src/services/embed-browser';
import { createEmbedHandlers } from '../src/services/embed-service';
import type { EmbedApi } from '../src/services/embed-api';
import { createEmbedDatasetHandlers, distinctPrompts, type EmbedDatasetApi } from '../src/services/embed-dataset';

const db = new ToolMemDB();
const repos = createRepositories(db);
const embed = createEmbedHandlers({ host: createBrowserEmbedHost(), store: new DexieEmbeddingStore(db), setting: embeddingModelSetting(db) });
expose<EmbedApi & EmbedDatasetApi>(
  { ...embed, ...createEmbedDatasetHandlers({ embed: embed.embed, prompts: async (id) => distinctPrompts(await repos.experiences.byDataset(id)) }) },
  workerScopeEndpoint(),
);
