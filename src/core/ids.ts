/** Small id helpers shared by every layer. */

/** Deterministic experience key: re-importing the same row yields the same id. */
export function experienceKey(datasetId: string, taskId: string, toolId: string, rater: string): string {
  return `${datasetId}|${taskId}|${toolId}|${rater}`;
}

/** Lower-case, dash-separated slug; never empty. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return slug || 'dataset';
}

/** Random id (time-ordered prefix so that ids sort by creation). */
export function newId(prefix = ''): string {
  const time = Date.now().toString(36).padStart(9, '0');
  const rand = Math.random().toString(36).slice(2, 10).padEnd(8, '0');
  return `${prefix}${time}${rand}`;
}
