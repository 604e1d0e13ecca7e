/**
 * Every CSV the project writes goes through src/core/export/csv-cell.ts (RFC 4180 quoting and
 * formula neutralisation in one place). A grep over src/: nothing calls Papa.unparse, and every file
 * that produces a `text/csv` blob or a `.csv` download builds its text with one of the writers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../../src');
const CELL_MODULE = 'core/export/csv-cell.ts';
/** The functions that write CSV; each is built on toCsv (checked below). */
const WRITERS = ['toCsv(', 'csvCell(', 'rejectedRowsCsv(', 'experiencesToCsv(', 'pairwiseCsv('];
const WRITER_FILES = ['core/import/rejected-csv.ts', 'core/export/experiences.ts', 'core/label/pairwise-stats.ts'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return /\.(ts|svelte|mjs|js)$/.test(d.name) ? [path] : [];
  });
}
const files = sources(SRC).map((path) => ({ rel: relative(SRC, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }));

describe('CSV writers', () => {
  it('nothing in src/ writes CSV with Papa.unparse', () => {
    expect(files.filter((f) => /\bunparse\s*\(/.test(f.text)).map((f) => f.rel)).toEqual([]);
  });

  it('every file that makes a CSV download or blob uses the shared writer', () => {
    const producers = files.filter((f) => f.rel !== CELL_MODULE && (/text\/csv/.test(f.text) || /-rejected\.csv|\.csv['`]\s*\)|\.\$\{format\}/.test(f.text)));
    // The known producers are found (the grep is not vacuous) …
    expect(producers.map((f) => f.rel).sort()).toEqual(
      expect.arrayContaining(['app/import/handlers.ts', 'ui/components/DatasetCard.svelte', 'ui/download.ts', 'ui/pages/EvaluatePage.svelte']),
    );
    // … and each one builds its text with a writer.
    for (const f of producers) expect(WRITERS.some((w) => f.text.includes(w)) || /\b(call|send)\('exportExperiences'/.test(f.text), f.rel).toBe(true);
  });

  it('the writer functions are built on toCsv', () => {
    for (const rel of WRITER_FILES) {
      const text = files.find((f) => f.rel === rel)?.text ?? '';
      expect(text, rel).toMatch(/from '\.{1,2}\/(export\/)?csv-cell'/);
      expect(text, rel).toMatch(/\btoCsv\(/);
    }
  });
});
