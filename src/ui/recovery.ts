/**
 * Startup recovery: work a closed or reloaded tab (or a crashed worker) left `running` is settled
 * before the app first reads its data, so nothing half-done is ever shown:
 * - imports are rolled back in the data worker (every batch they wrote is removed, see
 *   src/app/import `recover`); the file can simply be imported again;
 * - evaluations are marked failed as interrupted (also in the data worker: `recoverRuns`), so they
 *   are not stuck "running" and can be rerun.
 * Work another open tab is still doing holds a Web Lock (src/platform/locks) and is left alone.
 * Memory builds are not touched here: they resume where they stopped (build-jobs).
 */
import type { AppState } from './app-state.svelte';
import { send } from './send';
import { formatPlural } from './format';

export interface Recovered {
  /** Files of the imports rolled back. */
  imports: string[];
  /** Evaluations marked as interrupted. */
  runs: number;
}

/**
 * How long work whose lock is still held at startup may take to let go of it: after a reload the old
 * page's workers end a moment after the new page starts. Still held after that, the work is alive in
 * another tab and is left alone. Only paid when something is `running` at startup.
 */
export const GRACE_MS = 3000;

export async function recoverInterruptedWork(app: AppState, graceMs = GRACE_MS): Promise<Recovered> {
  const out: Recovered = { imports: [], runs: 0 };
  // Cheap checks first: on a normal start there is nothing to recover and no worker is started.
  const [imports, runs] = await Promise.all([
    (async () => ((await app.repos.imports.list()).some((r) => r.state === 'running') ? (await send('recover', { graceMs })).files : []))(),
    (async () => ((await app.store.runningRuns()) > 0 ? (await send('recoverRuns', { graceMs })).runs : 0))(),
  ]);
  out.imports = imports;
  out.runs = runs;
  return out;
}

let settled: Promise<void> = Promise.resolve();

/** Resolves once startup recovery is done: pages that list runs or imports read them after it. */
export function afterRecovery(): Promise<void> {
  return settled;
}

/**
 * Recovers, tells the user what was recovered, then loads the app's data (also when recovery failed).
 * Call it when the app is created, before pages mount, so `afterRecovery` covers their first reads.
 */
export function startApp(app: AppState): Promise<void> {
  const done = recover(app);
  settled = done;
  return done;
}

async function recover(app: AppState): Promise<void> {
  try {
    const { imports, runs } = await recoverInterruptedWork(app);
    if (imports.length) {
      app.toast(
        'info',
        `The import of ${imports.join(', ')} was interrupted (the page was closed or reloaded), so it was rolled back: nothing from it is kept. ` +
          `Import the file again.`,
      );
    }
    if (runs) {
      app.toast(
        'info',
        `${formatPlural(runs, 'evaluation')} stopped when the page was closed or reloaded; the Evaluate page lists ${runs > 1 ? 'them' : 'it'} as ` +
          `interrupted, to run again.`,
      );
    }
  } catch (err) {
    app.toast('error', `Could not check for interrupted work: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await app.refresh();
  }
}
