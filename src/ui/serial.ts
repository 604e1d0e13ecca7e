/**
 * Runs actions one after another. Key presses can come faster than IndexedDB writes; each queued
 * action then runs on the state its predecessors left (e.g. the item now on screen), never twice
 * on the same one. A failing action reports its error and does not stop the queue.
 */
export function serialQueue(onError: (message: string) => void): (action: () => Promise<unknown>) => void {
  let chain: Promise<unknown> = Promise.resolve();
  return (action) => {
    chain = chain.then(action).catch((err: unknown) => onError(err instanceof Error ? err.message : String(err)));
  };
}
