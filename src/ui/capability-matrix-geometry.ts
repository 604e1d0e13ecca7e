/**
 * The capability matrix's geometry (issue #15): cell size, where each cell, header and row label
 * sits on the canvas, which cell a point hits, the diverging colour of a delta, and arrow-key moves
 * between cells. Pure (no DOM): unit-tested in Node; `capability-matrix.ts` decides what the cells
 * hold, `capability-matrix-paint.ts` paints them.
 */
import type { CapabilityMatrixModel } from './capability-matrix';

export interface MatrixGeometry {
  cell: number;
  /** Width of the row labels (tool names) on the left. */
  labelWidth: number;
  /** Height of the column header (kind band + rotated facet names). */
  headerHeight: number;
  /** Pixels between two kind groups. */
  groupGap: number;
  /** Height of the kind band at the top of the header. */
  bandHeight: number;
  width: number;
  height: number;
  /** Left edge of each column, in CSS pixels. */
  colX: number[];
  rows: number;
}

export const MIN_CELL = 16;
export const MAX_CELL = 32;

/**
 * Cell size: the columns share `room` (the pixels right of the labels) when given, within
 * [MIN_CELL, MAX_CELL] — below 16 px a cell is too small to point at, so the matrix scrolls
 * instead. Without a width, by count: 32 px up to 12 facets, 26 up to 24, then 20.
 */
export function cellSizeFor(columns: number, room?: number): number {
  if (room !== undefined && columns > 0) return Math.min(MAX_CELL, Math.max(MIN_CELL, Math.floor(room / columns)));
  if (columns <= 12) return 32;
  if (columns <= 24) return 26;
  return 20;
}

/** `width`: the width available to the whole matrix (labels included); cells then fill it. */
export function layoutMatrix(model: CapabilityMatrixModel, opts: { labelWidth: number; headerHeight?: number; cell?: number; width?: number }): MatrixGeometry {
  const groupGap = 6;
  const room = opts.width === undefined ? undefined : opts.width - Math.ceil(opts.labelWidth) - groupGap * Math.max(0, model.groups.length - 1) - 4;
  const cell = opts.cell ?? cellSizeFor(model.columns.length, room);
  const bandHeight = 18;
  const headerHeight = opts.headerHeight ?? 120;
  const labelWidth = Math.ceil(opts.labelWidth);
  const colX: number[] = [];
  let x = labelWidth;
  let g = 0;
  for (let i = 0; i < model.columns.length; i++) {
    while (g < model.groups.length - 1 && i >= model.groups[g + 1]!.start) {
      g++;
      x += groupGap;
    }
    colX.push(x);
    x += cell;
  }
  return {
    cell,
    labelWidth,
    headerHeight,
    groupGap,
    bandHeight,
    width: x + 4,
    height: headerHeight + model.tools.length * cell + 4,
    colX,
    rows: model.tools.length,
  };
}

/** Top edge of a row. */
export function rowY(geo: MatrixGeometry, row: number): number {
  return geo.headerHeight + row * geo.cell;
}

/** The cell position under a point (CSS pixels from the canvas' top left), or null (labels, gaps, outside). */
export function hitTest(geo: MatrixGeometry, x: number, y: number): { row: number; col: number } | null {
  if (y < geo.headerHeight) return null;
  const row = Math.floor((y - geo.headerHeight) / geo.cell);
  if (row < 0 || row >= geo.rows) return null;
  const col = columnAt(geo, x);
  return col === null ? null : { row, col };
}

/** The column whose name is under a point of the header (the rotated facet names), or null. */
export function headerHit(geo: MatrixGeometry, x: number, y: number): number | null {
  return y >= geo.bandHeight && y < geo.headerHeight ? columnAt(geo, x) : null;
}

/** The column spanning x (CSS pixels), or null (labels, a gap between kinds, outside). */
function columnAt(geo: MatrixGeometry, x: number): number | null {
  // Columns are sorted by x: binary search for the last column starting at or before x.
  let lo = 0;
  let hi = geo.colX.length - 1;
  let col = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (geo.colX[mid]! <= x) {
      col = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (col < 0 || x >= geo.colX[col]! + geo.cell) return null;
  return col;
}

/**
 * A diverging, colour-blind-safe scale (ColorBrewer PuOr): orange = worse than the comparison,
 * near-white = no difference, purple-blue = better. |value| ≥ domain takes the end colour.
 */
const NEGATIVE: readonly [number, number, number][] = [
  [247, 247, 247],
  [254, 224, 182],
  [241, 163, 64],
  [179, 88, 6],
];
const POSITIVE: readonly [number, number, number][] = [
  [247, 247, 247],
  [216, 218, 235],
  [153, 142, 195],
  [84, 39, 136],
];

export function divergingColor(value: number, domain: number): string {
  if (!Number.isFinite(value)) return 'rgb(247, 247, 247)';
  const t = Math.min(1, Math.abs(value) / (domain > 0 ? domain : 1));
  const stops = value < 0 ? NEGATIVE : POSITIVE;
  const pos = t * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(pos));
  const f = pos - i;
  const [a, b] = [stops[i]!, stops[i + 1]!];
  const mix = (k: 0 | 1 | 2) => Math.round(a[k] + (b[k] - a[k]) * f);
  return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
}

/** Whether dark text reads on a cell colour (for the marker dot drawn on it). */
export function isLight(color: string): boolean {
  const m = /rgb\((\d+), (\d+), (\d+)\)/.exec(color);
  if (!m) return true;
  const [r, g, b] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150;
}

/** Arrow keys, Home/End and PageUp/PageDown move the keyboard cell within the grid; null for other keys. */
export function moveFocus(pos: { row: number; col: number }, key: string, rows: number, cols: number): { row: number; col: number } | null {
  if (!rows || !cols) return null;
  const clamp = (v: number, n: number) => Math.min(n - 1, Math.max(0, v));
  switch (key) {
    case 'ArrowRight':
      return { row: pos.row, col: clamp(pos.col + 1, cols) };
    case 'ArrowLeft':
      return { row: pos.row, col: clamp(pos.col - 1, cols) };
    case 'ArrowDown':
      return { row: clamp(pos.row + 1, rows), col: pos.col };
    case 'ArrowUp':
      return { row: clamp(pos.row - 1, rows), col: pos.col };
    case 'Home':
      return { row: pos.row, col: 0 };
    case 'End':
      return { row: pos.row, col: cols - 1 };
    case 'PageUp':
      return { row: 0, col: pos.col };
    case 'PageDown':
      return { row: rows - 1, col: pos.col };
    default:
      return null;
  }
}
