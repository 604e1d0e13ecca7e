import { compileImagePattern, DEFAULT_IMAGE_PATTERN, mimeForExtension } from '../../core/import/image-match';
import { ValidationError } from '../../core/errors';
import type { Repositories } from '../../core/repositories';
import type { Experience, LabelItem } from '../../core/types';

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
  /** Outputs awaiting labels (label items: imported without a score, or added by hand) that now point at an image. */
  linkedItems: number;
  unmatchedFiles: { name: string; reason: string }[];
  /** Experiences and awaiting outputs of the dataset that still have no stored image. */
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
 * Attaches image files to a dataset's experiences and its outputs awaiting labels (label items).
 * A file matches a row when its relative
 * path ends with the row's `image` column value (imported from the file), or when it fits
 * the pattern (tool folder + task id). Re-attaching the same files replaces the stored images.
 */
export async function attachImages(
  repos: Repositories,
  req: AttachImagesRequest,
  opts: { signal?: AbortSignal; onProgress?: (p: { done: number; total: number }) => void; makeThumbnail?: ThumbnailMaker } = {},
): Promise<AttachImagesResult> {
  const pattern = req.pattern?.trim() || DEFAULT_IMAGE_PATTERN;
  const match = compileImagePattern(pattern);
  const experiences = await repos.experiences.byDataset(req.datasetId);
  const items = await repos.labels.items(req.datasetId);
  // Both kinds of row point at an image the same way (`imageId`): one list, told apart when written.
  const rows: Target[] = [...experiences.map((row) => ({ kind: 'experience' as const, row })), ...items.map((row) => ({ kind: 'item' as const, row }))];
  if (rows.length === 0) throw new ValidationError(`Dataset ${req.datasetId} has no experiences or outputs to attach images to.`);
  const tools = new Set(rows.map((r) => r.row.toolId));
  if (!pattern.includes('<tool>') && tools.size > 1) {
    throw new ValidationError(`This dataset has ${tools.size} tools, so the pattern must contain <tool> to tell whose image a file is.`);
  }

  const index = { ...rowIndex(rows), match, pattern, tools, onlyTool: tools.size === 1 ? [...tools][0]! : undefined };

  const imaged = new Set<string>();
  const result: AttachImagesResult = { pattern, matched: 0, linkedExperiences: 0, linkedItems: 0, unmatchedFiles: [], rowsWithoutImage: 0 };
  for (let start = 0; start < req.files.length; start += GROUP) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    const group = req.files.slice(start, start + GROUP);
    const images = [];
    const updates: Experience[] = [];
    const itemUpdates: LabelItem[] = [];
    for (const file of group) {
      const path = relativePath(file).replace(/\\/g, '/');
      const found = targetsOf(path, index);
      if ('reason' in found) {
        result.unmatchedFiles.push({ name: path, reason: found.reason });
        continue;
      }
      const { targets, key } = found;
      const id = imageIdFor(req.datasetId, key);
      const ext = path.split('.').pop() ?? '';
      const thumb = await opts.makeThumbnail?.(file).catch(() => undefined);
      images.push({ id, datasetId: req.datasetId, name: path, mime: file.type || mimeForExtension(ext), blob: file, ...(thumb ? { thumb } : {}) });
      for (const t of targets) {
        if (t.row.imageId !== id) {
          if (t.kind === 'experience') updates.push({ ...t.row, imageId: id });
          else itemUpdates.push({ ...t.row, imageId: id });
        }
        t.row.imageId = id;
        imaged.add(t.row.toolId);
        if (t.kind === 'experience') result.linkedExperiences++;
        else result.linkedItems++;
      }
      result.matched++;
    }
    await repos.images.putMany(images, updates, itemUpdates);
    opts.onProgress?.({ done: Math.min(req.files.length, start + GROUP), total: req.files.length });
  }
  result.rowsWithoutImage = rows.filter((r) => !r.row.imageId?.startsWith('img:')).length;
  await markImageTools(repos, imaged);
  return result;
}

/** The rows by tool and task, and by the image path the import gave them. */
function rowIndex(rows: readonly Target[]): { byToolTask: Map<string, Target[]>; byPath: Map<string, Target[]> } {
  const byToolTask = new Map<string, Target[]>();
  const byPath = new Map<string, Target[]>();
  for (const r of rows) {
    const key = `${r.row.toolId}\u0000${r.row.taskId}`;
    (byToolTask.get(key) ?? byToolTask.set(key, []).get(key)!).push(r);
    const imageId = r.row.imageId;
    if (imageId && !imageId.startsWith('img:')) {
      const p = imageId.replace(/\\/g, '/').replace(/^\.?\//, '');
      (byPath.get(p) ?? byPath.set(p, []).get(p)!).push(r);
    }
  }
  return { byToolTask, byPath };
}

interface RowIndex extends ReturnType<typeof rowIndex> {
  match: ReturnType<typeof compileImagePattern>;
  pattern: string;
  tools: ReadonlySet<string>;
  onlyTool: string | undefined;
}

/** The rows a file's image belongs to (by the imported path first, then by the pattern), or why none. */
function targetsOf(path: string, index: RowIndex): { targets: Target[]; key: string } | { reason: string } {
  for (const [p, found] of index.byPath) if (path === p || path.endsWith(`/${p}`)) return { targets: found, key: p };
  const m = index.match(path);
  if (!m) return { reason: `does not fit the pattern ${index.pattern}` };
  const tool = m.tool ?? index.onlyTool!;
  const targets = index.byToolTask.get(`${tool}\u0000${m.id}`);
  if (!targets) return { reason: index.tools.has(tool) ? `no output of ${tool} for task ${m.id}` : `no tool named ${tool} in this dataset` };
  return { targets, key: `${tool}/${m.id}` };
}

/**
 * A tool whose outputs got images makes images: a file imported with the generic preset created
 * its tools as text→text (the file alone cannot tell), which would hide the image views' gate and
 * the Data page's image tools. Only that default is changed; a modality set otherwise stays.
 */
async function markImageTools(repos: Repositories, toolIds: Set<string>): Promise<void> {
  for (const id of toolIds) {
    const tool = await repos.tools.get(id);
    if (tool?.modality === 'text→text') await repos.tools.put({ ...tool, modality: 'text→image' });
  }
}

type Target = { kind: 'experience'; row: Experience } | { kind: 'item'; row: LabelItem };
