/**
 * Types of the streaming import pipeline. Pure TypeScript: shared by the data worker (browser),
 * the CLI (Node) and the tests, so nothing here may depend on a runtime.
 */
import type { Dict } from '../data-keys';
import type { Experience, LabelItem, Modality, PresetId, RaterPolicy, RowError, ScoreScale, ScoreSource } from '../types';

/** Outcome of writing one batch of imported experiences. */
export interface BatchWriteResult {
  added: number;
  updated: number;
  unchanged: number;
}

/** Physical file formats the readers understand. */
export type InputFormat = 'csv' | 'jsonl' | 'json' | 'parquet' | 'eval';

/** Canonical fields a generic mapping can point at a column. */
export type CanonicalField = 'id' | 'prompt' | 'tool' | 'score' | 'response' | 'feedback' | 'rubric' | 'category' | 'rater' | 'image';

/** Canonical field → column name in the file. */
export type FieldMapping = Partial<Record<CanonicalField, string>>;

/** One record as read from the file, before any preset looked at it. */
export interface SourceRecord {
  /** 1-based data row (CSV, header excluded), line (JSONL) or member index (JSON). */
  row: number;
  /** Member key when the JSON top level is an object. */
  key?: string;
  data: Record<string, unknown>;
}

/** A record or a problem with one record; fatal problems are thrown as ParseError instead. */
export type ReadItem = { record: SourceRecord; error?: undefined } | { error: RowError; record?: undefined };

/** Preset output: one experience-to-be, not yet validated. */
export interface CanonicalRow {
  taskId: string;
  prompt: string;
  tool: string;
  /** As found in the file; validation turns it into a number. */
  score: string | number | null | undefined;
  rater: string;
  response?: string;
  feedback?: string;
  rubric?: string;
  categories: string[];
  image?: string;
  /** Cost of the attempt in US dollars, when the log records it (promptfoo `cost`). */
  cost?: number;
  /** Wall time of the attempt in milliseconds, when the log records it. */
  latencyMs?: number;
  /** The provider's own id of the model that answered (dated: `gpt-4o-mini-2024-07-18`), when it differs from the tool id. */
  modelVersion?: string;
  /**
   * The scale the format itself gives this score (scale-inference.ts): 0–1 for a binary scorer
   * (C/I, true/false, pass/fail) or a metric defined on 0–1. Decides the scale when the values cannot.
   */
  scaleHint?: ScaleHint;
  scoreSource: ScoreSource;
  /** Where the row came from, so errors can name the row and column. */
  source: {
    row: number;
    columns: FieldMapping;
    raw: Record<string, unknown>;
    /** Fields the preset rendered as text from a structured value on purpose (chat messages → lines). */
    rendered?: readonly CanonicalField[];
  };
}

/** A scale the file's format implies, and why (shown with the scale in the summary). */
export interface ScaleHint {
  scale: ScoreScale;
  /** e.g. `binary scorer 'match' (C/I)`. */
  reason: string;
}

export interface MapResult {
  rows: CanonicalRow[];
  errors: RowError[];
}

export type RowMapper = (record: SourceRecord) => MapResult;

export interface DatasetDefaults {
  name: string;
  scale: ScoreScale;
  raterPolicy: RaterPolicy;
  modality: Modality;
}

/** What detection can see: the file name, its format, the header (or first record's keys) and the first record. */
export interface DetectSample {
  fileName: string;
  format: InputFormat;
  headers: string[];
  first?: SourceRecord;
  /** JSON: the key path of the array the records were read from (`results.results`), when not the top level. */
  container?: string;
  /** The document around the records (JSON with a container: the array set to null; `.eval`: header.json). */
  document?: Record<string, unknown>;
}

/** Where a preset's records sit inside one JSON document (promptfoo: `results.results[]`). */
export interface JsonContainer {
  /** Keys from the top-level object down to the array of records. */
  path: readonly string[];
  /** True when the file's first characters (up to 64 KiB) look like this preset's documents. */
  sniff(head: string): boolean;
}

export interface Sidecars {
  /** genai-bench: `genai_skills.json` (skill → prompt indices). */
  skills?: AsyncIterable<string | Uint8Array>;
  /** genai-bench-long: `prompts.csv` (id, prompt, category, basic_skills, advanced_skills). */
  prompts?: AsyncIterable<string | Uint8Array>;
  /** lm-eval-harness: the run's `results_<date>.json` beside the samples file (names the model). */
  results?: AsyncIterable<string | Uint8Array>;
  /** HELM: the run's `scenario_state.json` (prompts and outputs) and `run_spec.json` (model, metrics). */
  scenarioState?: AsyncIterable<string | Uint8Array>;
  runSpec?: AsyncIterable<string | Uint8Array>;
}

export interface PresetContext {
  fileName: string;
  format: InputFormat;
  headers: string[];
  /** Delimiter the CSV reader used (for hints in messages). */
  delimiter?: string;
  mapping?: FieldMapping;
  judgeColumn?: string;
  sidecars?: Sidecars;
  scoreSource?: ScoreSource;
  /** Tool to credit when the file does not name one (lm-eval-harness samples). */
  defaultTool?: string;
  /** CSV header cells that were repeated or empty (renamed by the reader), for precise mapping errors. */
  headerIssues?: HeaderIssues;
  /** The document around the records, when the format has one (see DetectSample.document). */
  document?: Record<string, unknown>;
}

/** What the CSV reader had to rename in the header row. Columns are 1-based positions. */
export interface HeaderIssues {
  /** A name given to several columns, and the unique names they got (`score`, `score_2`). */
  duplicates: { name: string; columns: number[]; names: string[] }[];
  /** A column without a name, and the name it got (`column_3`). */
  blanks: { column: number; name: string }[];
}

export interface PreparedPreset {
  map: RowMapper;
  /**
   * After the last record: rows the preset held back until then (openai-evals joins the events of
   * one sample, which may lie far apart). Called once, only when the whole file was read.
   */
  finish?: () => MapResult;
  /** Mapping actually used (generic preset), for display. */
  mapping?: FieldMapping;
  /** Judge column actually used (biggen), for display. */
  judge?: string;
  /** Dataset name when the preset can name it better than its default (e.g. from the file name). */
  name?: string;
  /**
   * Why a file that yielded no record at all cannot be imported, naming what it holds instead
   * (a cancelled Inspect run, an OpenAI Evals log with only its spec and final report).
   */
  empty?: () => string;
  /** Sentences for the preview and the summary: what the preset decided (tasks grouped by prompt, …). */
  notes?: string[];
}

export interface Preset {
  id: PresetId;
  label: string;
  /** `scale: null` means "no fixed scale": the import infers one from the scores it saw. */
  defaults: Omit<DatasetDefaults, 'scale'> & { scale: ScoreScale | null };
  /** 0 (certainly not) … 1 (certainly this preset). */
  detect(sample: DetectSample): number;
  /** What the scale's points mean, for the LLM prompts (scale-meanings.ts); only a scale with one fixed meaning. */
  scaleMeaning?: string;
  /** The paper's protocol train/test split in tasks, used when the data has more tasks than its training part (eval/split.ts). */
  split?: { train: number; test: number };
  /** JSON documents whose records are nested (see JsonContainer); checked on the head before reading. */
  container?: JsonContainer;
  /** Checks headers, loads sidecars; throws ValidationError when the file cannot be imported with this preset. */
  prepare(ctx: PresetContext): Promise<PreparedPreset>;
}

export interface ImportProgress {
  bytesRead: number;
  totalBytes?: number;
  rowsRead: number;
  accepted: number;
  rejected: number;
  rowsPerSecond: number;
}

export interface ImportOptions {
  fileName: string;
  totalBytes?: number;
  /** Auto-detected when absent. */
  preset?: PresetId;
  mapping?: FieldMapping;
  /** Overrides the preset's scale. */
  scale?: ScoreScale;
  datasetId: string;
  /** biggen: which `<judge>_score` column holds the score (with or without the `_score` suffix). */
  judgeColumn?: string;
  /** Tool names already in the store; near misses ("dalle_3") are rejected with a suggestion. */
  knownTools?: string[];
  /** What the user said about near-miss tool names (map to a known tool, or accept as new). */
  toolChoices?: ToolChoices;
  sidecars?: Sidecars;
  /** CSV delimiter; auto-detected from the header line when absent. */
  delimiter?: string;
  /** generic: who produced the scores (default `human`). */
  scoreSource?: ScoreSource;
  /** Tool to credit when the file does not name one (lm-eval-harness samples; CLI --tool). */
  defaultTool?: string;
  /** Random access to the same file: needed for Parquet (its index is at the end) and Inspect `.eval` (its header is). */
  randomAccess?: ByteSource;
  /**
   * The same input again from its start. When the scale must be inferred, the import reads the
   * scores once before writing anything (scale-inference.ts), so a score far outside the scale the
   * others imply is a row error and an undecidable scale refuses the file before a row is stored.
   */
  reopen?: () => AsyncIterable<string | Uint8Array>;
  importId: string;
  /** Timestamp (ms) stamped on every experience; passed in so imports are reproducible. */
  now: number;
  /** Rows per sink call (default 2000). */
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
}

/**
 * The user's answer for file tool names that look like a known tool (issue #14). Tool names are
 * data, so these are a Map and a Set (core/data-keys), never objects keyed by name; both survive
 * the structured clone to the data worker.
 */
export interface ToolChoices {
  /** Tool name as in the file → the known tool its rows are stored under. */
  map?: ReadonlyMap<string, string>;
  /** Tool names to import as new tools although they resemble a known one. */
  newTools?: ReadonlySet<string>;
}

/** A file tool name within 2 edits of a known tool and not decided by ToolChoices: its rows are rejected. */
export interface NearMissTool {
  /** As in the file (trimmed). */
  name: string;
  /** The closest known tool. */
  suggestion: string;
  /** Rows refused for it. */
  rows: number;
}

export interface ImportSink {
  /** One call per batch; the caller makes it one transaction. */
  writeBatch(rows: Experience[]): Promise<BatchWriteResult>;
  /**
   * Rows without a score, as outputs awaiting labels (one call per batch of them, before the
   * batch of experiences read with them). A sink without it keeps none (the CLI counts them only).
   */
  writeItems?(items: LabelItem[]): Promise<void>;
}

export interface ToolTally {
  accepted: number;
  rejected: number;
  /** Mean of the accepted scores (all raters), or null when none was accepted. */
  meanScore: number | null;
}

export interface ImportSummary {
  importId: string;
  datasetId: string;
  fileName: string;
  format: InputFormat;
  preset: PresetId;
  /** Detection score of the preset used (1 = certain). */
  confidence: number;
  /** Preset detection would have picked (differs from `preset` when the caller overrode it). */
  detectedPreset: PresetId;
  headers: string[];
  mapping?: FieldMapping;
  judge?: string;
  scale: ScoreScale;
  /** True when no scale was given or preset-defined and it was inferred from the scores. */
  scaleInferred: boolean;
  /** The scores could not tell the scale (none, or all equal) and it was guessed: only imports without a pre-scan get here. */
  scaleUndecided?: boolean;
  /** Where the scale came from, in words (`given`, `the format: binary scorer 'match'`, `inferred from 40 scores …`). */
  scaleNote?: string;
  /** What the preset decided, in sentences (PreparedPreset.notes). */
  notes?: string[];
  /** Per tool name: null-prototype (core/data-keys `dict`); read it with `own` or `Object.entries`. */
  tools: Dict<ToolTally>;
  rowsRead: number;
  /** Rows kept: experiences (scored) plus `unscored`. */
  accepted: number;
  /** Accepted rows without a score: outputs awaiting labels (LabelItem), not experiences. */
  unscored: number;
  added: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** Every rejected row. */
  errors: RowError[];
  /** Tool names refused as look-alikes of a known tool, in order of first appearance (absent when none). */
  nearMissTools?: NearMissTool[];
  datasetDefaults: DatasetDefaults;
  bytesRead: number;
  durationMs: number;
}

export interface PreviewResult {
  format: InputFormat;
  preset: PresetId;
  confidence: number;
  headers: string[];
  mapping?: FieldMapping;
  judge?: string;
  rows: CanonicalRow[];
  errors: RowError[];
  /** The first records as read (bounded: record-sample.ts), for the path picker of the mapping. */
  samples?: unknown[];
  /** What the preset decided, in sentences (PreparedPreset.notes). */
  notes?: string[];
  /** The dataset the rows would go into when the user names none (the app's import service sets it). */
  datasetName?: string;
}

export interface PresetGuess {
  format: InputFormat;
  preset: PresetId;
  confidence: number;
  /** Every preset's score, best first. */
  scores: { preset: PresetId; score: number }[];
  headers: string[];
}

/** Random access to a file's bytes. */
export interface ByteSource {
  size: number;
  read(start: number, end: number): Promise<Uint8Array>;
}
