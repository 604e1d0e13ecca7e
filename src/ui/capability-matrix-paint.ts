/**
 * Painting the capability matrix on a canvas (CapabilityMatrix.svelte): the kind band, the rotated
 * facet names, the tool names and the cells, in the geometry of `layoutMatrix`. The caller sizes the
 * canvas and sets the font; these functions only draw, so the exported PNG is exactly what is shown.
 */
import { headline, statusOf } from './capability-format';
import { columnLabel, kindLabel, truncateToFit, type CapabilityMatrixModel } from './capability-matrix';
import { divergingColor, isLight, rowY, type MatrixGeometry } from './capability-matrix-geometry';

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
