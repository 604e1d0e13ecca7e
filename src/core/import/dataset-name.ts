/**
 * The dataset an evaluation log goes into, decided before the import starts (experience ids hold
 * the dataset id): one per Inspect task (name and version: its `.eval` header, or the `eval` block
 * at the head of a JSON log) and one per HELM run (its run spec, without the model). Undefined for
 * other files: the preset's default name applies.
 */
import { inspectDatasetName } from './presets/inspect';
import { helmDatasetName, readRunSpec } from './presets/helm';
import { looksLikeZip, openEvalArchive } from './eval-archive';
import type { ByteSource } from './parquet-reader';

/** The `"eval": {…}` block's task and task_version at the head of an Inspect JSON log. */
function inspectJsonHead(head: string): Record<string, unknown> | undefined {
  if (!/^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:/.test(head)) return undefined;
  const block = /"eval"\s*:\s*\{([\s\S]*)/.exec(head)?.[1];
  if (!block) return undefined;
  const task = /"task"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(block)?.[1];
  if (!task) return undefined;
  const version = /"task_version"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/.exec(block)?.[1];
  return { eval: { task: JSON.parse(task) as unknown, ...(version ? { task_version: JSON.parse(version) as unknown } : {}) }, version: 0 };
}

export async function logDatasetName(opts: {
  head: string;
  randomAccess?: ByteSource;
  runSpec?: AsyncIterable<string | Uint8Array>;
  fileName: string;
}): Promise<string | undefined> {
  try {
    if (opts.runSpec) return helmDatasetName(await readRunSpec(opts.runSpec));
    if (opts.randomAccess && opts.randomAccess.size >= 22 && looksLikeZip(await opts.randomAccess.read(0, 4))) {
      return inspectDatasetName((await openEvalArchive(opts.randomAccess, opts.fileName)).header);
    }
    return inspectDatasetName(inspectJsonHead(opts.head.replace(/^\uFEFF/, '')));
  } catch {
    // The import itself reports what is wrong with the file.
    return undefined;
  }
}
