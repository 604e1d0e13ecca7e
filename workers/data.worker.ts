/// <reference lib="webworker" />
// Thin host for the data services: imports (core parsing + validation, Dexie writes), dataset
// statistics and exports, image attachment, labelling queries (queue, agreement), which scan
// whole datasets, and the store-wide writes (backup restore, reset, run recovery). They run here
// so that a 100k-row file never blocks the UI thread.
import { expose, workerScopeEndpoint } from '../src/rpc';
import { ToolMemDB, clearAllTables, createRepositories, restoreBackup } from '../src/db';
import { createImportHandlers } from '../src/app/import/handlers';
import type { ImportApi } from '../src/app/import/api';
import { createLabelHandlers } from '../src/app/label/label';
import type { LabelApi } from '../src/app/label/api';
import { browserLocks } from '../src/platform/locks';
import { createStorageHandlers } from '../src/app/storage/handlers';
import type { StorageApi } from '../src/app/storage/api';

const THUMB_WIDTH = 192;

/** Small WebP thumbnails for lists; decoding happens off the main thread. */
async function makeThumbnail(blob: Blob): Promise<Blob | undefined> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return undefined;
  const bitmap = await createImageBitmap(blob);
  try {
    const scale = Math.min(1, THUMB_WIDTH / bitmap.width);
    const canvas = new OffscreenCanvas(Math.max(1, Math.round(bitmap.width * scale)), Math.max(1, Math.round(bitmap.height * scale)));
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await canvas.convertToBlob({ type: 'image/webp', quality: 0.8 });
  } finally {
    bitmap.close();
  }
}

const db = new ToolMemDB();
const repos = createRepositories(db);
const storage = createStorageHandlers({ repos, restore: (text) => restoreBackup(db, text), clear: () => clearAllTables(db), locks: browserLocks() });
expose<ImportApi & LabelApi & StorageApi>({ ...createImportHandlers(repos, makeThumbnail), ...createLabelHandlers(repos), ...storage }, workerScopeEndpoint());
