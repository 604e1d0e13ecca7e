import { compileImagePattern, DEFAULT_IMAGE_PATTERN, mimeForExtension } from '../core/import/image-match';
import { ValidationError } from '../core/errors';
import type { Repositories } from '../core/repositories';
import type { Experience } from '../core/types';

export interface AttachImagesRequest {
  datasetId: string;
  files: File[];
  /** e.g. `<tool>/<id>.<ext>` (default). */
  pattern?: string;
}

export interface AttachImagesResult {
  pattern: string;
  matched: number;
  /** Experiences that now point at an image (several raters can share one image). */
  linkedExperiences: number;
  unmatchedFiles: { name: string; reason: string }[];
  /** Experiences of the dataset that still have no stored image. */
  rowsWithoutImage: number;
}

export type ThumbnailMaker = (blob: Blob) => Promise<Blob | undefined>;

/** Files are written in groups, each group one transaction (images plus the rows pointing at them). */
const GROUP = 50;

function relativePath(file: File): string {
  return (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name;
}

function imageIdFor(datasetId: string, key: string): string {
  return `img:${datasetId}:${key}`;
}

/**
 * Attaches image files to a dataset's experiences. A file matches an experience when its relative
 * path ends with the experience's `image` column value (imported from the file), or when it fits
 * the pattern (tool folder + task id). Re-attaching the same files replaces the stored images.
 */
export async function attachImages(
  repos: Repositories,
  req: AttachImagesRequest,
  opts: { signal?: AbortSignal; onProgress?: (p: { done: number; total: number }) => void; makeThumbnail?: ThumbnailMaker } = {},
): Promise<AttachImagesResult> {
  const pattern = req.pattern?.trim() || DEFAULT_IMAGE_PATTERN;
  const match = compileImagePattern(pattern);
  const rows = await repos.experiences.byDataset(req.datasetId);
  if (rows.length === 0) throw new ValidationError(`Dataset ${req.datasetId} has no experiences to attach images to.`);
  const tools = new Set(rows.map((r) => r.toolId));
  if (!pattern.includes('<tool>') && tools.size > 1) {
    throw new ValidationError(`This dataset has ${tools.size} tools, so the pattern must contain <tool> to tell whose image a file is.`);
  }

  const byToolTask = new Map<string, Experience[]>();
  const byPath = new Map<string, Experience[]>();
  for (const r of rows) {
    const key = `${r.toolId}\u0000${r.taskId}`;
    (byToolTask.get(key) ?? byToolTask.set(key, []).get(key)!).push(r);
    if (r.imageId && !r.imageId.startsWith('img:')) {
      const p = r.imageId.replace(/\\/g, '/').replace(/^\.?\//, '');
      (byPath.get(p) ?? byPath.set(p, []).get(p)!).push(r);
    }
  }
  const onlyTool = tools.size === 1 ? [...tools][0]! : undefined;

  const result: AttachImagesResult = { pattern, matched: 0, linkedExperiences: 0, unmatchedFiles: [], rowsWithoutImage: 0 };
  for (let start = 0; start < req.files.length; start += GROUP) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    const group = req.files.slice(start, start + GROUP);
    const images = [];
    const updates: Experience[] = [];
    for (const file of group) {
      const path = relativePath(file).replace(/\\/g, '/');
      let targets: Experience[] | undefined;
      let key: string | undefined;
      for (const [p, exps] of byPath) {
        if (path === p || path.endsWith(`/${p}`)) {
          targets = exps;
          key = p;
          break;
        }
      }
      if (!targets) {
        const m = match(path);
        if (!m) {
          result.unmatchedFiles.push({ name: path, reason: `does not fit the pattern ${pattern}` });
          continue;
        }
        const tool = m.tool ?? onlyTool!;
        targets = byToolTask.get(`${tool}\u0000${m.id}`);
        key = `${tool}/${m.id}`;
        if (!targets) {
          result.unmatchedFiles.push({ name: path, reason: tools.has(tool) ? `no experience of ${tool} for task ${m.id}` : `no tool named ${tool} in this dataset` });
          continue;
        }
      }
      const id = imageIdFor(req.datasetId, key!);
      const ext = path.split('.').pop() ?? '';
      const thumb = await opts.makeThumbnail?.(file).catch(() => undefined);
      images.push({ id, datasetId: req.datasetId, name: path, mime: file.type || mimeForExtension(ext), blob: file, ...(thumb ? { thumb } : {}) });
      for (const t of targets) {
        if (t.imageId !== id) updates.push({ ...t, imageId: id });
        t.imageId = id;
      }
      result.matched++;
      result.linkedExperiences += targets.length;
    }
    await repos.images.putMany(images, updates);
    opts.onProgress?.({ done: Math.min(req.files.length, start + GROUP), total: req.files.length });
  }
  result.rowsWithoutImage = rows.filter((r) => !r.imageId?.startsWith('img:')).length;
  return result;
}
