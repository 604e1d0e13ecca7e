// Entry of the parse worker: the CLI runs TypeScript through tsx, whose loader is registered per
// thread, so the worker registers it before importing its TypeScript body (memory-worker.ts).
import { register } from 'tsx/esm/api';

register();
await import(new URL('./memory-worker.ts', import.meta.url).href);
