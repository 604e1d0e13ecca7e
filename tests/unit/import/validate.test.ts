import { describe, expect, it } from 'vitest';
import { editDistance, RowValidator } from '../../../src/core/import/validate';
import type { CanonicalRow } from '../../../src/core/import/types';

const LIKERT = { min: 1, max: 5, direction: 'higher-better' as const, integer: true };

function row(over: Partial<CanonicalRow> = {}, n = 1): CanonicalRow {
  return {
    taskId: String(n),
    prompt: 'Draw a cat',
    tool: 'DALLE_3',
    score: '4',
    rater: 'rater1',
    categories: [],
    scoreSource: 'human',
    source: { row: n, columns: { id: 'id', prompt: 'prompt', tool: 'model', score: 'rating' }, raw: { n } },
    ...over,
  };
}

function validator(extra: Partial<ConstructorParameters<typeof RowValidator>[0]> = {}) {
  return new RowValidator({ fileName: 'f.csv', datasetId: 'ds', importId: 'imp', now: 5, scale: LIKERT, ...extra });
}

const reason = (v: RowValidator, r: CanonicalRow) => v.check(r).error?.reason;

describe('row validation', () => {
  it('builds an experience with a deterministic id', () => {
    const checked = validator().check(row({ response: 'r', feedback: 'f', rubric: 'ru', image: 'cat.png', categories: ['a'] }));
    expect(checked.experience).toEqual({
      id: 'ds|DALLE_3|1|rater1',
      datasetId: 'ds',
      taskId: '1',
      prompt: 'Draw a cat',
      toolId: 'DALLE_3',
      score: 4,
      rater: 'rater1',
      scoreSource: 'human',
      categories: ['a'],
      response: 'r',
      feedback: 'f',
      rubric: 'ru',
      imageId: 'cat.png',
      importId: 'imp',
      createdAt: 5,
    });
  });

  it('names the missing field and its column', () => {
    const v = validator();
    expect(v.check(row({ prompt: '  ' })).error).toMatchObject({ row: 1, column: 'prompt', reason: "missing prompt: column 'prompt' is empty" });
    expect(v.check(row({ tool: '' })).error).toMatchObject({ column: 'model', reason: "missing tool: column 'model' is empty" });
  });

  it('a row without a score is an output awaiting labels, one per task × tool', () => {
    const v = validator();
    const first = v.check(row({ score: '', image: 'sdxl/1.png', response: undefined }, 1));
    expect(first.error).toBeUndefined();
    expect(first.unscored).toEqual({
      id: 'ds|1|DALLE_3',
      datasetId: 'ds',
      taskId: '1',
      toolId: 'DALLE_3',
      prompt: 'Draw a cat',
      categories: [],
      createdAt: 5,
      importId: 'imp',
      imageId: 'sdxl/1.png',
    });
    expect(v.check(row({ score: null }, 2)).unscored?.id).toBe('ds|2|DALLE_3');
    expect(v.check(row({ score: undefined }, 3)).unscored?.id).toBe('ds|3|DALLE_3');
    expect(v.check(row({ score: ' \t' }, 4)).unscored?.id).toBe('ds|4|DALLE_3');
    // The same output twice without a score is a duplicate; another rater does not make it another output.
    expect(reason(v, { ...row({ score: '', rater: 'rater2' }, 1), source: { ...row().source, row: 9 } })).toBe(
      "duplicate of row 1: same task '1' and tool 'DALLE_3', both without a score",
    );
  });

  it('rejects non-numeric, out-of-scale and fractional scores', () => {
    const v = validator();
    expect(reason(v, row({ score: 'great' }))).toBe("score 'great' is not a number");
    expect(reason(v, row({ score: '41' }))).toBe('score 41 is outside the scale 1–5');
    expect(reason(v, row({ score: 0 }))).toBe('score 0 is outside the scale 1–5');
    expect(reason(v, row({ score: '3.5' }))).toBe('score 3.5 is not a whole number; the scale 1–5 allows whole numbers only');
    expect(validator({ scale: { ...LIKERT, integer: false } }).check(row({ score: ' 3.5 ' })).experience?.score).toBe(3.5);
    expect(validator({ scale: null }).check(row({ score: '-12.25' })).experience?.score).toBe(-12.25);
  });

  it('flags duplicates with the row of the first occurrence', () => {
    const v = validator();
    expect(v.check(row({}, 3)).experience).toBeDefined();
    expect(v.check(row({ taskId: '3' }, 9)).error).toMatchObject({
      row: 9,
      column: 'id',
      reason: "duplicate of row 3: same task '3', tool 'DALLE_3' and rater 'rater1'",
    });
    expect(v.check(row({ taskId: '3', rater: 'rater2' }, 10)).experience).toBeDefined();
  });

  it('suggests a known tool for near misses and accepts new tools', () => {
    const v = validator({ knownTools: ['DALLE_3', 'Midjourney_6'] });
    expect(reason(v, row({ tool: 'dalle_3' }))).toBe("unknown tool 'dalle_3': did you mean DALLE_3?");
    expect(reason(v, row({ tool: 'DALLE3', taskId: '2' }))).toBe("unknown tool 'DALLE3': did you mean DALLE_3?");
    expect(reason(v, row({ tool: 'Midjourney_5', taskId: '3' }))).toBe("unknown tool 'Midjourney_5': did you mean Midjourney_6?");
    expect(v.check(row({ tool: 'SDXL_Turbo', taskId: '4' })).experience?.toolId).toBe('SDXL_Turbo');
    expect(v.check(row({ tool: 'DALLE_3', taskId: '5' })).experience).toBeDefined();
  });

  it('rejects over-long fields and undecodable text', () => {
    const v = validator();
    expect(v.check(row({ response: 'x'.repeat(1_000_000) })).experience).toBeDefined();
    expect(v.check(row({ response: 'x'.repeat(1_000_001), taskId: '2' })).error).toMatchObject({
      column: 'response',
      reason: 'response is too long: 1,000,001 characters (the limit is 1,000,000)',
    });
    // An invalid byte arrives escaped as U+DC80–U+DCFF (utf8-decode.ts); a literal U+FFFD is text.
    expect(reason(v, row({ prompt: 'caf\uDCE9', taskId: '3' }))).toBe(
      "invalid UTF-8: column 'prompt' contains bytes that are not valid UTF-8 (shown as �); save the file as UTF-8 and import it again",
    );
    expect(v.check(row({ prompt: 'caf\uFFFD', taskId: '4' })).experience?.prompt).toBe('caf\uFFFD');
    // A surrogate pair whose low half is in that range is an ordinary character (💀 = D83D DC80).
    expect(v.check(row({ prompt: 'skull \uD83D\uDC80', taskId: '5' })).experience).toBeDefined();
  });

  it('computes a bounded edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('dalle_3', 'dalle3')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('a', 'abcdef')).toBe(3);
  });
});
