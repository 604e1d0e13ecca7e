/**
 * Public API of the streaming import pipeline (pure: runs in the data worker, the CLI and tests).
 * Input is bytes or text (`ImportInput`: `AsyncIterable<string | Uint8Array>`); storage is the caller's `ImportSink`.
 */
export { runImport, previewRows, inferScale } from './pipeline';
export { findNearMissTools, toolChoicesFrom } from './near-miss-tools';
export { countRows, type RowCounts } from './row-counts';
export type { ToolDecision } from './near-miss-tools';
export type { PreviewOptions } from './pipeline';
export { detectPreset, readSamples } from './open-import';
export { sniffEncoding, type Sniffed, type SniffedKind } from './sniff';
export type { ImportInput } from './text-source';
export { detectFormat, createReader, readItems } from './readers';
export type { RecordReader } from './readers';
export { rejectedRowsCsv, describeRowError } from './rejected-csv';
export { suggestMapping, parseMapping, CANONICAL_FIELDS, REQUIRED_FIELDS } from './mapping';
export { renderRubric } from './rubric';
export { RowValidator, MAX_FIELD_CHARS, editDistance, formatScale } from './validate';
export { PRESETS, getPreset, isPresetId, presetDefaults, scorePresets } from './presets';
export { utf8Length } from './text-source';
export type * from './types';
export { logDatasetName } from './dataset-name';
