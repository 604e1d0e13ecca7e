/// <reference lib="webworker" />
// Thin host for evaluations and predictions: fitting predictors over thousands of experiences
// and embedding prompts must never block the UI.
import { expose, workerScopeEndpoint } from '../src/rpc';
import { ToolMemDB, createRepositories } from '../src/db';
import { EMBEDDING_MODEL_KEY } from '../src/db/embedding-store';
import { createBrowserEmbedHost } from '../src/services/embed-browser';
import { BUNDLED_EMBED_MODEL } from '../src/services/embed-api';
import type { Embedder } from '../src/core/embed';
import { createEvalHandlers } from '../src/services/eval-service';
import type { EvalApi } from '../src/services/eval-api';

const db = new ToolMemDB();
const host = createBrowserEmbedHost();
let loading: Promise<Embedder | null> | null = null;

expose<EvalApi>(
  createEvalHandlers({
    repos: createRepositories(db),
    embedder() {
      loading ??= (async () => {
        const row = await db.settings.get(EMBEDDING_MODEL_KEY);
        const model = typeof row?.value === 'string' && row.value ? row.value : BUNDLED_EMBED_MODEL;
        // Without a model the methods fall back to lexical features (they treat vectors as optional).
        return host.load(model, () => undefined).then((m) => m.embedder, () => null);
      })();
      return loading;
    },
  }),
  workerScopeEndpoint(),
);
