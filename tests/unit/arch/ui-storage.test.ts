import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue #16: the UI reaches storage through one adapter (src/ui/storage.ts); every other UI file
// reads live through it and writes through handlers or repositories it hands out.
const UI = join(import.meta.dirname, '../../../src/ui');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : /\.(ts|svelte)$/.test(d.name) ? [join(dir, d.name)] : [],
  );
}

/** Static and dynamic imports of src/db (any depth, any module in it) or of Dexie itself. */
const STORAGE_IMPORT = /(?:from\s+|import\s*\(\s*)['"](?:dexie|(?:\.\.\/)+db(?:\/[\w.-]+)?)['"]/;

function storageImporters(dir = UI): string[] {
  return files(dir)
    .filter((f) => STORAGE_IMPORT.test(readFileSync(f, 'utf8')))
    .map((f) => relative(dir, f))
    .sort();
}

describe('UI access to storage', () => {
  it('the pattern catches every way of importing storage, and nothing else', () => {
    for (const line of [
      "import { getSetting } from '../../db';",
      "import { x } from '../db/settings';",
      "import { liveQuery } from 'dexie';",
      "const m = await import('../db');",
      "import type { ToolMemDB } from '../../db/schema';",
    ])
      expect(STORAGE_IMPORT.test(line), line).toBe(true);
    for (const line of ["import { UiStorage } from './storage';", "import { x } from '../dbx';", "import { x } from '../core/db-ish';"])
      expect(STORAGE_IMPORT.test(line), line).toBe(false);
  });

  it('only the adapter module imports src/db or Dexie', () => {
    const importers = storageImporters();
    expect(importers.length).toBeLessThanOrEqual(1);
    expect(importers).toEqual(['storage.ts']);
  });
});
