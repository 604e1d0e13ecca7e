/** Small id helpers shared by every layer. */

/**
 * Deterministic experience key: re-importing the same row yields the same id. Ordered
 * `datasetId|toolId|taskId|rater` (schema v6) so that a dataset's rows, and one tool's rows of it,
 * are primary-key ranges: the app reads them by key and keeps no index for them (every index costs
 * each imported row IndexedDB work: docs/reliability.md, "Import throughput"). The parts are not
 * escaped, so a range can also hold rows whose parts contain `|` (tool `a|b` lies inside tool `a`'s
 * range): readers check the row's own fields (db/experience-repo).
 */
export function experienceKey(datasetId: string, taskId: string, toolId: string, rater: string): string {
  return `${datasetId}|${toolId}|${taskId}|${rater}`;
}

/** The key schema versions 1–5 gave an experience (`datasetId|taskId|toolId|rater`): old backups and the v6 upgrade. */
export function legacyExperienceKey(datasetId: string, taskId: string, toolId: string, rater: string): string {
  return `${datasetId}|${taskId}|${toolId}|${rater}`;
}

/**
 * The task of an experience key, when the key alone tells it (exactly four parts, none containing
 * `|`); otherwise undefined, and the caller must look the row up. Only a fallback: callers that know
 * the rows map their ids to tasks.
 */
export function taskOfExperienceKey(id: string): string | undefined {
  const parts = id.split('|');
  return parts.length === 4 ? parts[2] : undefined;
}

/**
 * The primary-key range `[lower, upper)` of every string that starts with `prefix`: the prefix
 * itself, up to the prefix with its last character raised by one. The prefixes used end in `|`, so
 * the upper bound ends in `}`.
 */
export function prefixRange(prefix: string): [string, string] {
  return [prefix, `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`];
}

/**
 * The one order for ids a person reads (task, tool, rater ids): natural, so task 2 comes before
 * task 10 (`Intl.Collator` with `numeric: true`; a fixed locale, so every host sorts alike).
 * Plain code-unit order would list 0, 1, 10, 100, 11, ….
 */
export function compareIds(a: string, b: string): number {
  // Made on first use: creating a collator loads locale data (~40 ms on a phone), and this module is
  // on every page's start-up path while most pages never sort ids before the first paint.
  collator ??= new Intl.Collator('en', { numeric: true }).compare;
  return collator(a, b);
}
let collator: ((a: string, b: string) => number) | undefined;

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
