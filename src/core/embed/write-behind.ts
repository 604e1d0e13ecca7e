/**
 * Writes embedding records to a store behind the caller: `add` never waits. At most one `put` is in
 * flight; records added meanwhile queue and go together in the next `put`, so a fast model makes few,
 * large writes (one transaction each in IndexedDB) instead of one small write per batch, and a slow
 * store never stalls the model. Writes land in the order added. The first failure is kept: no later
 * write starts, and `throwIfFailed` / `failure` report it.
 */
import type { EmbeddingRecord, EmbeddingStore } from './embedding-cache';

export class WriteBehind {
  private queued: EmbeddingRecord[] = [];
  private inFlight: Promise<void> | null = null;
  private failed: { error: unknown } | null = null;

  constructor(private readonly store: EmbeddingStore) {}

  /** The first write error, if any. */
  get failure(): unknown {
    return this.failed?.error;
  }

  throwIfFailed(): void {
    if (this.failed) throw this.failed.error;
  }

  add(records: readonly EmbeddingRecord[]): void {
    if (this.failed || records.length === 0) return;
    for (const r of records) this.queued.push(r);
    this.inFlight ??= this.pump();
  }

  /** Resolves once every added record is written or a write has failed; never rejects. */
  async drain(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  private async pump(): Promise<void> {
    // Start on a later microtask, so `inFlight` is set before this can finish (even if `put` throws at once).
    await Promise.resolve();
    try {
      while (this.queued.length > 0 && !this.failed) {
        const records = this.queued;
        this.queued = [];
        await this.store.put(records);
      }
    } catch (error) {
      this.failed = { error };
      this.queued = [];
    } finally {
      this.inFlight = null;
    }
  }
}
