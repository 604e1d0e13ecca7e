/**
 * Runs (evaluations, …) whose tab was closed or reloaded mid-way stay `running` in the database for
 * ever unless someone notices. `withRunLocks` makes the code that executes runs hold a Web Lock per
 * running run; `recoverInterruptedRuns` (called at startup) marks every `running` run of the given
 * kinds whose lock is free as `failed` with an "interrupted" reason, so the UI never shows it stuck
 * and offers to run it again. Memory builds are not touched: they resume (src/ui/build-jobs).
 */
import type { Repositories, RunRepository } from '../../core/repositories';
import type { Run, RunKind } from '../../core/records';
import { heldLocks, holdLock, runLockName, whenFree, type LockManagerLike } from '../../platform/locks';

export const INTERRUPTED_REASON = 'Interrupted: the tab was closed or reloaded (or its worker stopped) while this ran. Run it again to get its results.';

/** True for a run that `recoverInterruptedRuns` marked. */
export function wasInterrupted(run: Pick<Run, 'state' | 'error'>): boolean {
  return run.state === 'failed' && run.error === INTERRUPTED_REASON;
}

/**
 * Repositories whose `runs.put` holds the run's lock from the first write in state `running` until a
 * write in any other state. Everything else is passed through untouched.
 */
export function withRunLocks(repos: Repositories, locks: LockManagerLike | null): Repositories {
  if (!locks) return repos;
  const releases = new Map<string, Promise<() => void>>();
  const runs: RunRepository = {
    get: (id) => repos.runs.get(id),
    list: (kind) => repos.runs.list(kind),
    async put(run) {
      if (run.state === 'running' && !releases.has(run.id)) {
        const taking = holdLock(locks, runLockName(run.id));
        releases.set(run.id, taking);
        await taking; // held before the row says `running`, so recovery never sees it unheld
      }
      try {
        await repos.runs.put(run);
      } finally {
        if (run.state !== 'running' && releases.has(run.id)) {
          const release = releases.get(run.id)!;
          releases.delete(run.id);
          (await release)();
        }
      }
    },
  };
  return { ...repos, runs };
}

/**
 * Marks interrupted runs of `kinds` as failed; returns them (as stored now). A run whose lock is
 * held gets `graceMs` for its holder to go away (a reloaded page's worker ending) before it counts
 * as alive and is left alone.
 */
export async function recoverInterruptedRuns(
  repos: Pick<Repositories, 'runs'>,
  locks: LockManagerLike | null,
  kinds: readonly RunKind[] = ['eval'],
  now = Date.now(),
  graceMs = 0,
): Promise<Run[]> {
  const held = await heldLocks(locks);
  const recovered: Run[] = [];
  const fail = async (id: string) => {
    const run = await repos.runs.get(id);
    if (run?.state !== 'running') return; // finished meanwhile
    const failed: Run = { ...run, state: 'failed', error: INTERRUPTED_REASON, finishedAt: now };
    await repos.runs.put(failed);
    recovered.push(failed);
  };
  const waiting: Promise<unknown>[] = [];
  for (const kind of kinds) {
    for (const run of await repos.runs.list(kind)) {
      if (run.state !== 'running') continue;
      if (!held.has(runLockName(run.id))) await fail(run.id);
      else if (locks && graceMs > 0) waiting.push(whenFree(locks, runLockName(run.id), graceMs, () => fail(run.id)));
    }
  }
  await Promise.all(waiting);
  return recovered;
}
