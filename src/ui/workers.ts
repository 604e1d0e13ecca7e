import { createClient, type ApiSpec, type Client, type ConnectApi, type PortSpec, type WorkerClient } from '../rpc';
import type { ImportApi } from '../app/import/api';
import type { LabelApi } from '../app/label/api';
import type { StorageApi } from '../app/storage/api';
import type { MemoryApi } from '../app/memory/api';
import type { EvalApi } from '../app/evaluate/api';
import type { LlmApi } from '../model-host/llm-api';
import type { EmbedApi, EmbedPortApi } from '../model-host/embed-api';
import type { EmbedDatasetApi } from '../model-host/embed-dataset';

/** The data worker serves imports, labelling queries and the store-wide writes (restore, reset, run recovery). */
export type DataApi = ImportApi & LabelApi & StorageApi;

/**
 * One worker per kind and tab, started lazily on first use. When it crashes, the next call starts
 * a fresh one (the crashed call rejects with WorkerCrashedError and the UI offers a retry).
 * `start` must contain the literal `new Worker(new URL(…, import.meta.url))` so Vite bundles it.
 */
function lazyWorker<A extends ApiSpec<A>>(
  start: () => Worker,
  hooks: { started?: (client: WorkerClient<A>) => void; crashed?: () => void } = {},
): () => WorkerClient<A> {
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

/**
 * A worker that serves other workers (the llm and embed workers) and the workers it serves. Each
 * consumer gets a fresh channel when it starts, and all of them again at once when the serving
 * worker crashes and is replaced (their pending calls through the old channel fail; the next ones
 * work). Consumers are kept by name, so a restarted consumer replaces its former self.
 */
class PortHub {
  private readonly consumers = new Map<string, (port: MessagePort) => Promise<unknown>>();

  constructor(private readonly server: () => Client<ConnectApi>) {}

  /** Registers `client` under `name` and sends it a port through its `method` (e.g. `attachLlm`). */
  serve<M extends string>(name: string, client: Client<Record<M, PortSpec>>, method: M): void {
    const attach = (port: MessagePort) => client.call(method, { port }, { transfer: [port] });
    this.consumers.set(name, attach);
    this.connect(attach);
  }

  /** The serving worker was replaced: every consumer gets a channel to the new one. */
  reconnectAll(): void {
    for (const attach of this.consumers.values()) this.connect(attach);
  }

  private connect(attach: (port: MessagePort) => Promise<unknown>): void {
    const channel = new MessageChannel();
    // A consumer or server that has died meanwhile is restarted, and reconnected, on its next use.
    void this.server()
      .call('connect', { port: channel.port1 }, { transfer: [channel.port1] })
      .catch(() => undefined);
    void attach(channel.port2).catch(() => undefined);
  }
}

const llmHub = new PortHub(() => llmWorker());
const embedHub = new PortHub(() => embedWorker());

/** A worker that embeds and may call in-browser models: ports to the embed and llm workers. */
function consumer(name: string): (client: Client<EmbedPortApi & { attachLlm: PortSpec }>) => void {
  return (client) => {
    embedHub.serve(name, client, 'attachEmbed');
    llmHub.serve(name, client, 'attachLlm');
  };
}

/** In-browser language models (wllama, WebLLM), for the page and, through ports, the memory and predictors workers. */
export const llmWorker: () => WorkerClient<LlmApi> = lazyWorker<LlmApi>(
  () => new Worker(new URL('../../workers/llm.worker.ts', import.meta.url), { type: 'module', name: 'llm' }),
  {
    crashed: () => llmHub.reconnectAll(),
  },
);

/**
 * The tab's one embedding model and its cache (the model loads lazily, so starting it is cheap):
 * Settings and dataset precomputation call it here, the memory and predictors workers through ports.
 */
export const embedWorker: () => WorkerClient<EmbedApi & EmbedDatasetApi & ConnectApi> = lazyWorker<EmbedApi & EmbedDatasetApi & ConnectApi>(
  () => new Worker(new URL('../../workers/embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' }),
  { crashed: () => embedHub.reconnectAll() },
);

/** Imports, dataset statistics, exports, image attachment and labelling queues. */
export const dataWorker = lazyWorker<DataApi>(() => new Worker(new URL('../../workers/data.worker.ts', import.meta.url), { type: 'module', name: 'data' }));

/** Memory builds (embeddings + LLM calls), undo and export. */
export const memoryWorker = lazyWorker<MemoryApi & EmbedPortApi>(
  () => new Worker(new URL('../../workers/memory.worker.ts', import.meta.url), { type: 'module', name: 'memory' }),
  {
    started: consumer('memory'),
  },
);

/** Evaluations and predictions (fits predictors over whole datasets). */
export const predictorsWorker = lazyWorker<EvalApi & EmbedPortApi>(
  () => new Worker(new URL('../../workers/predictors.worker.ts', import.meta.url), { type: 'module', name: 'predictors' }),
  {
    started: consumer('predictors'),
  },
);
