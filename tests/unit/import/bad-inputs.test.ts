/** The malformed corpus in tests/fixtures/bad-inputs (see its README): each file gives a specific result. */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ParseError, ValidationError } from '../../../src/core/errors';
import { BAD, chunked, importFile, importSource } from './helpers';

const bad = (name: string) => resolve(BAD, name);
const LIKERT = { min: 1, max: 5, direction: 'higher-better' as const, integer: true };

async function failure(name: string, extra = {}): Promise<Error> {
  const result = await importFile(bad(name), extra).catch((e: unknown) => e);
  if (!(result instanceof Error)) throw new Error(`${name} imported without error`);
  return result;
}

describe('bad inputs', () => {
  // Files refused as a whole: the error's class and its whole message (a RegExp where only the
  // start of the message is fixed).
  it.each<[string, string, typeof ParseError | typeof ValidationError, string | RegExp]>([
    [
      'missing required column → ValidationError naming the field',
      'missing-column.csv',
      ValidationError,
      "No column for the required field 'tool': none of the columns (prompt, score, response) looks like it. Map it explicitly (CLI: --map tool=COLUMN).",
    ],
    ['empty file → ParseError', 'empty.csv', ParseError, 'The file is empty: there is nothing to import.'],
    [
      'truncated JSON → ParseError with the position',
      'truncated.json',
      ParseError,
      'Truncated JSON: the file ends inside member 2 (line 3, column 28, character 90); the top-level array is never closed.',
    ],
    [
      'JSON that is neither array nor object → ParseError',
      'scalar.json',
      ParseError,
      'A JSON file must hold an array or an object at the top level; this one starts with a string (line 1, column 1).',
    ],
    [
      'binary file renamed .csv (NUL bytes) → ParseError saying it is binary, with the position',
      'binary-nul.csv',
      ParseError,
      'The file is binary, not text: it contains a NUL byte at line 3, column 1. CSV, JSON and JSONL files are plain text; check that you picked the right file (an image, spreadsheet or database file cannot be imported as it is).',
    ],
    [
      'gzip file named .csv → ParseError saying to decompress it',
      'gzipped.csv',
      ParseError,
      'The file is gzip-compressed (it starts with the gzip signature 1F 8B), not CSV/JSON text. Decompress it first (for example `gunzip FILE`) and import the extracted file.',
    ],
    [
      'UTF-16 file → ParseError saying to save it as UTF-8',
      'utf16.csv',
      ParseError,
      /^The file is UTF-16 encoded \(every other byte is 0\), but imports must be UTF-8\. Save it as UTF-8/,
    ],
    [
      'only blank lines → ParseError that says the lines are blank',
      'blank-lines.csv',
      ParseError,
      'The file holds only blank lines (6 lines of whitespace, no header): there is nothing to import.',
    ],
    [
      'JSON object whose "records" member is not a record → ParseError naming the member',
      'records-not-array.json',
      ParseError,
      "Not one record in the file could be read, so there is nothing to import. The first problem: member 1 ('records'): expected an object (a top-level JSON object must map ids to records), found a string.",
    ],
    [
      'JSON wrapper object {"records": [...]} → ParseError telling to import the array itself',
      'wrapped-array.json',
      ParseError,
      "Not one record in the file could be read, so there is nothing to import. The first problem: member 1 ('records'): expected an object (a top-level JSON object must map ids to records), found an array; if the records are in this array, import a file whose top level is the array itself.",
    ],
  ])('%s', async (_title, name, errorClass, message) => {
    const err = await failure(name);
    expect(err).toBeInstanceOf(errorClass);
    if (typeof message === 'string') expect(err.message).toBe(message);
    else expect(err.message).toMatch(message);
  });

  it('unclosed quote → ParseError with the row', async () => {
    const err = await failure('unclosed-quote.csv');
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).row).toBe(2);
    expect(err.message).toBe('Unclosed quote: row 2 opens a quoted field ("A blue sphere,gpt-4,3…") that is never closed before the end of the file.');
  });

  it('semicolon file read as comma with a mapping → says which delimiter it looks like', async () => {
    const err = await failure('semicolon.csv', { delimiter: ',', mapping: { prompt: 'prompt', tool: 'model', score: 'score' } });
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe(
      "Mapping prompt=prompt: the file has no column 'prompt'. Columns: prompt;model;score. The header was read as a single column, 'prompt;model;score': the file looks ';'-separated but was read as ','-separated. Let the delimiter be detected, or set it to ';' (CLI: --delimiter).",
    );
    // Auto-detected, the same file imports (commas inside the prompts are data).
    const { summary, sink } = await importFile(bad('semicolon.csv'));
    expect(summary.accepted).toBe(2);
    expect(sink.rows[0]?.prompt).toBe('Write a poem, please');
  });

  it('non-numeric score → row error, other rows imported', async () => {
    const { summary } = await importFile(bad('non-numeric-score.csv'));
    expect(summary.accepted).toBe(2);
    expect(summary.errors).toMatchObject([{ row: 2, column: 'score', reason: "score 'excellent' is not a number" }]);
  });

  it('UTF-8 BOM → imports fine, first header intact', async () => {
    const { summary, sink } = await importFile(bad('bom.csv'));
    expect(summary.headers).toEqual(['prompt', 'model', 'score']);
    expect(summary.accepted).toBe(2);
    expect(sink.rows[0]?.prompt).toBe('Write a haiku');
  });

  it('1 MB single field (generated) → imports fine; one character more is rejected', async () => {
    const field = 'lorem ipsum, "quoted"\n'.repeat(45_455).slice(0, 1_000_000);
    const quoted = `"${field.replace(/"/g, '""')}"`;
    const text = `prompt,model,score,response\nWrite a lot,gpt-4,4,${quoted}\nWrite more,gpt-4,3,${quoted.slice(0, -1)}x"\n`;
    const { summary, sink } = await importSource(chunked(text, 65_536), 'big-field.csv');
    expect(sink.rows[0]?.response).toBe(field);
    expect(summary.accepted).toBe(1);
    expect(summary.errors).toMatchObject([{ row: 2, column: 'response', reason: 'response is too long: 1,000,001 characters (the limit is 1,000,000)' }]);
  });

  it('duplicate rows → the later one points at the first', async () => {
    const { summary } = await importFile(bad('duplicate-rows.csv'));
    expect(summary.accepted).toBe(2);
    expect(summary.errors).toMatchObject([{ row: 3, column: 'id', reason: "duplicate of row 1: same task '1', tool 'gpt-4' and rater 'default'" }]);
  });

  it('Latin-1 bytes → that row is rejected as invalid UTF-8, the others import', async () => {
    const { summary } = await importFile(bad('latin1.csv'));
    expect(summary.accepted).toBe(2);
    expect(summary.errors).toMatchObject([
      {
        row: 2,
        column: 'prompt',
        reason: "invalid UTF-8: column 'prompt' contains bytes that are not valid UTF-8 (shown as �); save the file as UTF-8 and import it again",
      },
    ]);
  });

  it('JSONL bad line → row error with the line number', async () => {
    const { summary } = await importFile(bad('bad-line.jsonl'));
    expect(summary.accepted).toBe(3);
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]?.row).toBe(3);
    expect(summary.errors[0]?.reason).toMatch(/^line 3: invalid JSON: Expected ',' or '}' after property value/);
  });

  it('row with an extra field → row error', async () => {
    const { summary } = await importFile(bad('field-count.csv'));
    expect(summary.accepted).toBe(2);
    expect(summary.errors[0]?.reason).toBe('has 4 fields but the header has 3 columns (more than expected; check quoting and the delimiter ",")');
  });

  it('scores outside a given scale → row errors; without a scale one is inferred', async () => {
    const { summary } = await importFile(bad('out-of-scale.csv'), { scale: LIKERT });
    expect(summary.errors.map((e) => [e.row, e.reason])).toEqual([
      [2, 'score 7 is outside the scale 1–5'],
      [3, 'score 3.5 is not a whole number; the scale 1–5 allows whole numbers only'],
    ]);
    const inferred = await importFile(bad('out-of-scale.csv'));
    expect(inferred.summary).toMatchObject({ accepted: 3, scaleInferred: true, scale: { min: 0, max: 10, integer: false } });
  });

  it('tool name close to a known tool → did you mean', async () => {
    const { summary } = await importFile(bad('near-miss-tool.csv'), { knownTools: ['DALLE_3', 'SDXL_Turbo'] });
    expect(summary.errors).toMatchObject([{ row: 2, column: 'model', reason: "unknown tool 'dalle3': did you mean DALLE_3?" }]);
  });

  it('header only → zero rows, no error', async () => {
    const { summary } = await importFile(bad('header-only.csv'));
    expect(summary).toMatchObject({ rowsRead: 0, accepted: 0, rejected: 0 });
  });

  it('numbers in the first row → missing header', async () => {
    const err = await failure('numeric-header.csv');
    expect(err.message).toBe('Missing header: the first row (1, 2, 3) holds only numbers, so it looks like data rather than column names.');
  });

  it('stray quotes inside a quoted field → read literally (Papa Parse is lenient)', async () => {
    const { summary, sink } = await importFile(bad('malformed-quotes.csv'));
    expect(summary.accepted).toBe(3);
    expect(sink.rows[1]?.prompt).toBe('A "blue" sphere');
  });

  // A header that leaves a needed column unclear is refused with the way out; that explicit mapping then imports both rows.
  it.each([
    [
      'duplicate header names on a needed column → ValidationError naming both columns',
      'duplicate-header.csv',
      "Column 'score' appears 2 times in the header (columns 3 and 4), so it is unclear which one holds the score. Rename the duplicates in the file, or map score explicitly: 'score' is column 3, 'score_2' is column 4 (CLI: --map score=score).",
      { score: 'score_2' },
    ],
    [
      'empty header cell where the tool column is → ValidationError pointing at the unnamed column',
      'empty-header-cell.csv',
      "No column for the required field 'tool': none of the columns (prompt, column_2, score) looks like it. Map it explicitly (CLI: --map tool=COLUMN). The header has no name for column 2 (shown as 'column_2'); name it in the file, or map the field to 'column_2'.",
      { tool: 'column_2' },
    ],
  ])('%s', async (_title, name, message, mapping) => {
    const err = await failure(name);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe(message);
    const { summary } = await importFile(bad(name), { mapping });
    expect(summary.accepted).toBe(2);
  });

  it('NaN / Infinity scores → row errors, the finite row imports', async () => {
    const { summary } = await importFile(bad('nan-score.csv'));
    expect(summary.accepted).toBe(1);
    expect(summary.errors.map((e) => [e.row, e.column, e.reason])).toEqual([
      [1, 'score', "score 'NaN' is not a number"],
      [2, 'score', "score 'Infinity' is not a finite number"],
      [3, 'score', "score '-Infinity' is not a finite number"],
    ]);
  });

  it('scores that overflow a float (1e400) → row errors saying so', async () => {
    const { summary } = await importFile(bad('extreme-scores.csv'));
    expect(summary.accepted).toBe(1);
    expect(summary.errors.map((e) => e.reason)).toEqual([
      "score '1e400' is too large: it overflows to infinity (scores must lie within ±1.8e308)",
      "score '-1e400' is too large: it overflows to infinity (scores must lie within ±1.8e308)",
    ]);
  });

  it('JSONL line holding a top-level array → row error for that line', async () => {
    const { summary } = await importFile(bad('array-line.jsonl'));
    expect(summary.accepted).toBe(2);
    expect(summary.errors).toMatchObject([{ row: 2, reason: 'line 2: expected a JSON object, found an array' }]);
  });

  it('JSONL line of 100,000 nested arrays → row error, no stack overflow, the other lines import', async () => {
    const { summary } = await importFile(bad('deep-nesting.jsonl'));
    expect(summary.accepted).toBe(2);
    expect(summary.errors).toMatchObject([{ row: 2, reason: 'line 2: expected a JSON object, found an array' }]);
  });
});
