/**
 * Worker-to-worker calls over a MessagePort. A worker that serves others (the llm worker, the embed
 * worker) answers `connect` by serving its API on the port it is given; a worker that uses it
 * answers an `attach…` method by keeping a client of that port. The page creates each channel
 * (src/ui/workers.ts), so one model in one worker serves every consumer.
 */
import { CancelledError } from '../core/errors';
import { createClient, type WorkerClient } from './client';
import { WorkerCrashedError } from './errors';
import type { ApiSpec, CallOptions, Client, MethodName } from './protocol';

/** A method that hands over a port: `connect` on the serving worker, `attach…` on a consumer. */
export interface PortSpec {
  req: { port: MessagePort };
  res: null;
  progress: never;
}

/** What a worker that serves other workers adds to its API. */
export interface ConnectApi {
  /** Serves this worker's API on `port` too (for another worker). */
  connect: PortSpec;
}

/** How long a call waits for the first port before failing: the page sends it as the worker starts. */
const FIRST_PORT_MS = 10_000;

/**
 * A consumer's side: the client of the latest port received. A new port (the serving worker was
 * restarted after a crash) replaces the client, and calls still pending on the old one fail with
 * a WorkerCrashedError that says so. As a {@link Client} it always calls through the latest port,
 * waiting (at most 10 s) for the first one.
 */
export class PortClient<A extends ApiSpec<A>> implements Client<A> {
  private latest: WorkerClient<A> | null = null;
  private readonly waiting = new Set<(client: WorkerClient<A>) => void>();

  /** `serves` names the serving worker in messages ("The embed worker"). */
  constructor(private readonly serves: string) {}

  call<K extends MethodName<A>>(method: K, req: A[K]['req'], opts?: CallOptions<A[K]['progress']>): Promise<A[K]['res']> {
    if (opts?.signal?.aborted) return Promise.reject(new CancelledError());
    return this.ready().then((client) => client.call(method, req, opts));
  }

  /** The client of the latest port, or null before the first one arrived. */
  get current(): WorkerClient<A> | null {
    return this.latest;
  }

  /** The consumer's `attach…` handler (e.g. `attachEmbed`): keeps the port it is sent. */
  readonly handler = ({ port }: PortSpec['req']): null => {
    this.attach(port);
    return null;
  };

  attach(port: MessagePort): void {
    this.latest?.dispose(`${this.serves} was restarted while this call was waiting on it; try again.`);
    const client = createClient<A>(port);
    this.latest = client;
    for (const wake of this.waiting) wake(client);
    this.waiting.clear();
  }

  private ready(): Promise<WorkerClient<A>> {
    if (this.latest) return Promise.resolve(this.latest);
    return new Promise<WorkerClient<A>>((resolve, reject) => {
      const wake = (client: WorkerClient<A>): void => {
        clearTimeout(timer);
        resolve(client);
      };
      const timer = setTimeout(() => {
        this.waiting.delete(wake);
        reject(new WorkerCrashedError(`${this.serves} is not connected (no port arrived within ${FIRST_PORT_MS / 1000} s); reload the page.`));
      }, FIRST_PORT_MS);
      this.waiting.add(wake);
    });
  }
}
