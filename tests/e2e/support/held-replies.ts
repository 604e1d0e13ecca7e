import type { Page } from '@playwright/test';

/**
 * Holds back the data worker's answers to `labelQueue` for chosen datasets, so a test can make a
 * queue slow for as long as it likes (no timers: the answer arrives when the test releases it).
 *
 * It works at the page's end of the worker channel and changes nothing in the app: an init script
 * wraps `Worker` so that the page's RPC client (src/rpc/client.ts) sees an answer to a held call only
 * once it is released. Calls are recognised by the RPC messages themselves (`rpc:request` with method
 * `labelQueue`, then the `rpc:result` / `rpc:error` with the same id).
 */
export class HeldQueueReplies {
  constructor(private readonly page: Page) {}

  /** Installs the wrapper; call before the page loads (it runs in every document of the page). */
  static async install(page: Page): Promise<HeldQueueReplies> {
    await page.addInitScript(() => {
      type Held = { datasets: string[]; deliver: () => void };
      const state = { hold: [] as string[], held: [] as Held[] };
      Object.defineProperty(window, '__heldQueueReplies', { value: state });
      const Real = window.Worker;
      class HoldingWorker extends Real {
        readonly #calls = new Map<number, string[]>();
        override postMessage(message: unknown, options?: StructuredSerializeOptions | Transferable[]): void {
          const m = message as { type?: string; id?: number; method?: string; req?: { filter?: { datasetIds?: string[] } } } | null;
          if (m?.type === 'rpc:request' && m.method === 'labelQueue' && typeof m.id === 'number') this.#calls.set(m.id, m.req?.filter?.datasetIds ?? []);
          super.postMessage(message, options as StructuredSerializeOptions);
        }
        override addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void {
          if (type !== 'message' || typeof listener !== 'function') return super.addEventListener(type, listener, options);
          super.addEventListener(
            type,
            (event: Event) => {
              const data = (event as MessageEvent).data as { type?: string; id?: number } | null;
              const datasets = typeof data?.id === 'number' && (data.type === 'rpc:result' || data.type === 'rpc:error') ? this.#calls.get(data.id) : undefined;
              if (datasets && datasets.some((d) => state.hold.some((h) => d.includes(h)))) {
                state.held.push({ datasets, deliver: () => listener.call(this, event) });
                return;
              }
              listener.call(this, event);
            },
            options,
          );
        }
      }
      window.Worker = HoldingWorker;
    });
    return new HeldQueueReplies(page);
  }

  /** From now on, answers for queues of a dataset whose id contains one of `parts` are held. */
  async hold(...parts: string[]): Promise<void> {
    await this.page.evaluate((p) => {
      (window as unknown as { __heldQueueReplies: { hold: string[] } }).__heldQueueReplies.hold = p;
    }, parts);
  }

  /** How many answers are held now. */
  async count(): Promise<number> {
    return this.page.evaluate(() => (window as unknown as { __heldQueueReplies: { held: unknown[] } }).__heldQueueReplies.held.length);
  }

  /** Delivers the held answers for datasets whose id contains `part` (and stops holding them). */
  async release(part: string): Promise<void> {
    await this.page.evaluate((p) => {
      const state = (window as unknown as { __heldQueueReplies: { hold: string[]; held: { datasets: string[]; deliver: () => void }[] } }).__heldQueueReplies;
      state.hold = state.hold.filter((h) => h !== p);
      const go = state.held.filter((h) => h.datasets.some((d) => d.includes(p)));
      state.held = state.held.filter((h) => !go.includes(h));
      for (const h of go) h.deliver();
    }, part);
  }
}
