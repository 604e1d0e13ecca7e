/**
 * How long a notification stays (pure, so it is unit-tested). Confirmations are short: the change
 * is already visible on the page. Longer text gets reading time (about 40 ms a character, a slow
 * reading pace). Errors stay longer, and an error that offers an action (Reload, Retry) stays until
 * it is dismissed: its action is the way out. Hovering or focusing a toast holds it (Toasts.svelte).
 */
export const TOAST_OK_MS = 2500;
export const TOAST_ERROR_MS = 8000;
const PER_CHAR_MS = 40;
const SHORT_TEXT = 60;

/** Milliseconds before the toast goes, or null when it stays until dismissed. */
export function toastDuration(kind: 'info' | 'ok' | 'error', text: string, hasAction: boolean): number | null {
  if (kind === 'error' && hasAction) return null;
  const reading = Math.max(0, text.length - SHORT_TEXT) * PER_CHAR_MS;
  if (kind === 'error') return Math.min(TOAST_ERROR_MS + reading, 20_000);
  // A confirmation with an action (Undo) keeps it usable for a while.
  const base = hasAction ? 6000 : TOAST_OK_MS;
  return Math.min(base + reading, 10_000);
}

/** Time given back when the pointer or focus leaves a held toast. */
export const TOAST_RESUME_MS = 2000;
