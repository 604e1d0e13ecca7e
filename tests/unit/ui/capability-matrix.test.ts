import { describe, expect, it } from 'vitest';
import type { CapabilityCell, CapabilitySnapshot, Facet, FacetKind } from '../../../src/core/capability/types';
import {
  buildMatrix,
  cellEntries,
  cellLines,
  columnLabel,
  findCell,
  facetsByTool,
  kindLabel,
  toolExtremes,
  truncateToFit,
} from '../../../src/ui/capability-matrix';
import { cellSizeFor, divergingColor, hitTest, isLight, layoutMatrix, moveFocus, rowY } from '../../../src/ui/capability-matrix-geometry';
import { MINUS } from '../../../src/ui/capability-format';

const facet = (kind: FacetKind, name: string): Facet =>
  kind === 'category'
    ? { kind, name, rule: { type: 'category', value: name } }
    : kind === 'cue'
      ? { kind, name, rule: { type: 'cue', cue: name } }
      : { kind, name, rule: { type: 'theme', minSimilarity: 0.5, keywords: [name] } };

const cell = (toolId: string, f: number, delta: number | null, own = 0, entryId: string | null = null): CapabilityCell => ({
  toolId,
  facet: f,
  entryId,
  effect: { n: 12, deltaOwn: own, deltaVsOthers: delta, ci95: [(delta ?? own) - 0.2, (delta ?? own) + 0.2], q: 0.04, rank: 1, of: 3 },
});

function snapshot(facets: Facet[], tools: string[], cells: CapabilityCell[]): CapabilitySnapshot {
  return {
    facets: facets.map((f) => ({ facet: f, n: 20 })),
    tools,
    cells,
    note: null,
    report: { facetsTested: facets.length, cellsTested: cells.length, entries: 0, belowMinN: 0, notes: [] },
  };
}

/** A realistic large matrix: `tools` × `facets`, every third cell untested. */
function big(toolCount: number, facetCount: number): CapabilitySnapshot {
  const kinds: FacetKind[] = ['theme', 'cue', 'category'];
  const facets = Array.from({ length: facetCount }, (_, i) => facet(kinds[i % 3]!, `facet ${i}`));
  const tools = Array.from({ length: toolCount }, (_, i) => `tool_${i}`);
  const cells: CapabilityCell[] = [];
  tools.forEach((t, r) =>
    facets.forEach((_, c) => {
      if ((r + c) % 3) cells.push(cell(t, c, Math.sin(r * 7 + c) * 0.8, 0, (r + c) % 5 === 0 ? `e${r}.${c}` : null));
    }),
  );
  return snapshot(facets, tools, cells);
}

describe('buildMatrix', () => {
  it('groups facets by kind (categories, cues, themes), widest spread first within a kind', () => {
    const facets = [facet('theme', 'cats'), facet('cue', 'negation'), facet('category', 'Counting'), facet('cue', 'spatial'), facet('category', 'Style')];
    const cells = [
      cell('A', 0, 0.1),
      cell('B', 0, -0.1),
      cell('A', 1, 0.1),
      cell('B', 1, 0.2), // spread 0.1
      cell('A', 2, 0.5),
      cell('B', 2, -0.5), // spread 1.0
      cell('A', 3, 0.9),
      cell('B', 3, -0.9), // spread 1.8
      cell('A', 4, 0.05), // one tool: spread 0
    ];
    const m = buildMatrix(snapshot(facets, ['A', 'B'], cells));
    expect(m.columns.map((c) => c.def.name)).toEqual(['Counting', 'Style', 'spatial', 'negation', 'cats']);
    expect(m.groups).toEqual([
      { kind: 'category', start: 0, count: 2 },
      { kind: 'cue', start: 2, count: 2 },
      { kind: 'theme', start: 4, count: 1 },
    ]);
    expect(m.columns[0]!.spread).toBeCloseTo(1);
  });

  it('places each cell at its tool row and facet column; untested pairs are null', () => {
    const facets = [facet('cue', 'negation'), facet('cue', 'counting')];
    const m = buildMatrix(snapshot(facets, ['A', 'B'], [cell('B', 1, 0.3), cell('A', 0, -0.2)]));
    const name = (col: number) => m.columns[col]!.def.name;
    const bCounting = m.columns.findIndex((c) => c.def.name === 'counting');
    expect(m.grid[1]![bCounting]!.toolId).toBe('B');
    expect(name(bCounting)).toBe('counting');
    expect(m.grid[0]![bCounting]).toBeNull();
    expect(m.tested).toBe(2);
  });

  it('colours by the 90th percentile of |delta|, so one extreme cell does not wash out the rest', () => {
    const f = Array.from({ length: 20 }, (_, i) => facet('cue', `f${i}`));
    const cells = f.map((_, i) => cell('A', i, i === 0 ? 1.8 : 0.2 + i * 0.01));
    const m = buildMatrix(snapshot(f, ['A'], cells));
    expect(m.domain).toBe(2);
    expect(m.colorDomain).toBe(0.5);
  });

  it('takes deltaOwn where deltaVsOthers is null (one tool) for the scale', () => {
    const m = buildMatrix(snapshot([facet('cue', 'negation')], ['Only'], [cell('Only', 0, null, -1.3)]));
    expect(m.domain).toBe(2);
  });

  it('ignores cells of unknown tools or facets, and tool ids like __proto__ are ordinary rows', () => {
    const m = buildMatrix(
      snapshot([facet('cue', 'negation')], ['__proto__', 'toString'], [cell('__proto__', 0, 0.4), cell('ghost', 0, 1), cell('toString', 7, 1)]),
    );
    expect(m.tools).toEqual(['__proto__', 'toString']);
    expect(m.grid[0]![0]!.toolId).toBe('__proto__');
    expect(m.grid[1]![0]).toBeNull();
    expect(m.tested).toBe(1);
  });
});

describe('layout and hit testing', () => {
  it('shrinks cells as facets grow', () => {
    expect(cellSizeFor(8)).toBe(32);
    expect(cellSizeFor(20)).toBe(26);
    expect(cellSizeFor(40)).toBe(20);
  });

  it('fills the width it is given, between 16 and 32 px a cell', () => {
    expect(cellSizeFor(40, 1000)).toBe(25);
    expect(cellSizeFor(40, 300)).toBe(16);
    expect(cellSizeFor(4, 1000)).toBe(32);
    const m = buildMatrix(big(10, 40));
    const geo = layoutMatrix(m, { labelWidth: 120, width: 1000 });
    expect(geo.width).toBeLessThanOrEqual(1000);
    expect(geo.cell).toBe(Math.floor((1000 - 120 - 2 * 6 - 4) / 40));
  });

  it('lays out 10 tools × 40 facets with gaps between kinds, and finds every cell back from its centre', () => {
    const m = buildMatrix(big(10, 40));
    const geo = layoutMatrix(m, { labelWidth: 120, headerHeight: 130 });
    expect(geo.cell).toBe(20);
    expect(geo.colX).toHaveLength(40);
    // Three kinds: two gaps.
    expect(geo.width).toBe(120 + 40 * 20 + 2 * geo.groupGap + 4);
    expect(geo.height).toBe(130 + 10 * 20 + 4);
    for (let r = 0; r < 10; r++) {
      for (let c = 0; c < 40; c++) {
        expect(hitTest(geo, geo.colX[c]! + geo.cell / 2, rowY(geo, r) + geo.cell / 2)).toEqual({ row: r, col: c });
      }
    }
  });

  it('finds no cell over labels, the header, the gaps between kinds or outside', () => {
    const m = buildMatrix(big(3, 9));
    const geo = layoutMatrix(m, { labelWidth: 100 });
    expect(hitTest(geo, 50, rowY(geo, 0) + 5)).toBeNull(); // row label
    expect(hitTest(geo, geo.colX[0]! + 5, 10)).toBeNull(); // header
    const gapX = geo.colX[m.groups[1]!.start]! - geo.groupGap / 2;
    expect(hitTest(geo, gapX, rowY(geo, 0) + 5)).toBeNull();
    expect(hitTest(geo, geo.width + 10, rowY(geo, 0) + 5)).toBeNull();
    expect(hitTest(geo, geo.colX[0]! + 5, rowY(geo, 3) + 1)).toBeNull(); // below the last row
  });
});

describe('colours', () => {
  it('is near-white at zero, purple for better, orange for worse, saturating at the domain', () => {
    expect(divergingColor(0, 1)).toBe('rgb(247, 247, 247)');
    expect(divergingColor(1, 1)).toBe('rgb(84, 39, 136)');
    expect(divergingColor(5, 1)).toBe('rgb(84, 39, 136)');
    expect(divergingColor(-1, 1)).toBe('rgb(179, 88, 6)');
    const [r, , b] = divergingColor(0.5, 1).match(/\d+/g)!.map(Number);
    expect(b!).toBeGreaterThan(r!);
    const [r2, , b2] = divergingColor(-0.5, 1).match(/\d+/g)!.map(Number);
    expect(r2!).toBeGreaterThan(b2!);
  });

  it('is symmetric in strength: |−x| and |x| are as far from white', () => {
    const dist = (c: string) =>
      c
        .match(/\d+/g)!
        .map(Number)
        .reduce((s, v) => s + (247 - v), 0);
    expect(dist(divergingColor(0.3, 1))).toBeGreaterThan(0);
    expect(dist(divergingColor(0.6, 1))).toBeGreaterThan(dist(divergingColor(0.3, 1)));
    expect(dist(divergingColor(-0.6, 1))).toBeGreaterThan(dist(divergingColor(-0.3, 1)));
  });

  it('tells light from dark fills (for the entry dot)', () => {
    expect(isLight(divergingColor(0, 1))).toBe(true);
    expect(isLight(divergingColor(1, 1))).toBe(false);
  });
});

describe('keyboard and text', () => {
  it('moves the cursor with arrows, Home/End and PageUp/PageDown, clamped to the grid', () => {
    const at = { row: 1, col: 1 };
    expect(moveFocus(at, 'ArrowRight', 3, 4)).toEqual({ row: 1, col: 2 });
    expect(moveFocus({ row: 1, col: 3 }, 'ArrowRight', 3, 4)).toEqual({ row: 1, col: 3 });
    expect(moveFocus(at, 'ArrowUp', 3, 4)).toEqual({ row: 0, col: 1 });
    expect(moveFocus({ row: 0, col: 0 }, 'ArrowLeft', 3, 4)).toEqual({ row: 0, col: 0 });
    expect(moveFocus(at, 'End', 3, 4)).toEqual({ row: 1, col: 3 });
    expect(moveFocus(at, 'PageDown', 3, 4)).toEqual({ row: 2, col: 1 });
    expect(moveFocus(at, 'x', 3, 4)).toBeNull();
    expect(moveFocus(at, 'ArrowRight', 0, 0)).toBeNull();
  });

  it('describes a tested cell with both deltas, the interval, q, rank and whether it has an entry', () => {
    const m = buildMatrix(
      snapshot(
        [facet('cue', 'negation')],
        ['DALLE_3', 'SDXL'],
        [
          {
            toolId: 'DALLE_3',
            facet: 0,
            entryId: 'e1',
            effect: {
              n: 31,
              deltaOwn: -0.25,
              deltaVsOthers: -0.4,
              ci95: [-0.66, -0.14],
              ci95Own: [-0.5, 0],
              q: 0.003,
              mean: 3.1,
              toolMean: 3.35,
              rank: 6,
              of: 6,
            },
          },
        ],
      ),
    );
    const lines = cellLines(m, 0, 0);
    expect(lines[0]).toBe('DALLE_3 · negation (cue)');
    // The memory's one rounding rule (a 1–5 scale: 1 decimal), as the entry's words print it (issue #34).
    expect(lines[1]).toBe(`${MINUS}0.4 (95% CI ${MINUS}0.7 to ${MINUS}0.1) against its usual margin over the others · n = 31 · q = 0.003 · lowest of 6 tools`);
    expect(lines[2]).toBe(`vs its own mean ${MINUS}0.3 (95% CI ${MINUS}0.5 to 0.0)`);
    expect(lines[3]).toBe('mean 3.1 on these tasks, 3.4 overall');
    expect(lines.at(-1)).toMatch(/An entry was written/);
    expect(cellLines(m, 1, 0)[1]).toMatch(/Not tested/);
  });

  it('truncates labels to the room they have', () => {
    const fits = (s: string) => s.length <= 8;
    expect(truncateToFit('negation', fits)).toBe('negation');
    expect(truncateToFit('theme: cats, dogs', fits)).toBe('theme: …');
    expect(truncateToFit('x', () => false)).toBe('…');
  });

  it('drops the "theme: " prefix from theme columns only', () => {
    expect(columnLabel(facet('theme', 'theme: cats, dogs'))).toBe('cats, dogs');
    expect(columnLabel(facet('cue', 'theme: odd cue'))).toBe('theme: odd cue');
    expect(columnLabel(facet('theme', 'cats'))).toBe('cats');
  });

  it('labels kinds, an unknown one as it is', () => {
    expect(kindLabel('cue')).toBe('cues');
    expect(kindLabel('constructor')).toBe('constructor');
  });
});

describe('cellEntries', () => {
  const f = facet('cue', 'negation');
  const row = (id: string, over: Record<string, unknown> = {}) => ({ id, toolId: 'A', validTo: null as number | null, facet: f, ...over });

  it('finds the written entry first, then other valid entries of the tool about the same facet', () => {
    const entries = [
      row('b'),
      row('a', { facet: facet('cue', 'counting') }),
      row('w'),
      row('old', { validTo: 5 }),
      row('other-tool', { toolId: 'B' }),
      row('plain', { facet: undefined }),
    ];
    expect(cellEntries(entries, cell('A', 0, 0.3, 0, 'w'), f).map((e) => e.id)).toEqual(['w', 'b']);
  });

  it('finds a hand-edited version (new id, same facet) when the written one was superseded', () => {
    expect(cellEntries([row('w', { validTo: 9 }), row('man-1')], cell('A', 0, 0.3, 0, 'w'), f).map((e) => e.id)).toEqual(['man-1']);
  });
});

describe('toolExtremes', () => {
  it('picks the strongest and weakest facets of one tool, clear effects before uncertain ones', () => {
    const facets = ['a', 'b', 'c', 'd', 'e'].map((n) => facet('cue', n));
    const wide = (toolId: string, f: number, d: number): CapabilityCell => ({
      ...cell(toolId, f, d),
      effect: { ...cell(toolId, f, d).effect, ci95: [d - 2, d + 2] },
    });
    const s = snapshot(facets, ['A', 'B'], [cell('A', 0, 0.3), wide('A', 1, 0.9), cell('A', 2, 0.5), cell('A', 3, -0.4), cell('A', 4, 0), cell('B', 0, 2)]);
    const { strongest, weakest } = toolExtremes(s, 'A', 2);
    expect(strongest.map((r) => r.facet.name)).toEqual(['c', 'a']);
    expect(weakest.map((r) => [r.facet.name, r.delta, r.clear])).toEqual([['d', -0.4, true]]);
    expect(toolExtremes(s, 'nobody')).toEqual({ strongest: [], weakest: [] });
  });
});

describe('facetsByTool', () => {
  it('takes each tool from the first memory that tested it, and skips memories without a snapshot', () => {
    const f = [facet('cue', 'negation')];
    const newer = snapshot(f, ['A'], [cell('A', 0, -0.5)]);
    const older = snapshot(f, ['A', '__proto__'], [cell('A', 0, 0.5), cell('__proto__', 0, 0.2)]);
    const byTool = facetsByTool([{ name: 'old-style' }, { name: 'newer', capability: newer }, { name: 'older', capability: older }]);
    expect(byTool.get('A')!.memory).toBe('newer');
    expect(byTool.get('A')!.weakest[0]!.delta).toBe(-0.5);
    expect(byTool.get('__proto__')!.memory).toBe('older');
    expect(facetsByTool([]).size).toBe(0);
  });
});

describe('findCell', () => {
  it('finds a tool × facet by name and kind in a rebuilt matrix, or nothing', () => {
    const f = [facet('cue', 'negation'), facet('category', 'negation')];
    const m = buildMatrix(snapshot(f, ['A', 'B'], [cell('B', 0, 0.4), cell('A', 1, 0.2)]));
    const pos = findCell(m, 'B', facet('cue', 'negation'))!;
    expect(m.grid[pos.row]![pos.col]!.toolId).toBe('B');
    expect(m.columns[pos.col]!.def.kind).toBe('cue');
    expect(findCell(m, 'C', facet('cue', 'negation'))).toBeNull();
    expect(findCell(m, 'A', facet('theme', 'negation'))).toBeNull();
  });
});
