import { StorageFullError } from '../core/errors';

/** True for the browser's "disk full / quota" failures, however Dexie wraps them. */
export function isQuotaError(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const name = (e as { name?: string }).name;
    if (name === 'QuotaExceededError' || name === 'QuotaExceeded') return true;
    e = (e as { inner?: unknown; cause?: unknown }).inner ?? (e as { cause?: unknown }).cause;
  }
  return false;
}

export interface StorageUsage {
  usage: number;
  quota: number;
}

/** Bytes as people read them (1 decimal from MB up); the db layer cannot use the UI's formatter. */
function bytes(n: number): string {
  if (n < 1024 * 1024) return `${Math.max(1, Math.round(n / 1024))} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(1)} GB`;
}

/**
 * What the user reads when storage is full: that it is full, that nothing of this step was kept,
 * how much is used (when the browser says), and what to delete to make room.
 */
export function storageFullMessage(usage?: StorageUsage | null): string {
  const used = usage && usage.quota > 0 ? ` This site uses ${bytes(usage.usage)} of the ${bytes(usage.quota)} the browser allows it.` : '';
  return (
    `Storage is full: the browser refused to store more data.${used} Nothing from this step was saved. ` +
    'Free space, then try again: delete datasets you no longer need, with their images (Data page → Delete dataset…), ' +
    'or back up everything and then delete all data (Settings → Backup, Delete all data). Settings → Storage shows what is used.'
  );
}

/** The browser's estimate (window and workers), or null where there is none. Never throws. */
export async function currentUsage(): Promise<StorageUsage | null> {
  try {
    const storage = (globalThis as { navigator?: { storage?: { estimate?: () => Promise<{ usage?: number; quota?: number }> } } }).navigator?.storage;
    if (!storage?.estimate) return null;
    const e = await storage.estimate();
    return typeof e.usage === 'number' && typeof e.quota === 'number' ? { usage: e.usage, quota: e.quota } : null;
  } catch {
    return null;
  }
}

/** The error a quota failure becomes: a StorageFullError with the advice above (the original as `cause`). */
export async function toStorageFullError(err: unknown): Promise<StorageFullError> {
  return new StorageFullError(storageFullMessage(await currentUsage()), { cause: err });
}

/**
 * Runs a write; a quota failure becomes a StorageFullError that tells the user what to do.
 * The write itself is a transaction, so nothing partial is left behind.
 */
export async function withQuotaCheck<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isQuotaError(err)) throw await toStorageFullError(err);
    throw err;
  }
}
