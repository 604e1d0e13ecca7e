/**
 * Resolves once `check()` holds, looking every 5 ms; fails after `ms` (2 s by default). For state
 * that a live read updates on its own time — a condition to wait for, not a fixed sleep.
 */
export async function until(check: () => boolean, ms = 2000): Promise<void> {
  for (const start = Date.now(); !check();) {
    if (Date.now() - start > ms) throw new Error('timed out waiting for the live read');
    await new Promise((r) => setTimeout(r, 5));
  }
}
