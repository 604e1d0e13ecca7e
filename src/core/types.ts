/**
 * Domain types shared by the browser app, the workers, the Node CLI and the tests.
 * Constraint: this module (and all of src/core) must not import DOM, Dexie, Svelte or model libraries.
 * This is the ground floor: it imports nothing, so every feature may import it without a cycle.
 * Rows whose shape ties features together (a Memory, its entries, the Runs) live in records.ts.
 */

export type Modality = 'text→text' | 'text→image' | 'other';

export interface Tool {
  /** Stable id; equal to the tool name as it appears in data (e.g. `DALLE_3`). */
  id: string;
  name: string;
  modality: Modality;
  description: string;
  /** Optional JSON Schema of the tool's input, as text (shown on its card; agents may use it). */
  inputSchema?: string;
  /** Pinned tasks (the tool's regression set): test-case runs predict them with the memory. */
  testCases?: { datasetId: string; taskId: string }[];
  /** What one use costs, as set on the tool's card (absent: the data's median cost, if any). */
  price?: ToolPrice;
  /** Typical wall time of one use in milliseconds, as set on the card (absent: the data's median). */
  latencyMs?: number;
  createdAt: number;
}

/** A tool's price as the user states it (core/cost/tool-cost.ts turns it into a cost per call). */
export interface ToolPrice {
  /** US dollars per `per` (the unit promptfoo logs costs in), ≥ 0. */
  amount: number;
  per: 'call' | '1k-tokens';
  /** Tokens one call uses: needed to turn a per-1k-tokens price into a cost per call. */
  tokensPerCall?: number;
  /** An illustrative price the app filled in (the demo's), not one the user typed. */
  example?: boolean;
}

export type ScoreDirection = 'higher-better' | 'lower-better';

export interface ScoreScale {
  min: number;
  max: number;
  direction: ScoreDirection;
  /** True when only whole numbers are valid scores (e.g. 1–5 Likert ratings). */
  integer: boolean;
}

/** How the ground-truth score of a (task, tool) pair is chosen when several raters scored it. */
export type RaterPolicy = { kind: 'rater'; rater: string } | { kind: 'mean' } | { kind: 'median' };

export type PresetId =
  | 'genai-bench'
  | 'genai-bench-long'
  | 'biggen'
  | 'alpaca-eval'
  | 'prometheus'
  | 'promptfoo'
  | 'inspect'
  | 'lm-eval-harness'
  | 'openai-evals'
  | 'helm'
  | 'generic';

export interface Dataset {
  /** Slug of the name; also the key experiences point to. */
  id: string;
  name: string;
  /** Where it came from: a file name, a preset, or `manual` for hand labelling. */
  source: string;
  /** `pairwise`: derived from a dataset's pairwise judgements (core/label/pairwise-evidence). */
  preset: PresetId | 'manual' | 'pairwise';
  scale: ScoreScale;
  raterPolicy: RaterPolicy;
  createdAt: number;
}

export type Split = 'train' | 'test';
/** Who produced the score: a person, an LLM judge, or a model/predictor. */
export type ScoreSource = 'human' | 'judge' | 'model';

export interface Experience {
  /** Deterministic key `datasetId|taskId|toolId|rater` so that re-imports are idempotent. */
  id: string;
  datasetId: string;
  taskId: string;
  prompt: string;
  toolId: string;
  /** Text output of the tool, when it produced text. */
  response?: string;
  /** Key into the image store, when the tool produced an image. */
  imageId?: string;
  score: number;
  rater: string;
  scoreSource: ScoreSource;
  rubric?: string;
  feedback?: string;
  /** True when `feedback` was written by an LLM rather than imported or typed by a person. */
  feedbackGenerated?: boolean;
  categories: string[];
  split?: Split;
  /** Cost of the attempt in US dollars, when the imported log records it (promptfoo). */
  cost?: number;
  /** Wall time of the attempt in milliseconds, when the imported log records it (promptfoo, Inspect). */
  latencyMs?: number;
  /** The provider's own id of the model that answered, when it differs from the tool id (Inspect: `gpt-4o-mini-2024-07-18` under `openai/gpt-4o-mini`). */
  modelVersion?: string;
  /** Import that created (or last changed) this row; `manual` for hand labels. */
  importId: string;
  createdAt: number;
}

export type Level = 'proficient' | 'good' | 'bad' | 'weak';
export const LEVELS: readonly Level[] = ['proficient', 'good', 'bad', 'weak'] as const;
export const LEVEL_VALUE: Readonly<Record<Level, 2 | 1 | -1 | -2>> = {
  proficient: 2,
  good: 1,
  bad: -1,
  weak: -2,
};

export type EntryOrigin = 'llm' | 'stats' | 'manual' | 'critique';

export type RunState = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'blocked' | 'cancelled' | 'not-run';

export interface Evidence {
  kind: 'entry' | 'experience';
  id: string;
  similarity: number;
}

export type ImportState = 'running' | 'completed' | 'failed' | 'cancelled' | 'undone';

export interface RowError {
  file: string;
  /** 1-based data row number (header excluded for CSV; line number for JSONL; member index for JSON). */
  row: number;
  column: string;
  reason: string;
  /** The raw record, so rejected rows can be downloaded and fixed. */
  raw?: Record<string, unknown>;
}

export interface ImportRecord {
  id: string;
  datasetId: string;
  fileName: string;
  preset: PresetId;
  state: ImportState;
  rowsRead: number;
  accepted: number;
  /** Rows already stored with identical content (idempotent re-import). */
  unchanged: number;
  /** Rows that replaced a stored row with different content (undo restores the old one). */
  updated: number;
  rejected: number;
  /** Rows without a score kept as outputs awaiting labels (absent on records from before issue #26). */
  unscored?: number;
  /** First errors, for display; the full list lives in the rejected-rows download. */
  errors: RowError[];
  startedAt: number;
  finishedAt?: number;
}

export interface StoredImage {
  id: string;
  datasetId: string;
  /** Original file name (untrusted; render as text). */
  name: string;
  mime: string;
  blob: Blob;
  thumb?: Blob;
}

/**
 * An output waiting for labels that no experience holds yet: created by hand on the Label page, or
 * imported from a row without a score (core/import/validate.ts). Items of scored rows are derived
 * from their experiences instead; a label (or a later import with scores) completes the item under
 * the same `datasetId|taskId|toolId`, and the item row stays as the output's record.
 */
export interface LabelItem {
  /** `datasetId|taskId|toolId`. */
  id: string;
  datasetId: string;
  taskId: string;
  toolId: string;
  prompt: string;
  response?: string;
  imageId?: string;
  rubric?: string;
  categories: string[];
  createdAt: number;
  /**
   * The import that wrote this item (a row without a score: an output awaiting labels); absent for
   * items added by hand. Undoing or rolling back that import removes the items it added.
   */
  importId?: string;
}

/** A pairwise judgement: which of two tools' outputs for the same task is better. */
export interface Preference {
  /** `datasetId|taskId|toolA|toolB|rater` with toolA < toolB. */
  id: string;
  datasetId: string;
  taskId: string;
  toolA: string;
  toolB: string;
  winner: 'A' | 'B' | 'tie';
  rater: string;
  /** Which tool was shown on the left (positions are randomised against position bias). */
  shownLeft: string;
  createdAt: number;
}
