/**
 * In-memory ImportSink for the CLI (nothing is persisted by the CLI yet). It classifies rows the same
 * way the Dexie store does, so the counts mean the same thing: a re-sent identical row is
 * `unchanged`, a changed one `updated`.
 */
import type { ImportSink } from '../core/import/types';
import type { Experience } from '../core/types';

/** Content that decides equality: everything except which import wrote it and when. */
function contentKey(e: Experience): string {
  const { importId: _importId, createdAt: _createdAt, ...content } = e;
  return JSON.stringify(content);
}

export class MemorySink implements ImportSink {
  readonly rows = new Map<string, Experience>();

  async writeBatch(batch: Experience[]) {
    let added = 0;
    let updated = 0;
    let unchanged = 0;
    for (const row of batch) {
      const existing = this.rows.get(row.id);
      if (!existing) added += 1;
      else if (contentKey(existing) === contentKey(row)) {
        unchanged += 1;
        continue;
      } else updated += 1;
      this.rows.set(row.id, row);
    }
    return { added, updated, unchanged };
  }
}
