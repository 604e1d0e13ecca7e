/**
 * Which long-running jobs are still alive, across tabs and workers, via the Web Locks API: the code
 * that runs a job holds a lock named after it for as long as it runs. When a tab is closed, reloaded
 * or its worker crashes, the browser releases the lock, so a job stored as `running` whose lock is
 * free was interrupted and must be recovered (rolled back or marked failed), while one whose lock is
 * held belongs to another open tab and must be left alone.
 *
 * Where there is no LockManager (Node, old browsers) every `running` job counts as interrupted:
 * recovery then only runs at startup, when this tab cannot own anything yet.
 */

/** The part of the browser's LockManager we use (injectable for tests). */
export interface LockManagerLike {
  request(name: string, callback: (lock: unknown) => Promise<unknown>): Promise<unknown>;
  request(name: string, options: { signal?: AbortSignal }, callback: (lock: unknown) => Promise<unknown>): Promise<unknown>;
  query(): Promise<{ held?: { name?: string }[] }>;
}

export const importLockName = (importId: string): string => `toolmem:import:${importId}`;
export const runLockName = (runId: string): string => `toolmem:run:${runId}`;

/** `navigator.locks` in a window or worker; null elsewhere. */
export function browserLocks(): LockManagerLike | null {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  return locks && typeof locks.request === 'function' && typeof locks.query === 'function' ? locks : null;
}

/** Takes the lock `name` (waiting if another context holds it) and resolves with the function that releases it. */
export function holdLock(locks: LockManagerLike, name: string): Promise<() => void> {
  return new Promise((acquired, failed) => {
    locks.request(name, () => new Promise<void>((release) => acquired(() => release()))).catch(failed);
  });
}

/**
 * Runs `fn` holding the lock `name` once it is free, waiting at most `ms` for it; `undefined` when
 * the lock stayed held (its job is alive in another tab). Used at startup: right after a reload the
 * old page's workers may hold their locks for a moment longer before the browser ends them.
 */
export async function whenFree<T>(locks: LockManagerLike, name: string, ms: number, fn: () => Promise<T>): Promise<T | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return (await locks.request(name, { signal: controller.signal }, fn)) as T;
  } catch (err) {
    if (controller.signal.aborted) return undefined;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Names of the locks held right now by any tab or worker of this origin. */
export async function heldLocks(locks: LockManagerLike | null): Promise<Set<string>> {
  if (!locks) return new Set();
  const state = await locks.query();
  return new Set((state.held ?? []).map((l) => l.name ?? '').filter(Boolean));
}

/** A LockManager in memory, with the same semantics within one process (tests, Node). */
export class MemoryLocks implements LockManagerLike {
  private readonly held = new Set<string>();
  private readonly waiting = new Map<string, (() => void)[]>();

  async request(
    name: string,
    ...args: [(lock: unknown) => Promise<unknown>] | [{ signal?: AbortSignal }, (lock: unknown) => Promise<unknown>]
  ): Promise<unknown> {
    const [options, callback] = args.length === 1 ? [{}, args[0]] : args;
    while (this.held.has(name)) {
      await new Promise<void>((resolve, reject) => {
        this.waiting.set(name, [...(this.waiting.get(name) ?? []), resolve]);
        options.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')), { once: true });
      });
    }
    this.held.add(name);
    try {
      return await callback({ name });
    } finally {
      this.held.delete(name);
      const next = this.waiting.get(name)?.shift();
      next?.();
    }
  }

  async query() {
    return { held: [...this.held].map((name) => ({ name })) };
  }
}
