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

/**
 * Runs a write; a quota failure becomes a StorageFullError that tells the user what to do.
 * The write itself is a transaction, so nothing partial is left behind.
 */
export async function withQuotaCheck<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isQuotaError(err)) {
      throw new StorageFullError(
        'The browser refused to store more data (storage quota reached). Nothing from this step was saved. ' +
          'Free space by deleting datasets or old memories you no longer need (Data page), or export a backup first (Settings).',
        { cause: err },
      );
    }
    throw err;
  }
}
