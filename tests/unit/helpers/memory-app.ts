/**
 * A fresh app database (fake-indexeddb) with the memory worker's handlers over it, as the memory
 * import tests need: `open` lists the databases so a test file can delete them afterwards.
 */
import type { Embedder } from '../../../src/core/embed';
import { ToolMemDB, createRepositories } from '../../../src/db';
import { DexieEmbeddingStore } from '../../../src/db/embedding-store';
import { DexieMemoryImportStore } from '../../../src/db/memory-import-store';
import { createInThreadClient, type Client } from '../../../src/rpc';
import type { MemoryApi } from '../../../src/services/memory-api';
import { createMemoryHandlers } from '../../../src/services/memory-service';

export function memoryApps(prefix: string, embedder: Embedder) {
  let n = 0;
  const open: ToolMemDB[] = [];
  async function app() {
    const db = new ToolMemDB(`${prefix}-${++n}`);
    await db.open();
    open.push(db);
    const repos = createRepositories(db);
    const memory: Client<MemoryApi> = createInThreadClient(
      createMemoryHandlers({ repos, store: new DexieEmbeddingStore(db), importStore: new DexieMemoryImportStore(db), currentModel: async () => 'glove-100d', embedder: async () => embedder, apiKey: async () => undefined }),
    );
    return { db, repos, memory };
  }
  return { app, open };
}
