import { describe, expect, it } from 'vitest';
import { clipInput, quote, QUOTE_MAX } from '../../../src/core/text/quote';

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
  it('never splits a surrogate pair and counts code points', () => {
    expect(clipInput('😀😀😀', 2)).toBe('😀😀… (1 more)');
  });
  it('escapes control characters so a message stays on one line', () => {
    expect(quote('a\nb\tc\u0000')).toBe("'a\\nb\\tc\\u0000'");
  });
});
