/**
 * The capability matrix's legend (CapabilityMatrix.svelte), as plain functions: the colour scale's
 * gradient, what its ends mean and whether the cells carry a claim status to explain.
 */
import { formatSigned, statusOf } from './capability-format';
import type { CapabilityMatrixModel } from './capability-matrix';
import { divergingColor } from './capability-matrix-geometry';

/** The scale's colours from −domain to +domain, five stops, for a CSS linear-gradient. */
export function legendStops(colorDomain: number): string {
  return [-1, -0.5, 0, 0.5, 1].map((f) => divergingColor(f * colorDomain, colorDomain)).join(', ');
}

/**
 * What the scale's ends mean: "−0.5 worse · 0 · better +0.5 (score points vs the other tools)"; "≤" and "≥"
 * when the colours stop short of the largest effect (a few outliers would wash out every other cell).
 */
export function legendText(model: Pick<CapabilityMatrixModel, 'colorDomain' | 'domain'>): string {
  const [atMost, atLeast] = model.colorDomain < model.domain ? ['≤ ', '≥ '] : ['', ''];
  return `${atMost}${formatSigned(-model.colorDomain)} worse · 0 · better ${atLeast}${formatSigned(model.colorDomain)} (score points vs the other tools)`;
}

/** Whether the cells carry a claim status (builds since issue #25): the legend then explains the outlines. */
export function matrixHasStatus(model: Pick<CapabilityMatrixModel, 'grid'>): boolean {
  return model.grid.some((row) => row.some((c) => c !== null && statusOf(c.effect) !== null));
}
