/// <reference lib="webworker" />
// Thin host: text embeddings (transformers.js + onnxruntime-web, WebGPU or WASM) and their
// IndexedDB cache run here, off the UI thread. The service logic is in src/services/embed-service.ts.
import { expose, workerScopeEndpoint } from '../src/rpc';
import { DexieEmbeddingStore, ToolMemDB, embeddingModelSetting } from '../src/db';
import { createBrowserEmbedHost } from '../src/services/embed-browser';
import { createEmbedHandlers } from '../src/services/embed-service';
import type { EmbedApi } from '../src/services/embed-api';

const db = new ToolMemDB();
expose<EmbedApi>(
  createEmbedHandlers({ host: createBrowserEmbedHost(), store: new DexieEmbeddingStore(db), setting: embeddingModelSetting(db) }),
  workerScopeEndpoint(),
);
