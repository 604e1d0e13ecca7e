/**
 * Where the shared benchmark data is: `TOOLMEM_SHARED_DATA` when set, else `shared/data` beside the
 * repository (the main checkout: ../shared/data) or one level further up (a worktree under wt/:
 * ../../shared/data). Paths are resolved from the repository root, not the working directory.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sharedDataDir(): string {
  const env = process.env.TOOLMEM_SHARED_DATA;
  if (env) return resolve(env);
  const candidates = [resolve(REPO_ROOT, '../shared/data'), resolve(REPO_ROOT, '../../shared/data')];
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}

export const SHARED_DATA_DIR = sharedDataDir();

/** A file of the shared data, e.g. `sharedData('genai_bench/genai_image.json')`. */
export function sharedData(rel: string): string {
  return resolve(SHARED_DATA_DIR, rel);
}
