/**
 * What an import request reads with: the dataset it goes to, its side files, and its reading
 * options — one place, so the preview, the scans (near-miss tools, row counts) and the import itself
 * read the file the same way (an existing dataset's scale included), each call opening it once.
 */
import { detectPreset, logDatasetName, presetDefaults } from '../../core/import';
import { blobSource, type ByteSource } from '../../core/import/parquet-reader';
import { slugify } from '../../core/ids';
import type { Repositories } from '../../core/repositories';
import type { Dataset } from '../../core/types';
import { blobBytes, blobText, readOnce, type BlobRead } from '../../platform/blob';
import type { ImportRequest } from './api';

/** The dataset an import writes to: named by the user, by the log, or by the preset. */
export interface ImportTarget {
  id: string;
  name: string;
  existing?: Dataset;
}

export function sidecarsOf(req: ImportRequest) {
  return {
    ...(req.skills ? { skills: blobText(req.skills) } : {}),
    ...(req.prompts ? { prompts: blobText(req.prompts) } : {}),
    ...(req.results ? { results: blobBytes(req.results) } : {}),
    ...(req.scenarioState ? { scenarioState: blobBytes(req.scenarioState) } : {}),
    ...(req.runSpec ? { runSpec: blobBytes(req.runSpec) } : {}),
  };
}

/** The request's reading options, as the import itself uses them (so a scan sees what the import will). */
export function optionsOf(req: ImportRequest, target: { existing?: Dataset }, randomAccess: ByteSource = blobSource(req.file)) {
  return {
    ...(req.preset ? { preset: req.preset } : {}),
    ...(req.mapping ? { mapping: req.mapping } : {}),
    ...(req.scale ? { scale: req.scale } : target.existing ? { scale: target.existing.scale } : {}),
    ...(req.judgeColumn ? { judgeColumn: req.judgeColumn } : {}),
    ...(req.scoreSource ? { scoreSource: req.scoreSource } : {}),
    ...(req.toolChoices ? { toolChoices: req.toolChoices } : {}),
    ...(req.defaultTool ? { defaultTool: req.defaultTool } : {}),
    // Parquet is read from its footer: slices of the File, never the whole file (parquet-reader.ts).
    randomAccess,
  };
}

/**
 * The dataset the request goes to (an existing one when its name's id is taken). `head` and
 * `randomAccess` come from the request's one read of its file (readOnce).
 */
export async function datasetFor(
  repos: Pick<Repositories, 'datasets'>,
  req: ImportRequest,
  file: Pick<BlobRead, 'head' | 'randomAccess'>,
): Promise<ImportTarget> {
  const { head, randomAccess } = file;
  const guess = detectPreset(req.file.name, head);
  // One dataset per Inspect task and per HELM run, unless the user named one.
  const logName = req.datasetName?.trim()
    ? undefined
    : await logDatasetName({ head, fileName: req.file.name, randomAccess, ...(req.runSpec ? { runSpec: blobBytes(req.runSpec) } : {}) });
  const name = req.datasetName?.trim() || logName || presetDefaults(req.preset ?? guess.preset, req.file.name).name;
  const id = slugify(name);
  const existing = await repos.datasets.get(id);
  return { id, name, ...(existing ? { existing } : {}) };
}

/**
 * What every read of the request shares: its target, the tools known so far, side files and reading
 * options, and `input`, the file's bytes. The file is opened once: the head that names the dataset
 * and the format is the start of the same stream the preview, the scans and the import go on reading.
 */
export async function readOf(repos: Pick<Repositories, 'datasets' | 'tools'>, req: ImportRequest) {
  const file = await readOnce(req.file);
  const target = await datasetFor(repos, req, file);
  const knownTools = (await repos.tools.list()).map((t) => t.id);
  return {
    target,
    input: file.bytes,
    options: { fileName: req.file.name, datasetId: target.id, knownTools, sidecars: sidecarsOf(req), ...optionsOf(req, target, file.randomAccess) },
  };
}
