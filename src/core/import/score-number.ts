/**
 * The one number grammar for scores written as text (CSV cells, JSON strings), documented in
 * docs/data-model.md ("Scores"):
 *
 *   [spaces] [+|-] digits [. digits] [e|E [+|-] digits] [spaces]     (also ".5" and "5.")
 *
 * Decimal only. `Number()` also accepts `0x3`, `0b11`, `0o7` (= 3, 3, 7), `Infinity` and the empty
 * string (= 0); a score column holding those is a broken export, not a score, so they are rejected
 * with a reason instead of being stored as a number the file never meant.
 */
import { quote } from '../text/quote';

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Leading/trailing spaces and tabs are padding (spreadsheets and aligned exports add them). */
const PADDING = /^[ \t]+|[ \t]+$/g;

/** The score `text` stands for, or the reason (naming the text, bounded) it is not one. */
export function parseDecimal(text: string): number | string {
  const t = text.replace(PADDING, '');
  const shown = quote(t);
  if (t === '') return `missing score: the cell holds only spaces`;
  if (!DECIMAL.test(t)) {
    if (/^[+-]?nan$/i.test(t)) return `score ${shown} is not a number`;
    if (/^[+-]?(inf|infinity|∞)$/i.test(t)) return `score ${shown} is not a finite number`;
    if (/^[+-]?0[xX][0-9a-fA-F]+$/.test(t))
      return `score ${shown} is not a decimal number: hexadecimal is not accepted (write the score in decimal, e.g. 3 or 2.5)`;
    if (/^[+-]?0[bB][01]+$/.test(t)) return `score ${shown} is not a decimal number: binary is not accepted (write the score in decimal, e.g. 3 or 2.5)`;
    if (/^[+-]?0[oO][0-7]+$/.test(t)) return `score ${shown} is not a decimal number: octal is not accepted (write the score in decimal, e.g. 3 or 2.5)`;
    if (/^[+-]?\d+,\d+$/.test(t)) return `score ${shown} is not a number: use a point as the decimal separator (e.g. 2.5)`;
    return `score ${shown} is not a number`;
  }
  const value = Number(t);
  // Only overflow makes a decimal literal infinite (1e400).
  if (!Number.isFinite(value)) return `score ${shown} is too large: it overflows to infinity (scores must lie within ±1.8e308)`;
  return value;
}
