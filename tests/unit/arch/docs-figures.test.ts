/**
 * docs/architecture.md states the layer table and the architecture figures; this test computes them
 * from the tree (scripts/arch/counts.ts, the same figures `npm run arch:counts` prints) and fails
 * when the document says otherwise, so the document stays true as the code moves.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { archFigures } from '../../../scripts/arch/counts';
import { LAYERS } from '../../../scripts/arch/layers';

const DOC = readFileSync(resolve(import.meta.dirname, '../../../docs/architecture.md'), 'utf8');

/** The rows of the Markdown table whose header line starts with `header`, as cells. */
function tableRows(header: string): string[][] {
  const lines = DOC.split('\n');
  const start = lines.findIndex((l) => l.startsWith(header));
  expect(start, `docs/architecture.md has a table starting ${header}`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

/** The leading whole number of the "now" cell of the figures row whose first cell starts with `what`. */
function stated(what: string): number {
  const row = tableRows('| what | now | command |').find((r) => r[0]!.startsWith(what));
  expect(row, `a figures row for "${what}"`).toBeDefined();
  const n = /^(\d+)/.exec(row![1]!);
  expect(n, `the row "${what}" starts its "now" cell with a number`).not.toBeNull();
  return Number(n![1]);
}

describe('docs/architecture.md', () => {
  const figures = archFigures();

  it('states the layer table of scripts/arch/layers.ts', () => {
    const rows = tableRows('| layer | files | may import |');
    const doc = rows.map(([name, , may]) => ({
      name,
      may:
        may === 'nothing'
          ? []
          : may!
              .split(',')
              .map((m) => m.trim())
              .sort(),
    }));
    expect(doc).toEqual(LAYERS.map((l) => ({ name: l.name, may: [...l.may].sort() })));
  });

  it('states the figures npm run arch:counts prints', () => {
    expect(stated('import cycles')).toBe(figures.cycles.length);
    expect(stated('imports from a layer into one it may not import')).toBe(figures.layerBreaks.length);
    expect(stated('UI files importing storage')).toBe(figures.uiStorage.length);
    expect(stated('`as unknown as`')).toBe(figures.casts.length);
    expect(stated('functions over 80 lines')).toBe(figures.longFunctions.length);
    expect(stated('longest `src/cli/commands/*.ts`')).toBe(figures.longestCommand.lines);
    expect(stated('files comparing an engine kind by hand')).toBe(figures.engineKindFiles.length);
  });

  it('names each function over 80 lines it counts', () => {
    const row = tableRows('| what | now | command |').find((r) => r[0]!.startsWith('functions over 80 lines'))!;
    for (const f of figures.longFunctions) expect(row[1], `${f.file} ${f.name}`).toContain(f.name);
  });
});
