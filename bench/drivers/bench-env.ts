/**
 * What every benchmark reads from its command line and environment, for the TypeScript benches and
 * (through tsx) the plain-Node ones in common.mjs: `--smoke`, switches with a value, the shared data
 * folder and the load-average line printed beside the figures.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `--smoke`: the bench at a tiny size, to prove it runs and prints its figures (npm run bench:smoke). */
export const SMOKE = process.argv.includes('--smoke');

/** How many tasks of each data set the smoke keeps (`smokeTasks`). */
export const SMOKE_TASKS = 160;

/** The smoke's "few tasks": the rows of the first SMOKE_TASKS tasks, in file order; all rows otherwise. */
export function smokeTasks<T extends { taskId: string }>(rows: T[]): T[] {
  if (!SMOKE) return rows;
  const keep = new Set<string>();
  for (const row of rows) {
    if (keep.size === SMOKE_TASKS && !keep.has(row.taskId)) continue;
    keep.add(row.taskId);
  }
  return rows.filter((row) => keep.has(row.taskId));
}

/** A list of seeds as a range for labels: "1–5", or "1" for one seed. */
export function seedSpan(seeds: readonly number[]): string {
  return seeds.length > 1 ? `${seeds[0]}–${seeds[seeds.length - 1]}` : String(seeds[0]);
}

/** The value after a command-line switch (`--rounds 3`), or `fallback` when the switch is absent. */
export function argValue(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

/**
 * A file of the benchmark data (GenAI-Bench, AlpacaEval, …; see the data folder's README): where
 * TOOLMEM_SHARED_DATA points (a checkout elsewhere), else `shared/data` beside the repository (the
 * main checkout: ../shared/data) or one level further up (a worktree under wt/: ../../shared/data).
 */
export function sharedData(relative: string): string {
  return join(SHARED_DATA_DIR, relative);
}

function sharedDataDir(): string {
  if (process.env.TOOLMEM_SHARED_DATA) return process.env.TOOLMEM_SHARED_DATA;
  const candidates = ['../../../shared/data', '../../../../shared/data'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}
const SHARED_DATA_DIR = sharedDataDir();

/** The machine's load average, printed beside the figures: on a shared machine wall times include waiting for a core. */
export function loadLine(): string {
  return `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')} (1, 5, 15 min) on ${availableParallelism()} cores`;
}
