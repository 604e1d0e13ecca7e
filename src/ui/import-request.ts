/**
 * What the import dialog sends to the data worker, and what it says when an import stops, as plain
 * functions of the dialog's settings (ImportFlow holds them; the tests build requests without it).
 */
import { CancelledError } from '../core/errors';
import type { ImportRequest } from '../app/import/api';
import type { FieldMapping } from '../core/import/types';
import type { PresetId, ScoreScale } from '../core/types';

/** The dialog's settings for one file (ImportFlow's state, read once per request). */
export interface ImportSettings {
  file: File;
  skills: File | null;
  prompts: File | null;
  results: File | null;
  scenarioState: File | null;
  runSpec: File | null;
  datasetName: string;
  preset: PresetId | undefined;
  mapping: FieldMapping;
  /** A plain object (a $state proxy cannot be cloned to the worker). */
  scale: ScoreScale | undefined;
  judgeColumn: string | undefined;
  /** HELM: the metric to import (empty: the run's main metric). */
  metric: string;
  /** The tool of every row, for a file without a model column. */
  defaultTool: string;
}

/**
 * The request for `s`: only what is set; the mapping's empty fields dropped and the mapping sent for
 * a generic file only; the judge column is HELM's metric for HELM; the tool for every row only for
 * lm-eval and generic files. Names are trimmed.
 */
export function importRequestOf(s: ImportSettings): ImportRequest {
  const mapping = Object.fromEntries(Object.entries(s.mapping).filter(([, v]) => v)) as FieldMapping;
  const judge = s.preset === 'helm' ? s.metric.trim() : s.judgeColumn;
  const toolForAll = (s.preset === 'lm-eval-harness' || s.preset === 'generic') && s.defaultTool.trim();
  return {
    file: s.file,
    ...(s.skills ? { skills: s.skills } : {}),
    ...(s.prompts ? { prompts: s.prompts } : {}),
    ...(s.results ? { results: s.results } : {}),
    ...(s.scenarioState ? { scenarioState: s.scenarioState } : {}),
    ...(s.runSpec ? { runSpec: s.runSpec } : {}),
    ...(s.datasetName.trim() ? { datasetName: s.datasetName.trim() } : {}),
    ...(s.preset ? { preset: s.preset } : {}),
    ...(s.preset === 'generic' && Object.keys(mapping).length ? { mapping } : {}),
    ...(s.scale ? { scale: s.scale } : {}),
    ...(judge ? { judgeColumn: judge } : {}),
    ...(toolForAll ? { defaultTool: s.defaultTool.trim() } : {}),
  };
}

/** What the dialog says when an import stops; the import service has rolled back every batch by then. */
export function importErrorMessage(err: unknown): string {
  if (err instanceof CancelledError) return 'Import cancelled. Nothing from this file was kept.';
  const message = err instanceof Error ? err.message : String(err);
  // StorageFullError already says that nothing was saved and what to free.
  if (err instanceof Error && err.name === 'StorageFullError') return `${message} The rows already written by this import were removed again.`;
  return `${message} Nothing from this file was kept.`;
}
