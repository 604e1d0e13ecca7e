/**
 * Painting the capability matrix on a canvas (CapabilityMatrix.svelte): the kind band, the rotated
 * facet names, the tool names and the cells, in the geometry of `layoutMatrix`. The caller sizes the
 * canvas and sets the font; these functions only draw, so the exported PNG is exactly what is shown.
 * `drawMatrix` does both for a canvas element: sizes it for the screen's pixel ratio, then paints.
 */
import { headline, statusOf } from './capability-format';
import { columnLabel, kindLabel, truncateToFit, type CapabilityMatrixModel } from './capability-matrix';
import { divergingColor, isLight, layoutMatrix, rowY, type MatrixGeometry } from './capability-matrix-geometry';

/** The theme's colours, read once per paint from the page's CSS variables. */
export interface MatrixInk {
  text: string;
  text2: string;
  border: string;
}

/** Kind band ("categories", "cues", "themes" over their columns), facet names rotated, tool names right-aligned against the grid. */
export function paintLabels(ctx: CanvasRenderingContext2D, m: CapabilityMatrixModel, g: MatrixGeometry, labelWidth: number, ink: MatrixInk): void {
  for (const grp of m.groups) {
    const x0 = g.colX[grp.start]!;
    const x1 = g.colX[grp.start + grp.count - 1]! + g.cell;
    ctx.fillStyle = ink.text2;
    ctx.textAlign = 'left';
    const label = truncateToFit(kindLabel(grp.kind), (s) => ctx.measureText(s).width <= x1 - x0);
    ctx.fillText(label, x0, g.bandHeight / 2);
    ctx.fillRect(x0, g.bandHeight - 2, x1 - x0, 1);
  }
  // Facet names are truncated to the header (the tooltip has the whole name).
  const room = g.headerHeight - g.bandHeight - 10;
  ctx.fillStyle = ink.text;
  ctx.textAlign = 'left';
  m.columns.forEach((col, i) => {
    const name = truncateToFit(columnLabel(col.def), (s) => ctx.measureText(s).width <= room);
    ctx.save();
    ctx.translate(g.colX[i]! + g.cell / 2, g.headerHeight - 6);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(name, 0, 0);
    ctx.restore();
  });
  ctx.textAlign = 'right';
  m.tools.forEach((t, r) => {
    ctx.fillStyle = ink.text;
    ctx.fillText(
      truncateToFit(t, (s) => ctx.measureText(s).width <= labelWidth - 10),
      labelWidth - 8,
      rowY(g, r) + g.cell / 2,
    );
  });
}

/** Cells: colour of the headline; blank (outlined) when not tested; a dot when an entry was written. */
export function paintCells(ctx: CanvasRenderingContext2D, m: CapabilityMatrixModel, g: MatrixGeometry, ink: MatrixInk): void {
  ctx.lineWidth = 1;
  m.grid.forEach((cells, r) => {
    const y = rowY(g, r);
    cells.forEach((cell, i) => {
      const x = g.colX[i]!;
      if (!cell) {
        ctx.strokeStyle = ink.border;
        ctx.strokeRect(x + 1.5, y + 1.5, g.cell - 3, g.cell - 3);
        return;
      }
      const color = divergingColor(headline(cell.effect), m.colorDomain);
      const status = statusOf(cell.effect);
      // Issue #25: claims stand out (full colour, outlined), tentative cells are paler with a
      // dashed edge, the rest faint; snapshots without a status are drawn as before.
      ctx.globalAlpha = status === 'none' ? 0.35 : status === 'tentative' ? 0.7 : 1;
      ctx.fillStyle = color;
      ctx.fillRect(x + 1, y + 1, g.cell - 2, g.cell - 2);
      ctx.globalAlpha = 1;
      if (status === 'claim') {
        ctx.strokeStyle = ink.text;
        ctx.lineWidth = 2;
        ctx.strokeRect(x + 2, y + 2, g.cell - 4, g.cell - 4);
        ctx.lineWidth = 1;
      } else if (status === 'tentative') {
        ctx.strokeStyle = ink.text2;
        ctx.setLineDash([3, 2]);
        ctx.strokeRect(x + 2.5, y + 2.5, g.cell - 5, g.cell - 5);
        ctx.setLineDash([]);
      }
      if (cell.entryId) {
        ctx.fillStyle = isLight(color) ? '#1b1f24' : '#ffffff';
        ctx.beginPath();
        ctx.arc(x + g.cell / 2, y + g.cell / 2, Math.max(2, g.cell / 9), 0, Math.PI * 2);
        ctx.fill();
      }
    });
  });
}

/** Font size of every label on the matrix (px). */
const FONT_PX = 12;
/** Height of the header: the kind band and the rotated facet names (px). */
const HEADER = 132;

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/**
 * Sizes `c` for the matrix `m` in `width` px (0: the cells' own size) and paints it all; returns its
 * geometry and the time it took (ms), also left on the canvas as data-draw-ms. Null without a 2D context.
 */
export function drawMatrix(c: HTMLCanvasElement, m: CapabilityMatrixModel, width: number): { geo: MatrixGeometry; ms: number } | null {
  const t0 = performance.now();
  const ctx = c.getContext('2d');
  if (!ctx) return null;
  const family = getComputedStyle(c).fontFamily || 'system-ui, sans-serif';
  const font = `${FONT_PX}px ${family}`;
  ctx.font = font;
  let widest = 0;
  for (const t of m.tools) widest = Math.max(widest, ctx.measureText(t).width);
  const labelWidth = Math.min(190, widest + 14);
  const g = layoutMatrix(m, { labelWidth, headerHeight: HEADER, ...(width > 0 ? { width } : {}) });
  const dpr = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
  c.width = Math.round(g.width * dpr);
  c.height = Math.round(g.height * dpr);
  c.style.width = `${g.width}px`;
  c.style.height = `${g.height}px`;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  // An opaque background: the exported PNG must read on dark and light viewers alike.
  ctx.fillStyle = cssVar('--surface', '#ffffff');
  ctx.fillRect(0, 0, g.width, g.height);
  const ink: MatrixInk = {
    text: cssVar('--text', '#1b1f24'),
    text2: cssVar('--text-2', '#5a6370'),
    border: cssVar('--border', '#dde1e7'),
  };
  ctx.font = font;
  ctx.textBaseline = 'middle';
  paintLabels(ctx, m, g, labelWidth, ink);
  paintCells(ctx, m, g, ink);
  const ms = performance.now() - t0;
  c.dataset.drawMs = ms.toFixed(1);
  return { geo: g, ms };
}
