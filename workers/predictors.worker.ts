/// <reference lib="webworker" />
// Thin host of the predictors: Evaluate (every method fitted and scored over a dataset) and Predict
// (a fitted method asked about a new task); fitting over thousands of experiences must never block
// the UI. Prompts are embedded by the embed worker (one model and one cache per tab) and in-browser
// LLMs run in the llm worker, both reached through ports the page sends.
import { PortClient, expose, workerScopeEndpoint } from '../src/rpc';
import { ToolMemDB, createRepositories } from '../src/db';
import type { EmbedApi, EmbedPortApi } from '../src/model-host/embed-api';
import { remoteEmbedder } from '../src/model-host/embed-remote';
import { llmWorkerEngines } from '../src/model-host/worker-engine';
import type { LlmApi } from '../src/model-host/llm-api';
import { getSetting } from '../src/db/settings';
import { createEvalHandlers } from '../src/app/evaluate/evaluate';
import type { EvalApi } from '../src/app/evaluate/api';
import { browserLocks } from '../src/platform/locks';
import { withRunLocks } from '../src/app/storage/run-recovery';

const db = new ToolMemDB();
const embed = new PortClient<EmbedApi>('The embed worker');
const llm = new PortClient<LlmApi>('The llm worker');

expose<EvalApi & EmbedPortApi>(
  {
    ...createEvalHandlers({
      // Each running evaluation holds a Web Lock, so a reload or crash mid-run is recognised at startup.
      repos: withRunLocks(createRepositories(db), browserLocks()),
      // The active model, through the shared cache. Without a model the methods fall back to
      // lexical features (they treat vectors as optional).
      embedder: () => remoteEmbedder(embed).catch(() => null),
      // LLM methods: endpoints are called from here; in-browser models (wllama / WebLLM) run in the llm worker.
      engineOf: llmWorkerEngines(() => llm.current),
      apiKey: async () => (await getSetting(db, 'llmApiKey')) || undefined,
      onLlmPort: (port) => llm.attach(port),
    }),
    attachEmbed: embed.handler,
  },
  workerScopeEndpoint(),
);
