import { buildMetrics, type BuildMetrics } from '../core/memory';
import type { BuildRun as Run } from '../core/records'; // every Run here is a build
import type { UiStorage } from './storage';
import type { BuildRequest } from '../app/memory/api';
import type { Send } from './send';
import { newId } from '../core/ids';

/**
 * Memory builds as the UI sees them: every build Run with its live progress (what the build wrote,
 * its memory and entries, the pages read live themselves: no change callback). A build left
 * `running` by a closed tab resumes by itself when the page opens (its cursor is committed with
 * each step, so nothing is done twice); a paused one waits for the user.
 */
export class BuildJobs {
  #runs = $state.raw<Run[]>([]);
  #active = $state<string | null>(null);
  #error = $state<string | null>(null);
  // Read from outside through getters; changed only by this class's methods.
  get runs() {
    return this.#runs;
  }
  get active() {
    return this.#active;
  }
  get error() {
    return this.#error;
  }
  #abort: AbortController | null = null;
  #unwatch: (() => void) | null = null;
  /** Builds paused or ended whose `running` state the live list still shows, with who waits for it. */
  // Waiters, not state: nothing renders from them.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #settling = new Map<string, () => void>();

  constructor(
    private readonly store: Pick<UiStorage, 'repos' | 'watch'>,
    private readonly send: Send,
    /** Called once per build that ends completed (the Memory page then shows the memory just built). */
    private readonly onCompleted: (run: Run) => void = () => {},
  ) {}

  metrics(run: Run): BuildMetrics {
    return buildMetrics(run);
  }

  /**
   * Watches the build runs (a live read: every state or progress the worker commits shows up by
   * itself); on the first read, resumes a build a closed tab left running. Call `stop` when done.
   */
  load(): void {
    if (this.#unwatch) return;
    let first = true;
    this.#unwatch = this.store.watch(
      () => this.store.repos.runs.list('build'),
      (runs) => {
        this.#runs = runs;
        for (const [id, settled] of this.#settling) if (runs.find((r) => r.id === id)?.state !== 'running') settled();
        if (!first) return;
        first = false;
        const interrupted = runs.find((r) => r.state === 'running');
        if (interrupted && !this.#active) void this.run(interrupted.id);
      },
      (err) => (this.#error = err instanceof Error ? err.message : String(err)),
    );
  }

  stop(): void {
    this.#unwatch?.();
    this.#unwatch = null;
    for (const settled of this.#settling.values()) settled();
  }

  /** Resolves once the live list shows `runId` no longer running, or after `capMs` (a worker that died). */
  #settled(runId: string, capMs = 5000): Promise<void> {
    if (!this.#unwatch || this.#runs.find((r) => r.id === runId)?.state !== 'running') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, capMs);
      const settling = this.#settling;
      function done() {
        clearTimeout(timer);
        settling.delete(runId);
        resolve();
      }
      this.#settling.set(runId, done);
    });
  }

  /**
   * Starts a build with one call (the worker creates it and runs it). The page names the Run so it
   * follows that row from the start; its progress is the row itself, read live (`load`), the one
   * channel the page reads, and the Run the call answers when it ends.
   */
  async start(req: BuildRequest): Promise<void> {
    const runId = newId('build-');
    await this.#follow(runId, (signal) => this.send('build', { ...req, runId }, { signal }));
  }

  /** Resumes a paused or interrupted build. */
  async run(runId: string): Promise<void> {
    await this.#follow(runId, (signal) => this.send('runBuild', { runId }, { signal }));
  }

  async #follow(runId: string, call: (signal: AbortSignal) => Promise<Run>): Promise<void> {
    if (this.#active) return;
    this.#active = runId;
    this.#abort = new AbortController();
    this.#error = null;
    try {
      const done = await call(this.#abort.signal);
      this.#replace(done);
      if (done.state === 'failed') this.#error = done.error ?? 'The build failed.';
      if (done.state === 'completed') this.onCompleted(done);
    } catch (err) {
      if (!this.#abort.signal.aborted) this.#error = err instanceof Error ? err.message : String(err);
    } finally {
      this.#active = null;
      this.#abort = null;
      // After a pause the worker finishes its step and commits `paused` a moment later: the live
      // list brings that commit; `run` resolves once it shows (no polling).
      await this.#settled(runId);
    }
  }

  pause(): void {
    this.#abort?.abort();
  }

  /** The final Run, shown before the live list brings the same commit (first, when the list has not shown it yet). */
  #replace(run: Run): void {
    this.#runs = this.#runs.some((r) => r.id === run.id) ? this.#runs.map((r) => (r.id === run.id ? run : r)) : [run, ...this.#runs];
  }
}
