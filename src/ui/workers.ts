import { createClient, type ApiSpec, type WorkerClient } from '../rpc';
import type { ImportApi } from '../services/import-api';
import type { LabelApi } from '../services/label-api';
import type { MemoryApi } from '../services/memory-api';
import type { EvalApi } from '../services/eval-api';
import type { LlmApi } from '../services/llm-api';

/** The data worker serves imports and labelling queries. */
export type DataApi = ImportApi & LabelApi;

/**
 * One worker per kind and tab, started lazily on first use. When it crashes, the next call starts
 * a fresh one (the crashed call rejects with WorkerCrashedError and the UI offers a retry).
 * `start` must contain the literal `new Worker(new URL(…, import.meta.url))` so Vite bundles it.
 */
function lazyWorker<A extends ApiSpec<A>>(start: () => Worker, hooks: { started?: (client: WorkerClient<A>) => void; crashed?: () => void } = {}): () => WorkerClient<A> {
  let current: WorkerClient<A> | null = null;
  return () => {
    if (!current) {
      const worker = start();
      const client = createClient<A>(worker);
      worker.addEventListener('error', () => {
        if (current === client) current = null;
        hooks.crashed?.();
      });
      current = client;
      hooks.started?.(client);
    }
    return current;
  };
}

/** Workers that call in-browser models: each gets a MessagePort to the llm worker. */
type LlmConsumer = WorkerClient<{ attachLlm: { req: { port: MessagePort }; res: null; progress: never } }>;
const llmConsumers = new Set<LlmConsumer>();

/** Gives `consumer` a fresh channel to the (possibly new) llm worker; its old channel is dropped. */
function attachLlm(consumer: LlmConsumer): void {
  const channel = new MessageChannel();
  void llmWorker().call('connect', { port: channel.port1 }, { transfer: [channel.port1] }).catch(() => undefined);
  void consumer.call('attachLlm', { port: channel.port2 }, { transfer: [channel.port2] }).catch(() => undefined);
}

function consumesLlm<A extends ApiSpec<A>>(): { started: (client: WorkerClient<A>) => void; crashed?: () => void } {
  let mine: LlmConsumer | null = null;
  return {
    started(client) {
      if (mine) llmConsumers.delete(mine);
      mine = client as unknown as LlmConsumer;
      llmConsumers.add(mine);
      attachLlm(mine);
    },
  };
}

/**
 * In-browser language models (wllama, WebLLM). When it crashes, the workers that use it are
 * re-attached to a fresh one at once (their pending calls fail; the next ones work).
 */
export const llmWorker: () => WorkerClient<LlmApi> = lazyWorker<LlmApi>(() => new Worker(new URL('../../workers/llm.worker.ts', import.meta.url), { type: 'module', name: 'llm' }), {
  crashed: () => {
    for (const consumer of llmConsumers) attachLlm(consumer);
  },
});

/** Imports, dataset statistics, exports, image attachment and labelling queues. */
export const importWorker = lazyWorker<DataApi>(() => new Worker(new URL('../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' }));

/** Memory builds (embeddings + LLM calls), undo and export. */
export const memoryWorker = lazyWorker<MemoryApi>(() => new Worker(new URL('../../workers/memory.worker.ts', import.meta.url), { type: 'module', name: 'memory' }), consumesLlm<MemoryApi>());

/** Evaluations and predictions (fits predictors over whole datasets). */
export const evalWorker = lazyWorker<EvalApi>(() => new Worker(new URL('../../workers/eval.worker.ts', import.meta.url), { type: 'module', name: 'eval' }), consumesLlm<EvalApi>());
