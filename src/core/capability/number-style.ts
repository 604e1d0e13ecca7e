/**
 * How a memory's numbers are written: fixed decimals, thousands separators, a real minus sign, and
 * the one rounding rule (`NumberStyle`) that the entry texts (templates.ts) and every view share. Pure.
 */

const MINUS = '−';

// toLocaleString with options builds an Intl.NumberFormat per call (a build formats thousands of numbers); one per decimals count gives the same text.
const fixedFormats = new Map<number, Intl.NumberFormat>();
const fixedFormat = (decimals: number): Intl.NumberFormat =>
  fixedFormats.get(decimals) ??
  fixedFormats.set(decimals, new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })).get(decimals)!;

/** A number for a glance: fixed decimals, thousands separators, a real minus sign. */
export function formatNumber(x: number, decimals = 1, signed = false): string {
  const rounded = Number(x.toFixed(decimals));
  const body = fixedFormat(decimals).format(Math.abs(rounded));
  if (rounded < 0) return `${MINUS}${body}`;
  return signed && rounded > 0 ? `+${body}` : body;
}

export const formatCount = (n: number): string => n.toLocaleString('en-US');

/**
 * The one rounding rule of a memory's numbers (issue #34): the entry's words, its effect bar, the
 * matrix tooltip, the Tools card and MCP all show a number through it, so they never disagree.
 * Scales no wider than 1 show 2 decimals, wider ones 1; pass/fail claims (a logit-scale contrast)
 * speak in pass rates: levels as whole percentages, changes as percentage points.
 */
export interface NumberStyle {
  decimals: number;
  percent: boolean;
}

export function numberStyle(scaleWidth = 4, passRates = false): NumberStyle {
  if (passRates && scaleWidth <= 1) return { decimals: 0, percent: true };
  return { decimals: scaleWidth <= 1 ? 2 : 1, percent: false };
}

/** x rounded the way `style` shows it (a fraction for percentages: 0.334 → 0.33). */
export function roundShown(x: number, style: NumberStyle): number {
  const r = style.percent ? Math.round(x * 100) / 100 : Number(x.toFixed(style.decimals));
  return r === 0 ? 0 : r;
}

/** A level on the scale: "2.8", "0.42", "33%". */
export function formatLevel(x: number, style: NumberStyle): string {
  return style.percent ? `${formatNumber(x * 100, 0)}%` : formatNumber(x, style.decimals);
}

/** A change, signed: "+0.5", "−0.05", "−9 points" (percentage points for pass rates). */
export function formatChange(x: number, style: NumberStyle): string {
  if (!style.percent) return formatNumber(x, style.decimals, true);
  const pts = Math.abs(Number((x * 100).toFixed(0)));
  return `${formatNumber(x * 100, 0, true)} point${pts === 1 ? '' : 's'}`;
}

/** A 95% interval of a change: "−0.9 to −0.3", "−14 to −4 points". */
export function formatChangeInterval(ci: readonly [number, number], style: NumberStyle): string {
  if (!style.percent) return intervalText(ci, style.decimals);
  return `${intervalText([ci[0] * 100, ci[1] * 100], 0)} points`;
}

/**
 * An interval at `decimals`, one more where an end that is not 0 would round to 0.0: a claim whose
 * interval excludes 0 must not read "0.0 to 0.3".
 */
export function intervalText([lo, hi]: readonly [number, number], decimals: number): string {
  const zero = (x: number) => x !== 0 && Number(x.toFixed(decimals)) === 0;
  const d = zero(lo) || zero(hi) ? decimals + 1 : decimals;
  return `${formatNumber(lo, d)} to ${formatNumber(hi, d)}`;
}
