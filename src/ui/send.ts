/**
 * The page's one way to the workers: `send(method, req, opts)`, typed by the method's spec and
 * routed by the table below to the worker that serves it, so no page or state class picks a worker
 * by hand. Progress and cancellation travel as with any RPC call (src/rpc): `opts.onProgress`,
 * `opts.signal`. State classes take a `Send` in their constructor (tests hand them a fake one).
 *
 * Constraint: a method name means one operation on one worker — the table's type rejects a name two
 * workers serve. The ports between workers (`connect`, `attachEmbed`, `attachLlm`) and the engine
 * calls an in-browser model makes through its own client (`load`, `chat`: src/model-host/worker-engine.ts)
 * are not the page's business and stay out.
 */
import type { CallOptions, Client } from '../rpc';
import type { EmbedApi } from '../model-host/embed-api';
import type { EmbedDatasetApi } from '../model-host/embed-dataset';
import type { EvalApi } from '../app/evaluate/api';
import type { LlmApi } from '../model-host/llm-api';
import type { MemoryApi } from '../app/memory/api';
import { dataWorker, embedWorker, llmWorker, memoryWorker, predictorsWorker, type DataApi } from './workers';

/** What the page may ask of each worker. */
export interface PageApis {
  data: DataApi;
  memory: Omit<MemoryApi, 'attachLlm'>;
  predictors: Omit<EvalApi, 'attachLlm'>;
  embed: EmbedApi & EmbedDatasetApi;
  llm: Omit<LlmApi, 'load' | 'chat' | 'connect'>;
}
export type WorkerKind = keyof PageApis;

type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Every method the page calls, whichever worker serves it. */
export type UiApi = Intersect<PageApis[WorkerKind]>;
export type UiMethod = keyof UiApi & string;

/** The worker kinds whose API has method `M`: exactly one, or the table below does not type-check. */
type ServedBy<M extends string> = { [K in WorkerKind]: M extends keyof PageApis[K] ? K : never }[WorkerKind];

/** Method → the worker that serves it (complete: the type lists every method of `PageApis`). */
const ROUTES: { readonly [M in UiMethod]: ServedBy<M> } = {
  preview: 'data',
  samples: 'data',
  import: 'data',
  nearMissTools: 'data',
  countRows: 'data',
  undo: 'data',
  attachImages: 'data',
  exportExperiences: 'data',
  stats: 'data',
  toolCosts: 'data',
  recover: 'data',
  labelQueue: 'data',
  agreement: 'data',
  saveLabel: 'data',
  restoreLabel: 'data',
  savePreference: 'data',
  restorePreference: 'data',
  addItem: 'data',
  setRaterPolicy: 'data',
  removeDataset: 'data',
  saveTool: 'data',
  setExamplePrices: 'data',
  toggleTestCase: 'data',
  restoreBackup: 'data',
  resetData: 'data',
  recoverRuns: 'data',
  pairwiseDataset: 'data',
  createBuild: 'memory',
  build: 'memory',
  runBuild: 'memory',
  exportMemory: 'memory',
  undoMemory: 'memory',
  reviseEntry: 'memory',
  retireEntry: 'memory',
  importMemory: 'memory',
  drift: 'memory',
  runTestCases: 'memory',
  evaluate: 'predictors',
  predict: 'predictors',
  info: 'embed',
  load: 'embed',
  embed: 'embed',
  setModel: 'embed',
  embedDataset: 'embed',
  unload: 'llm',
  loaded: 'llm',
  webgpu: 'llm',
  webllmModels: 'llm',
  saveModelFile: 'llm',
  modelFiles: 'llm',
  deleteModelFile: 'llm',
};

/** The worker that serves `method`. */
export function routeOf(method: UiMethod): WorkerKind {
  return ROUTES[method];
}

export type Send = <M extends UiMethod>(method: M, req: UiApi[M]['req'], opts?: CallOptions<UiApi[M]['progress']>) => Promise<UiApi[M]['res']>;

export interface WorkerClients {
  data(): Client<DataApi>;
  memory(): Client<MemoryApi>;
  predictors(): Client<EvalApi>;
  embed(): Client<EmbedApi & EmbedDatasetApi>;
  llm(): Client<LlmApi>;
}

/** No client was given for the worker a method is routed to (a test's partial `send`). */
export class NoWorkerError extends Error {
  override name = 'NoWorkerError';
}

/** A `send` over the given clients (each started on first use); tests give only the workers they use. */
export function createSend(clients: Partial<WorkerClients>): Send {
  return (method, req, opts) => {
    const kind = routeOf(method);
    const client = clients[kind];
    if (!client) return Promise.reject(new NoWorkerError(`send('${method}'): no client for the ${kind} worker, which serves it.`));
    // The route picked the worker whose API has `method`, so its client takes the same request.
    return (client() as unknown as Client<UiApi>).call(method, req, opts);
  };
}

/** The tab's `send`, over its lazily started workers (src/ui/workers.ts). */
export const send: Send = createSend({ data: dataWorker, memory: memoryWorker, predictors: predictorsWorker, embed: embedWorker, llm: llmWorker });
