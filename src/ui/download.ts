import { rejectedRowsCsv } from '../core/import/rejected-csv';
import type { RowError } from '../core/types';

/** Saves a Blob as a file through a temporary object URL (works offline, no server round trip). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** An import's rejected rows as the CSV to fix and import again, named after the file (`log.jsonl` → `log-rejected.csv`). */
export function downloadRejectedRows(fileName: string, errors: RowError[]): void {
  downloadBlob(new Blob([rejectedRowsCsv(errors)], { type: 'text/csv;charset=utf-8' }), `${fileName.replace(/\.[^.]+$/, '')}-rejected.csv`);
}
