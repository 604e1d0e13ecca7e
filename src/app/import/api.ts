/**
 * The data worker's protocol, declared once: the worker exposes `createImportHandlers(...)`,
 * the UI calls it through `createClient<ImportApi>(worker)`, tests through the in-thread client.
 */
import type { RowCounts } from '../../core/import/row-counts';
import type { FieldMapping, ImportProgress, ImportSummary, InputFormat, NearMissTool, PreviewResult, ToolChoices } from '../../core/import/types';
import type { DatasetStats } from '../../core/stats/dataset-stats';
import type { ToolCostStat } from '../../core/cost/tool-cost';
import type { AttachImagesRequest, AttachImagesResult } from './images';
import type { ImportRecord, PresetId, RaterPolicy, ScoreScale, ScoreSource } from '../../core/types';

/** What the user chose in the import dialog. Files are structured-cloned to the worker (no copy of bytes). */
export interface ImportRequest {
  file: File;
  /** genai-bench: `genai_skills.json`; genai-bench-long: `prompts.csv`. */
  skills?: File;
  prompts?: File;
  /** lm-evaluation-harness: the run's results_<date>.json (names the model of the samples file). */
  results?: File;
  /** HELM: the run's scenario_state.json and run_spec.json (the data is its per_instance_stats.json). */
  scenarioState?: File;
  runSpec?: File;
  /** Dataset to import into (created when new); defaults to the preset's dataset name. */
  datasetName?: string;
  preset?: PresetId;
  mapping?: FieldMapping;
  scale?: ScoreScale;
  judgeColumn?: string;
  scoreSource?: ScoreSource;
  raterPolicy?: RaterPolicy;
  /** Tool to credit when the file names none (no model column; lm-eval-harness samples without their results file). */
  defaultTool?: string;
  /** Per look-alike tool name: store its rows under the known tool, or accept it as a new tool. */
  toolChoices?: ToolChoices;
}

export interface ImportOutcome {
  summary: ImportSummary;
  record: ImportRecord;
  /** True when this import created the dataset. */
  createdDataset: boolean;
  /** Set when the dataset would have been new but no row was accepted: it was not created. */
  datasetNotCreated?: boolean;
}

export interface ImportApi {
  /** Format, preset guess and the first rows as they would be stored, for the mapping step. */
  preview: { req: ImportRequest & { rows?: number }; res: PreviewResult; progress: never };
  /** The first records as read (bounded copies), for the path picker: works while the mapping is incomplete. */
  samples: { req: ImportRequest & { rows?: number }; res: { format: InputFormat; headers: string[]; samples: unknown[]; preset: PresetId }; progress: never };
  import: { req: ImportRequest; res: ImportOutcome; progress: ImportProgress };
  /** Reads the whole file: tool names close to a stored tool that `toolChoices` does not decide yet. */
  nearMissTools: { req: ImportRequest; res: NearMissTool[]; progress: never };
  /** Reads the whole file as the import would, storing nothing: rows with a score, without one (outputs to label), rejected. */
  countRows: { req: ImportRequest; res: RowCounts; progress: never };
  /** Undo a whole import: removes what it added, restores what it replaced. */
  undo: { req: { importId: string }; res: ImportRecord; progress: never };
  /** Matches image files to experiences (by the `image` column or a path pattern) and stores them. */
  attachImages: { req: AttachImagesRequest; res: AttachImagesResult; progress: { done: number; total: number } };
  /** A dataset's experiences as CSV or JSONL (with a flag telling human labels from judge scores). */
  exportExperiences: { req: { datasetId: string; format: 'csv' | 'jsonl' }; res: Blob; progress: never };
  /** Per-tool counts, means, score histograms and raters of one dataset (read in the worker). */
  stats: { req: { datasetId: string }; res: DatasetStats; progress: never };
  /** Per tool of one dataset: the median logged cost and latency with their counts (core/cost/tool-cost). */
  toolCosts: { req: { datasetId: string }; res: ToolCostStat[]; progress: never };
  /** Imports left `running` by a closed tab or a crash (their lock is free) are rolled back; returns how many and their files. */
  recover: { req: { graceMs?: number }; res: { rolledBack: number; files: string[] }; progress: never };
}
