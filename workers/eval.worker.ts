/// <reference lib="webworker" />
// Thin host for evaluations and predictions: fitting predictors over thousands of experiences
// and embedding prompts must never block the UI.
import { createClient, expose, workerScopeEndpoint, type WorkerClient } from '../src/rpc';
import { ToolMemDB, createRepositories } from '../src/db';
import { EMBEDDING_MODEL_KEY } from '../src/db/embedding-store';
import { createBrowserEmbedHost } from '../src/services/embed-browser';
import { BUNDLED_EMBED_MODEL } from '../src/services/embed-api';
import type { Embedder } from '../src/core/embed';
import { createEngine, formatEngineSpec, isBrowserEngine, LlmUnavailableError, parseEngineSpec } from '../src/core/llm';
import { WorkerLlmEngine } from '../src/llm/worker-engine';
import type { LlmApi } from '../src/services/llm-api';
import { getSetting } from '../src/db/settings';
import { createEvalHandlers } from '../src/services/eval-service';
import type { EvalApi } from '../src/services/eval-api';
import { browserLocks } from '../src/services/liveness';
import { withRunLocks } from '../src/services/run-recovery';

const db = new ToolMemDB();
const host = createBrowserEmbedHost();
let loading: Promise<Embedder | null> | null = null;
let llm: WorkerClient<LlmApi> | null = null;

expose<EvalApi>(
  createEvalHandlers({
    // Each running evaluation holds a Web Lock, so a reload or crash mid-run is recognised at startup.
    repos: withRunLocks(createRepositories(db), browserLocks()),
    embedder() {
      loading ??= (async () => {
        const row = await db.settings.get(EMBEDDING_MODEL_KEY);
        const model = typeof row?.value === 'string' && row.value ? row.value : BUNDLED_EMBED_MODEL;
        // Without a model the methods fall back to lexical features (they treat vectors as optional).
        return host.load(model, () => undefined).then((m) => m.embedder, () => null);
      })();
      return loading;
    },
    // LLM methods: endpoints are called from here; in-browser models (wllama / WebLLM) run in the llm
    // worker, reached through the port the page sends.
    engine: async (text) => {
      const spec = parseEngineSpec(text);
      if (isBrowserEngine(spec)) {
        if (!llm) throw new LlmUnavailableError('The in-browser model is not connected yet; try again in a moment.');
        return new WorkerLlmEngine(llm, formatEngineSpec(spec));
      }
      return createEngine(spec, { apiKey: (await getSetting(db, 'llmApiKey')) || undefined });
    },
    onLlmPort(port) {
      llm?.dispose();
      llm = createClient<LlmApi>(port);
    },
  }),
  workerScopeEndpoint(),
);
