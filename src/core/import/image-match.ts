/**
 * Matches image files to experiences by a path pattern, e.g. `<tool>/<id>.<ext>` (the layout of
 * GenAI-Bench's per-model zips once unpacked). Placeholders: <tool>, <id>, <ext>, and <any> for a
 * folder or name part to ignore. The pattern matches the END of a file's relative path, so the
 * folder the user picked (and anything above it) does not matter.
 */
import { ValidationError } from '../errors';

export const DEFAULT_IMAGE_PATTERN = '<tool>/<id>.<ext>';
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'webp', 'gif', 'bmp', 'avif'] as const;

export interface ImageKey {
  tool?: string;
  id: string;
  ext: string;
}

const PLACEHOLDER = /<(tool|id|ext|any)>/g;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiles a pattern; throws ValidationError naming what is wrong with it. */
export function compileImagePattern(pattern: string): (path: string) => ImageKey | null {
  const trimmed = pattern.trim().replace(/^\/+/, '');
  if (!trimmed.includes('<id>')) throw new ValidationError(`The image pattern “${pattern}” must contain <id> (the task id).`);
  const unknown = trimmed.match(/<[^>]*>/g)?.find((p) => !/^<(tool|id|ext|any)>$/.test(p));
  if (unknown) throw new ValidationError(`The image pattern “${pattern}” has an unknown placeholder ${unknown}; use <tool>, <id>, <ext> or <any>.`);
  let source = '';
  let last = 0;
  for (const m of trimmed.matchAll(PLACEHOLDER)) {
    source += escapeRegex(trimmed.slice(last, m.index));
    source += m[1] === 'ext' ? '(?<ext>[A-Za-z0-9]+)' : m[1] === 'any' ? '[^/]*' : `(?<${m[1]}>[^/]+?)`;
    last = (m.index ?? 0) + m[0].length;
  }
  source += escapeRegex(trimmed.slice(last));
  const re = new RegExp(`(?:^|/)${source}$`);
  return (path: string) => {
    const m = re.exec(path.replace(/\\/g, '/'));
    if (!m?.groups?.id) return null;
    const ext = (m.groups.ext ?? path.split('.').pop() ?? '').toLowerCase();
    if (!(IMAGE_EXTENSIONS as readonly string[]).includes(ext)) return null;
    return { id: m.groups.id, ext, ...(m.groups.tool ? { tool: m.groups.tool } : {}) };
  };
}

export function mimeForExtension(ext: string): string {
  const e = ext.toLowerCase();
  return e === 'jpg' || e === 'jpeg' ? 'image/jpeg' : e === 'svg' ? 'image/svg+xml' : `image/${e}`;
}
