// Entry of the parse worker: the CLI runs TypeScript through tsx, whose loader is registered per
// thread, so the worker registers it before importing its TypeScript body (memory-worker.ts).
// First the lowest CPU priority for this thread only (Linux sets nice values per thread), before
// the loader and the parser's modules are compiled: on a busy machine the thread that answers
// requests always runs before this one, its start included.
import { setPriority } from 'node:os';

try {
  setPriority(19);
} catch {
  /* not permitted here: the parse still runs off the request thread */
}
const { register } = await import('tsx/esm/api');
register();
await import(new URL('./memory-worker.ts', import.meta.url).href);
