/**
 * Sharing and checking handlers added to the memory worker's table: import (new or merged),
 * export of imported memories (wrapping the built-memory export), drift and test cases.
 */
import type { Embedder, EmbeddingStore } from '../../core/embed';
import type { MemoryImportStore } from '../../core/memory-format';
import type { Repositories } from '../../core/repositories';
import type { Handlers } from '../../rpc';
import type { MemoryApi } from './api';
import { memoryCheckHandlers } from './checks';
import { memoryImportHandlers } from './file-import';

export interface MemoryShareDeps {
  repos: Repositories;
  store: EmbeddingStore;
  importStore?: MemoryImportStore;
  currentModel(): Promise<string>;
  embedder(model: string): Promise<Embedder>;
}

export function withMemorySharing(deps: MemoryShareDeps, base: Omit<Handlers<MemoryApi>, 'importMemory' | 'drift' | 'runTestCases'>): Handlers<MemoryApi> {
  const { exportMemory, importMemory, memoryFile } = memoryImportHandlers(deps, base.exportMemory);
  const { drift, runTestCases } = memoryCheckHandlers({ ...deps, memoryFile });
  return { ...base, exportMemory, importMemory, drift, runTestCases };
}
