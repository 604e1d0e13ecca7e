import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/core/eval/rng';
import { clipInput, quote, QUOTE_MAX } from '../../../src/core/text/quote';

/** Undoes the escapes of clipInput's shown part (the tests' own inverse, not the code's). */
const unescape = (s: string) =>
  s.replace(/\\n|\\r|\\t|\\u([0-9a-f]{4})/g, (m, hex: string | undefined) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : m === '\\n' ? '\n' : m === '\\r' ? '\r' : '\t',
  );
const HUGE = 100_000_000;

/** A 100M-unit string made of `pattern` repeated (a flat string once first read). */
function huge(pattern: string): string {
  const text = pattern.repeat(Math.ceil(HUGE / pattern.length)).slice(0, HUGE);
  text.charCodeAt(HUGE - 1); // flatten once here, not inside the first clipInput call
  return text;
}

describe('quote', () => {
  it('keeps short input whole', () => {
    expect(quote('gpt-4')).toBe("'gpt-4'");
  });
  it('cuts long input at 200 characters and says how much more there was', () => {
    const text = 'a'.repeat(20_000_000);
    const q = clipInput(text);
    expect(q).toBe(`${'a'.repeat(QUOTE_MAX)}… (19,999,800 more)`);
    expect(q.length).toBeLessThan(2048);
  });
  it('never splits a surrogate pair: the cut moves before it, and the rest is counted in UTF-16 units like length', () => {
    expect(clipInput('😀😀😀', 2)).toBe('😀… (4 more)');
    expect(clipInput('😀😀😀', 3)).toBe('😀… (4 more)');
    expect(clipInput('a😀😀', 2)).toBe('a… (4 more)');
    expect(clipInput('😀😀', 4)).toBe('😀😀');
  });
  it('escapes control characters so a message stays on one line', () => {
    expect(quote('a\nb\tc\u0000')).toBe("'a\\nb\\tc\\u0000'");
    expect(clipInput('\r\u007f\u001bx', 3)).toBe('\\r\\u007f\\u001b… (1 more)');
  });
  it('takes 0 or a fraction as a limit without breaking', () => {
    expect(clipInput('abc', 0)).toBe('… (3 more)');
    expect(clipInput('abc', 1.7)).toBe('a… (2 more)');
  });

  // Property: for any limit, on 100M-unit strings of letters, emoji, accents and control characters,
  // the quote is the input's first `max` units (one fewer when that would split a pair), escaped,
  // then the exact count of the rest. (Reading only `max` units keeps this fast: a full scan or a
  // spread of 100M units would take seconds and gigabytes per call.)
  it.each([
    ['letters', 'abcdefghij'],
    ['emoji', '😀'],
    ['emoji after an odd number of letters', 'abc😀'],
    ['accents, control characters and emoji', 'é\n😀\tx\u0000\u{1F680}y'],
  ])('holds on a 100 MB string of %s', (_name, pattern) => {
    const text = huge(pattern);
    const random = mulberry32(pattern.length * 7919);
    const limits = [0, 1, 2, 3, 199, 200, 201, ...Array.from({ length: 200 }, () => Math.floor(random() * 5000))];
    for (const max of limits) {
      const out = clipInput(text, max);
      const m = /^([\s\S]*)… \(([\d,]+) more\)$/.exec(out);
      expect(m, `limit ${max}`).not.toBeNull();
      const shown = unescape(m![1]!);
      const rest = Number(m![2]!.replace(/,/g, ''));
      expect(shown.length === max || (shown.length === max - 1 && /[\uD800-\uDBFF]/.test(text[max - 1]!)), `limit ${max}: ${shown.length} shown`).toBe(true);
      expect(text.startsWith(shown)).toBe(true);
      expect(shown.length + rest).toBe(HUGE);
      expect(shown.isWellFormed()).toBe(true);
      expect(out.length).toBeLessThanOrEqual(6 * max + 40);
      expect(quote(text, max)).toBe(`'${out}'`);
    }
  });
});
