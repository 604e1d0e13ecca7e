/**
 * A fresh app database (see ./db.ts) with the memory worker's handlers over it, as the memory
 * import tests need; the file drops the databases with `afterEach(dropDbs)`.
 */
import { freshDb } from './db';
import type { Embedder } from '../../../src/core/embed';
import { DexieEmbeddingStore } from '../../../src/db/embedding-store';
import { DexieMemoryImportStore } from '../../../src/db/memory-import-store';
import { createInThreadClient, type Client } from '../../../src/rpc';
import type { MemoryApi } from '../../../src/app/memory/api';
import { createMemoryHandlers } from '../../../src/app/memory/handlers';

export function memoryApps(prefix: string, embedder: Embedder) {
  return async function app() {
    const { db, repos } = await freshDb(prefix);
    const memory: Client<MemoryApi> = createInThreadClient(
      createMemoryHandlers({
        repos,
        store: new DexieEmbeddingStore(db),
        importStore: new DexieMemoryImportStore(db),
        currentModel: async () => 'glove-100d',
        embedder: async () => embedder,
        apiKey: async () => undefined,
      }),
    );
    return { db, repos, memory };
  };
}
