/**
 * `toolmem serve --workers N` (N > 1): a primary process and N workers on node:cluster sharing one
 * port (the primary accepts and hands connections round-robin). Each worker is a whole server —
 * the same memory file watched and hot-reloaded, the same token, limits and routes — so the
 * primary holds no state: it checks the memory and route files once (so a bad file exits 2 before
 * anything starts), starts the workers, prints one "serving" line when every worker listens, starts
 * another worker when one dies (at most 5 a minute, then one every 10 s), and on SIGTERM / SIGINT
 * tells every worker to drain (each answers its requests in flight and closes its connections
 * without resets) and exits 0 once all have. A worker that fails to start (port in use, a
 * memory its embedding model cannot serve) stops the whole start with its exit code.
 */
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { afterAcceptGrace } from './drain';

/** Set in a worker's environment: this process is one worker of a primary. */
export const WORKER_ENV = 'TOOLMEM_SERVE_WORKER';

export const isClusterWorker = (): boolean => cluster.isWorker && process.env[WORKER_ENV] === '1';

/** What a worker tells the primary once it listens. */
export interface WorkerReady {
  type: 'toolmem-ready';
  url: string;
  /** The worker's own "serving …" line (the primary prints it once, for all). */
  line: string;
}

export interface PrimaryOptions {
  workers: number;
  /** The `toolmem serve` arguments of every worker (the token travels in the environment). */
  args: string[];
  env: Record<string, string>;
  log(line: string): void;
  /** Resolves on SIGTERM / SIGINT (the command's signal handling); the primary then drains its workers. */
  stopSignal: Promise<string>;
}

const BIN = fileURLToPath(new URL('../../../bin/toolmem.mjs', import.meta.url));
const RESTARTS_PER_MINUTE = 5;

/** Runs the primary until it is stopped; resolves with the exit code. */
export async function runPrimary(opts: PrimaryOptions): Promise<number> {
  cluster.setupPrimary({ exec: BIN, args: ['serve', ...opts.args], silent: false });
  const live = new Set<Worker>();
  const restarts: number[] = [];
  let stopping = false;
  let started = false;
  let failStart: (code: number) => void = () => {};
  const startFailed = new Promise<number>((resolve) => (failStart = resolve));

  const fork = (): Promise<WorkerReady & { id: number }> => {
    const worker = cluster.fork({ ...opts.env, [WORKER_ENV]: '1' });
    live.add(worker);
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      if (stopping) return;
      if (!started) return failStart(code || 2);
      opts.log(`worker ${worker.id} stopped (${signal ?? `exit code ${code}`}); starting another`);
      const now = Date.now();
      restarts.push(now);
      while (restarts.length && restarts[0]! < now - 60_000) restarts.shift();
      setTimeout(
        () => void fork().then((r) => opts.log(`worker ${r.id} serves in place of worker ${worker.id}`)),
        restarts.length > RESTARTS_PER_MINUTE ? 10_000 : 0,
      );
    });
    return new Promise((resolve) => worker.on('message', (m: WorkerReady) => m?.type === 'toolmem-ready' && resolve({ ...m, id: worker.id })));
  };

  const ready = Promise.all(Array.from({ length: opts.workers }, fork));
  const first = await Promise.race([ready.then((r) => ({ ready: r })), startFailed.then((code) => ({ code })), opts.stopSignal.then((signal) => ({ signal }))]);
  if ('code' in first) {
    stopping = true;
    await stopAll(live);
    return first.code;
  }
  if ('ready' in first) {
    started = true;
    opts.log(`${first.ready[0]!.line}; ${opts.workers} workers`);
  }
  const signal = 'signal' in first ? first.signal : await opts.stopSignal;
  stopping = true;
  opts.log(`${signal}: draining requests in flight`);
  await stopAll(live);
  return 0;
}

/** A worker still running this long after its SIGTERM is killed (its own drain takes at most 10 s). */
const STOP_MS = 20_000;
/** Longest wait for the workers to stop listening before they are told to drain anyway. */
const UNLISTEN_MS = 3_000;

export const STOP_LISTENING = 'toolmem-stop-listening';
export const NOT_LISTENING = 'toolmem-not-listening';

/**
 * Every worker stops listening first and only then drains. The primary hands each accepted
 * connection to a listening worker and closes the ones it still holds when the last worker stops
 * listening; were the workers told to drain (answers with `Connection: close`) while another one
 * still listened, the clients' new connections would pile up there and be reset.
 */
async function stopListeningAll(live: Set<Worker>): Promise<void> {
  await Promise.all(
    [...live].map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.isDead()) return resolve();
          const timer = setTimeout(resolve, UNLISTEN_MS);
          w.on('message', (m: { type?: string }) => {
            if (m?.type !== NOT_LISTENING) return;
            clearTimeout(timer);
            resolve();
          });
          w.once('exit', () => resolve());
          w.send({ type: STOP_LISTENING });
        }),
    ),
  );
}

/** Every worker stops listening, then gets SIGTERM (each drains); resolved once all have exited. */
async function stopAll(live: Set<Worker>): Promise<void> {
  // Connections already on their way are still handed out (drain.ts, ACCEPT_GRACE_MS).
  await afterAcceptGrace();
  await stopListeningAll(live);
  await Promise.all(
    [...live].map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.isDead()) return resolve();
          const kill = setTimeout(() => w.process.kill('SIGKILL'), STOP_MS);
          w.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          w.process.kill('SIGTERM');
        }),
    ),
  );
}

/** In a worker: tell the primary this worker listens, and stop listening when the primary asks. */
export function reportReady(url: string, line: string, stopListening: () => void): void {
  process.on('message', (m: { type?: string }) => {
    if (m?.type !== STOP_LISTENING) return;
    stopListening();
    // Sent after the server's own close message on the same channel: the primary has removed this
    // worker from its listeners when it reads this.
    process.send?.({ type: NOT_LISTENING });
  });
  process.send?.({ type: 'toolmem-ready', url, line } satisfies WorkerReady);
}
