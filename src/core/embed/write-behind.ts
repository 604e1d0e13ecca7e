/**
 * Writes embedding records to a store behind the caller: `add` never waits. At most one `put` is in
 * flight; records added meanwhile queue and go together in the next `put`, so a fast model makes few,
 * large writes (one transaction each in IndexedDB) instead of one small write per batch, and a slow
 * store never stalls the model. A write starts once `minWrite` records wait (default 1: at once), or
 * when the caller needs the room or the end (`waitForRoom`, `drain`). Writes land in the order added.
 * The first failure is kept: no later write starts, and `throwIfFailed` / `failure` report it.
 */
import type { EmbeddingRecord, EmbeddingStore } from './store';

export class WriteBehind {
  private queued: EmbeddingRecord[] = [];
  private inFlight: Promise<void> | null = null;
  /** The `put` now running and how many records it holds (0 when none runs). */
  private writing: Promise<unknown> = Promise.resolve();
  private writingCount = 0;
  private failed: { error: unknown } | null = null;
  /** Set by `drain`: whatever waits is written, however little. */
  private flushing = false;

  constructor(
    private readonly store: EmbeddingStore,
    private readonly minWrite = 1,
  ) {}

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
    if (this.queued.length >= this.minWrite) this.inFlight ??= this.pump(false);
  }

  /** Records added and not yet written: queued plus the ones in the running `put`. */
  get backlog(): number {
    return this.queued.length + this.writingCount;
  }

  /**
   * Resolves once fewer than `max` records are unwritten (or a write has failed); never rejects.
   * Waits on the running `put` only, so whatever queued meanwhile then goes as one write; with none
   * running, writes what waits (even fewer than `minWrite`).
   */
  async waitForRoom(max: number): Promise<void> {
    while (this.backlog >= max && !this.failed) {
      this.inFlight ??= this.pump(true);
      await this.writing.then(noop, noop);
      // `pump` sets `writing` on a later microtask: let it start before looking again.
      await Promise.resolve();
    }
  }

  /** Resolves once every added record is written or a write has failed; never rejects. */
  async drain(): Promise<void> {
    this.flushing = true;
    if (this.queued.length > 0) this.inFlight ??= this.pump(true);
    while (this.inFlight) await this.inFlight;
  }

  /** Writes what waits, one `put` at a time; after the first, only while `minWrite` records wait (or when flushing). */
  private async pump(force: boolean): Promise<void> {
    // Start on a later microtask, so `inFlight` is set before this can finish (even if `put` throws at once).
    await Promise.resolve();
    try {
      while (this.queued.length > 0 && !this.failed && (force || this.flushing || this.queued.length >= this.minWrite)) {
        force = false;
        const records = this.queued;
        this.queued = [];
        this.writingCount = records.length;
        this.writing = this.store.put(records);
        await this.writing;
        this.writingCount = 0;
      }
    } catch (error) {
      this.failed = { error };
      this.queued = [];
    } finally {
      this.writingCount = 0;
      this.inFlight = null;
    }
  }
}

function noop(): void {}
