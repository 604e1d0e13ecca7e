import { describe, expect, it } from 'vitest';
import { TOAST_ERROR_MS, TOAST_OK_MS, toastDuration } from '../../../src/ui/toast-timing';

describe('toastDuration', () => {
  it('short confirmations go after 2.5 s', () => {
    expect(TOAST_OK_MS).toBe(2500);
    expect(toastDuration('ok', 'Attached 3 images.', false)).toBe(2500);
    expect(toastDuration('info', 'Last label undone.', false)).toBe(2500);
  });
  it('long text gets 40 ms per character beyond 60, capped at 10 s', () => {
    expect(toastDuration('info', 'x'.repeat(160), false)).toBe(2500 + 100 * 40); // 6,500
    expect(toastDuration('ok', 'x'.repeat(5000), false)).toBe(10_000);
  });
  it('a confirmation with an action (Undo) stays 6 s', () => {
    expect(toastDuration('ok', 'Deleted.', true)).toBe(6000);
  });
  it('errors stay 8 s (more when long), and errors with an action stay until dismissed', () => {
    expect(TOAST_ERROR_MS).toBe(8000);
    expect(toastDuration('error', 'Export failed: disk full', false)).toBe(8000);
    expect(toastDuration('error', 'x'.repeat(110), false)).toBe(8000 + 50 * 40);
    expect(toastDuration('error', 'x'.repeat(9000), false)).toBe(20_000);
    expect(toastDuration('error', 'Blocked a connection.', true)).toBeNull();
  });
});
