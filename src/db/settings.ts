import type { QueueFilter } from '../core/label/queue';
import type { ToolMemDB } from './schema';

/** Typed key/value settings kept in IndexedDB (per browser profile). */
export interface Settings {
  raterName: string;
  persistRequested: boolean;
  /** Where the labelling queue was left: its filter and the item on screen. */
  /** Where the labelling queue was left; `builtAt`: when that queue was built (absent before issue #26). */
  labelSession: { filter: QueueFilter; itemId: string | null; builtAt?: number } | null;
  /** Pairwise mode: dataset, the two tools and the task on screen. */
  pairSession: { datasetId: string; toolA: string; toolB: string; taskId: string | null } | null;
  /** Memory builds: the OpenAI-compatible endpoint last used (base URL and model). */
  llmEndpoint: { baseUrl: string; model: string } | null;
  /** API key for that endpoint; kept only in this browser profile, never exported. */
  llmApiKey: string;
  /**
   * The language model chosen in Settings, as an engine spec (core/llm/spec): `none`,
   * `openai:URL#MODEL`, `wllama:URL` or `webllm:MODEL_ID`. Memory builds and LLM predictors use it.
   */
  llmEngine: string;
  /** Predict page: cost of one use per tool id, and score points given up per unit of cost. */
  /** Tool id → cost; read it with core/data-keys `own`/`mapOf` (tool ids come from data). */
  toolCosts: Record<string, number>;
  costWeight: number;
  /** Label page: image datasets the user chose to score without their images attached (dataset ids). */
  labelWithoutImages: string[];
}

export const DEFAULT_SETTINGS: Settings = {
  raterName: '',
  persistRequested: false,
  labelSession: null,
  pairSession: null,
  llmEndpoint: null,
  llmApiKey: '',
  llmEngine: 'none',
  toolCosts: {},
  costWeight: 0,
  labelWithoutImages: [],
};

export async function getSetting<K extends keyof Settings>(db: ToolMemDB, key: K): Promise<Settings[K]> {
  const row = await db.settings.get(key);
  return row === undefined ? DEFAULT_SETTINGS[key] : (row.value as Settings[K]);
}

export async function setSetting<K extends keyof Settings>(db: ToolMemDB, key: K, value: Settings[K]): Promise<void> {
  await db.settings.put({ key, value });
}
