import { buildMetrics, type BuildMetrics } from '../core/memory';
import type { Run } from '../core/types';
import type { Repositories } from '../core/repositories';
import type { BuildRequest } from '../services/memory-api';
import { memoryWorker } from './workers';

/**
 * Memory builds as the UI sees them: every build Run with its live progress. A build left
 * `running` by a closed tab resumes by itself when the page opens (its cursor is committed with
 * each step, so nothing is done twice); a paused one waits for the user.
 */
export class BuildJobs {
  runs = $state.raw<Run[]>([]);
  active = $state<string | null>(null);
  error = $state<string | null>(null);
  #abort: AbortController | null = null;

  constructor(
    private readonly repos: Repositories,
    private readonly onChange: () => void,
    /** Called once per build that ends completed (the Memory page then shows the memory just built). */
    private readonly onCompleted: (run: Run) => void = () => {},
  ) {}

  metrics(run: Run): BuildMetrics {
    return buildMetrics(run);
  }

  async load(): Promise<void> {
    this.runs = await this.repos.runs.list('build');
    const interrupted = this.runs.find((r) => r.state === 'running');
    if (interrupted && !this.active) void this.run(interrupted.id);
  }

  async start(req: BuildRequest): Promise<void> {
    this.error = null;
    try {
      const run = await memoryWorker().call('createBuild', req);
      this.runs = [run, ...this.runs];
      await this.run(run.id);
    } catch (err) {
      this.error = err instanceof Error ? err.message : String(err);
    }
  }

  async run(runId: string): Promise<void> {
    if (this.active) return;
    this.active = runId;
    this.#abort = new AbortController();
    this.error = null;
    try {
      const done = await memoryWorker().call('runBuild', { runId }, { signal: this.#abort.signal, onProgress: (r) => this.#replace(r) });
      this.#replace(done);
      if (done.state === 'failed') this.error = done.error ?? 'The build failed.';
      if (done.state === 'completed') this.onCompleted(done);
    } catch (err) {
      if (!this.#abort.signal.aborted) this.error = err instanceof Error ? err.message : String(err);
    } finally {
      this.active = null;
      this.#abort = null;
      // After a pause the worker finishes its step and commits `paused` a moment later; wait for it.
      for (let i = 0; i < 100; i++) {
        this.runs = await this.repos.runs.list('build');
        if (this.runs.find((r) => r.id === runId)?.state !== 'running') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      this.onChange();
    }
  }

  pause(): void {
    this.#abort?.abort();
  }

  #replace(run: Run): void {
    this.runs = this.runs.map((r) => (r.id === run.id ? run : r));
    this.onChange();
  }
}
