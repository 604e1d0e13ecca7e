/**
 * Issue #14 classes 2, 3 and 5: deep nesting, unbounded messages, CSV line endings and values.
 * Corpus and exact messages: tests/fixtures/bad-inputs/README.md, section "Values, nesting, line
 * endings and message size". Large inputs (100,000 levels, 20 MB lines, 100,000 columns) are
 * generated here rather than checked in.
 */
import { dropDbs, freshDb } from '../helpers/db';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolmem as cli } from '../helpers/cli';
import { ParseError, ValidationError } from '../../../src/core/errors';
import { boundRaw, clipList } from '../../../src/core/import/bounded';
import { CsvNewlines } from '../../../src/core/import/csv-newlines';
import { MAX_JSON_DEPTH, parseJsonRecord } from '../../../src/core/import/json-value';
import { rejectedRowsCsv } from '../../../src/core/import/rejected-csv';
import { parseDecimal } from '../../../src/core/import/score-number';
import { sniffEncoding } from '../../../src/core/import/sniff';
import { Utf8Decoder } from '../../../src/core/import/utf8-decode';
import type { ImportSummary } from '../../../src/core/import/types';
import { createInThreadClient } from '../../../src/rpc';
import { createImportHandlers } from '../../../src/app/import/handlers';
import type { ImportApi } from '../../../src/app/import/api';
import { BAD, REPO, chunked, importFile, importSource } from './helpers';

const bad = (name: string) => resolve(BAD, name);
const MESSAGE_MAX = 2048;

async function failure(name: string, extra = {}): Promise<Error> {
  const result = await importFile(bad(name), extra).catch((e: unknown) => e);
  if (!(result instanceof Error)) throw new Error(`${name} imported without error`);
  expect(result.message.length).toBeLessThanOrEqual(MESSAGE_MAX);
  return result;
}

/** Every reason of a summary: bounded, and as [row, column, reason]. */
function reasons(summary: ImportSummary): [number, string, string][] {
  for (const e of summary.errors) expect(e.reason.length).toBeLessThanOrEqual(MESSAGE_MAX);
  return summary.errors.map((e) => [e.row, e.column, e.reason]);
}

/** Bytes of `text` in chunks of `size` bytes (so multi-byte characters and CRLF are split). */
async function* byteChunks(text: string | Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const deep = (levels: number) => `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;
const DEPTH_ERROR = (levels: number) => `the record nests arrays and objects ${levels.toLocaleString('en-US')} levels deep; the limit is 64 levels`;

function tmpFile(name: string, content: string | Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolmem-values-')), name);
  writeFileSync(path, content);
  return path;
}

describe('class 2: deep nesting', () => {
  it('a mapped JSONL field nested 100,000 levels → row error naming the depth; the good lines import', async () => {
    const text = `{"prompt":"A cat","model":"gpt-4","score":4}\n{"prompt":${deep(100_000)},"model":"gpt-4","score":3}\n{"prompt":"A dog","model":"gpt-4","score":5}\n`;
    const { summary, sink } = await importSource(chunked(text, 65_536), 'deep.jsonl');
    expect(summary.accepted).toBe(2);
    expect(reasons(summary)).toEqual([[2, '', `line 2: ${DEPTH_ERROR(100_001)}`]]);
    expect(sink.rows.map((r) => r.prompt)).toEqual(['A cat', 'A dog']);
    // What the worker posts to the page: a structured clone of the summary (was "Maximum call stack size exceeded").
    expect(() => structuredClone(summary)).not.toThrow();
    expect(() => rejectedRowsCsv(summary.errors)).not.toThrow();
  });

  it('a JSON member nested 100,000 levels → row error for that member', async () => {
    const text = `[{"prompt":"A cat","model":"gpt-4","score":4},\n{"prompt":"A dog","model":"gpt-4","score":3,"meta":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}]`;
    const { summary } = await importSource(chunked(text, 65_536), 'deep.json');
    expect(summary.accepted).toBe(1);
    expect(reasons(summary)).toEqual([[2, '', `member 2: ${DEPTH_ERROR(100_001)}`]]);
    expect(() => structuredClone(summary)).not.toThrow();
  });

  it('the limit is exactly 64 levels (the record itself is level 1)', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(parseJsonRecord(`{"a":${deep(63)}}`).value).toBeDefined();
    expect(parseJsonRecord(`{"a":${deep(64)}}`).error).toBe(DEPTH_ERROR(65));
  });

  it('deep-field.jsonl and deep-member.json (checked in) → row errors', async () => {
    const a = await importFile(bad('deep-field.jsonl'));
    expect(a.summary.accepted).toBe(2);
    expect(reasons(a.summary)).toEqual([[2, '', `line 2: ${DEPTH_ERROR(66)}`]]);
    const b = await importFile(bad('deep-member.json'));
    expect(b.summary.accepted).toBe(1);
    expect(reasons(b.summary)).toEqual([[2, '', `member 2: ${DEPTH_ERROR(71)}`]]);
  });

  it('CLI: 100,000 levels in a mapped field → the good lines are reported, exit 0 (not an uncaught RangeError)', async () => {
    const path = tmpFile('deep.jsonl', `{"prompt":"A cat","model":"gpt-4","score":4}\n{"prompt":${deep(100_000)},"model":"gpt-4","score":3}\n`);
    // One good score cannot tell the scale (issue #27): it is given.
    const text = await cli(['import', '--data', path, '--scale', '1:5']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`line 2: ${DEPTH_ERROR(100_001)}`);
    expect(text.stdout).toMatch(/total\s+1\s+1/);
    const json = await cli(['import', '--data', path, '--scale', '1:5', '--json']);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as ImportSummary).accepted).toBe(1);
  });

  it('the real bin on 100,000 levels exits 0', async () => {
    const path = tmpFile('deep.jsonl', `{"prompt":"A cat","model":"gpt-4","score":4}\n{"prompt":${deep(100_000)},"model":"gpt-4","score":3}\n`);
    const code = await new Promise<number | null>((done) => {
      execFile(process.execPath, [resolve(REPO, 'bin/toolmem.mjs'), 'import', '--data', path, '--scale', '1:5'], { timeout: 60_000 }, (error) =>
        done(error ? (typeof error.code === 'number' ? error.code : null) : 0),
      );
    });
    expect(code).toBe(0);
  }, 60_000);
});

describe('class 3: bounded messages', () => {
  it('a 20 MB file on one line → a fatal message under 2 KB; CLI stdout and stderr under 2 KB, exit 2', async () => {
    const line = 'x'.repeat(20_000_000);
    const err = await importSource(chunked(line, 1 << 20), 'one-line.csv').catch((e: Error) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const message = (err as Error).message;
    expect(message.length).toBeLessThanOrEqual(MESSAGE_MAX);
    expect(message).toBe(
      `No column for the required fields 'prompt', 'tool': none of the columns (${'x'.repeat(60)}… (19,999,940 more)) looks like them. Map them explicitly (CLI: --map prompt=COLUMN).`,
    );
    const path = tmpFile('one-line.csv', line);
    const run = await cli(['import', '--data', path]);
    expect(run.code).toBe(2);
    expect(run.stderr.length).toBeLessThanOrEqual(MESSAGE_MAX);
    const json = await cli(['import', '--data', path, '--json']);
    expect(json.code).toBe(2);
    expect(json.stdout.length).toBeLessThanOrEqual(MESSAGE_MAX);
  }, 60_000);

  it('a header of 100,000 columns → the column list is cut and counted', async () => {
    const header = Array.from({ length: 100_000 }, (_, i) => `c${i + 1}`).join(',');
    const err = await importSource(chunked(`${header}\n`, 65_536), 'wide.csv').catch((e: Error) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const message = (err as Error).message;
    expect(message.length).toBeLessThanOrEqual(MESSAGE_MAX);
    expect(message).toMatch(
      /^No column for the required fields 'prompt', 'tool': none of the columns \(c1, c2, .*, … \(99,9\d\d more columns\)\) looks like them\./,
    );
  });

  it('a 10 MB quoted field → row error; the raw record kept for the download is bounded', async () => {
    const field = 'lorem, "ipsum"\n'.repeat(700_000).slice(0, 10_000_000);
    const text = `prompt,model,score,response\nWrite a lot,gpt-4,4,"${field.replace(/"/g, '""')}"\nWrite less,gpt-4,3,short\n`;
    const { summary } = await importSource(chunked(text, 1 << 20), 'big.csv');
    expect(summary.accepted).toBe(1);
    expect(reasons(summary)).toEqual([[1, 'response', 'response is too long: 10,000,000 characters (the limit is 1,000,000)']]);
    const raw = summary.errors[0]!.raw as Record<string, string>;
    expect(raw.response!.length).toBeLessThan(2_100);
    expect(raw.response).toMatch(/… \(9,998,000 more characters\)$/);
    expect(rejectedRowsCsv(summary.errors).length).toBeLessThan(5_000);
  });

  it('a 20 MB JSONL line that is not JSON → bounded reason and raw line', async () => {
    const text = `{"prompt":"A cat","model":"gpt-4","score":4}\n{"prompt":"${'y'.repeat(20_000_000)}" oops}\n`;
    const { summary } = await importSource(chunked(text, 1 << 20), 'big.jsonl');
    expect(summary.accepted).toBe(1);
    expect(reasons(summary)).toEqual([[2, '', "line 2: invalid JSON: Expected ',' or '}' after property value but found 'o' (line 2, column 20000014)"]]);
    expect(JSON.stringify(summary.errors[0]!.raw).length).toBeLessThan(2_200);
  });

  it('a 500,000-character tool name and task id are quoted, not echoed whole', async () => {
    const long = 't'.repeat(500_000);
    const text = `id,prompt,model,score\n${long},Write,${long},3\n${long},Write,${long},4\n`;
    const { summary } = await importSource(chunked(text, 1 << 20), 'long.csv');
    const [row] = reasons(summary);
    expect(row![2]).toBe(`duplicate of row 1: same task '${'t'.repeat(200)}… (499,800 more)', tool '${'t'.repeat(200)}… (499,800 more)' and rater 'default'`);
  });

  it('a 10 MB unclosed quote → the snippet is clipped', async () => {
    const err = await failure('long-unclosed-quote.csv');
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toBe(
      'Unclosed quote: row 2 opens a quoted field ("an endless quoted field an endless quote… (9,560 more)") that is never closed before the end of the file.',
    );
  });

  it('bounded helpers: raw records keep 100 columns of 2,000 characters; lists are counted', () => {
    const raw = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`c${i}`, 'v'.repeat(5_000)]));
    const b = boundRaw(raw)!;
    expect(Object.keys(b)).toHaveLength(101);
    expect(b._more_columns).toBe('50 more columns not kept');
    expect((b.c0 as string).length).toBeLessThan(2_100);
    expect(clipList(['a', 'b', 'c'])).toBe('a, b, c');
  });
});

describe('class 5: CSV line endings', () => {
  it('mixed CR, LF and CRLF each end a record (also fed byte by byte)', async () => {
    const expected = ['Write a haiku', 'Write a limerick', 'Write an ode', 'Write a sonnet'];
    const { summary, sink } = await importFile(bad('mixed-line-endings.csv'));
    expect(summary).toMatchObject({ accepted: 4, rejected: 0 });
    expect(sink.rows.map((r) => r.prompt)).toEqual(expected);
    const bytes = readFileSync(bad('mixed-line-endings.csv'));
    const split = await importSource(byteChunks(bytes, 1), 'mixed-line-endings.csv');
    expect(split.sink.rows.map((r) => r.prompt)).toEqual(expected);
  });

  it('a CR-only file imports; line breaks inside quotes are data and kept as they are', async () => {
    const cr = await importFile(bad('cr-only.csv'));
    expect(cr.summary).toMatchObject({ accepted: 3, rejected: 0 });
    // Every bare CR ends a record; the quoted CRLF stays inside the first prompt.
    expect(cr.sink.rows.map((r) => [r.prompt, r.score])).toEqual([
      ['Line one\r\nline two', 3],
      ['Write a limerick', 4],
      ['Write an ode', 5],
    ]);
    const q = await importFile(bad('crlf-in-quotes.csv'));
    expect(q.sink.rows.map((r) => r.prompt)).toEqual(['First line\r\nsecond line\rthird', 'He said "hi"\nthen left']);
  });

  it('the normaliser follows Papa Parse quoting (quotes open only at a field start)', () => {
    const n = new CsvNewlines(',');
    expect(n.push('a,b "x\r1,"q\r""\r",2\r\n3')).toBe('a,b "x\n1,"q\r""\r",2\n3');
    const split = new CsvNewlines(',');
    expect(['a\r', '\nb\r', 'c'].map((c) => split.push(c)).join('')).toBe('a\nb\nc');
  });
});

describe('class 5: scores (one decimal grammar)', () => {
  it('hex, binary and octal are rejected (Number() read them as 3, 3, 7)', async () => {
    const { summary } = await importFile(bad('hex-scores.csv'));
    expect(summary.accepted).toBe(1);
    const hint = '(write the score in decimal, e.g. 3 or 2.5)';
    expect(reasons(summary)).toEqual([
      [1, 'score', `score '0x3' is not a decimal number: hexadecimal is not accepted ${hint}`],
      [2, 'score', `score '0b11' is not a decimal number: binary is not accepted ${hint}`],
      [3, 'score', `score '0o7' is not a decimal number: octal is not accepted ${hint}`],
    ]);
  });

  it('"+3", " 3 " and "2.5e0" are decimals; "1,5" and "3 stars" are not', async () => {
    const { summary, sink } = await importFile(bad('score-spellings.csv'));
    expect(sink.rows.map((r) => r.score)).toEqual([3, 3, 2.5]);
    expect(reasons(summary)).toEqual([
      [3, 'score', "score '1,5' is not a number: use a point as the decimal separator (e.g. 2.5)"],
      [4, 'score', "score '3 stars' is not a number"],
    ]);
    // Spaces only is no score at all: the row is an output awaiting labels (issue #26), not an error.
    expect(summary.unscored).toBe(1);
  });

  it('JSON scores: 1e400 overflows, strings follow the same grammar, booleans are not numbers', async () => {
    const { summary, sink } = await importFile(bad('json-scores.jsonl'));
    expect(sink.rows.map((r) => r.score)).toEqual([3]);
    expect(reasons(summary)).toEqual([
      [1, 'score', 'score is too large: it overflows to infinity (scores must lie within ±1.8e308)'],
      [2, 'score', "score '0x3' is not a decimal number: hexadecimal is not accepted (write the score in decimal, e.g. 3 or 2.5)"],
      [3, 'score', "score 'Infinity' is not a finite number"],
      [5, 'score', "score 'true' is not a number"],
    ]);
  });

  it('parseDecimal', () => {
    for (const [text, value] of [
      ['3', 3],
      ['-0.5', -0.5],
      ['+3', 3],
      [' 3 ', 3],
      ['.5', 0.5],
      ['5.', 5],
      ['1E2', 100],
      ['007', 7],
    ] as const) {
      expect(parseDecimal(text), text).toBe(value);
    }
    for (const text of ['0x3', '0b11', '0o7', 'Infinity', 'NaN', '1_000', '3e', '--3', '1e400']) expect(typeof parseDecimal(text), text).toBe('string');
  });
});

describe('class 5: text fields, encodings, JSON', () => {
  it('a JSON array or object in a text field → row error (not stored as JSON text)', async () => {
    const a = await importFile(bad('array-prompt.jsonl'));
    expect(a.sink.rows.map((r) => r.prompt)).toEqual(['Write a sonnet']);
    expect(reasons(a.summary)).toEqual([
      [1, 'prompt', "prompt must be text: column 'prompt' holds a JSON array"],
      [2, 'response', "response must be text: column 'response' holds a JSON object"],
    ]);
    const o = await importFile(bad('object-prompt.json'));
    expect(reasons(o.summary)).toEqual([[1, 'prompt', "prompt must be text: column 'prompt' holds a JSON object"]]);
  });

  it('a literal U+FFFD in valid UTF-8 imports; invalid bytes (also a cut-off last character) are rejected', async () => {
    const ok = await importFile(bad('fffd-literal.csv'));
    expect(ok.summary).toMatchObject({ accepted: 2, rejected: 0 });
    expect(ok.sink.rows[1]?.prompt).toBe('Unknown glyphs show as \uFFFD\uFFFD');
    const tail = await importFile(bad('invalid-utf8-tail.csv'));
    expect(tail.sink.rows.map((r) => r.prompt)).toEqual(['Write a haiku', 'Write a caf\u00e9 poem']);
    expect(reasons(tail.summary)).toEqual([
      [3, 'prompt', "invalid UTF-8: column 'prompt' contains bytes that are not valid UTF-8 (shown as �); save the file as UTF-8 and import it again"],
    ]);
  });

  it('the decoder never splits a character across chunks and escapes only invalid bytes', () => {
    const text = 'caf\u00e9 \u20ac \u{1F600} \uFFFD';
    const bytes = new TextEncoder().encode(text);
    const d = new Utf8Decoder();
    let out = '';
    for (const b of bytes) out += d.push(new Uint8Array([b]));
    expect(out + d.end()).toBe(text);
    expect(d.invalidBytes).toBe(0);
    const bad8 = new Utf8Decoder();
    expect(bad8.push(new Uint8Array([0x61, 0xe9, 0x62])) + bad8.end()).toBe('a\uDCE9b');
  });

  const SAVE = 'Save it as UTF-8 (Excel: "CSV UTF-8"; other editors: Save As → Encoding UTF-8) and import it again.';
  it.each([
    ['utf32le.csv', `The file is UTF-32 encoded (UTF-32LE: it starts with the byte-order mark FF FE 00 00), but imports must be UTF-8. ${SAVE}`],
    ['utf32be.csv', `The file is UTF-32 encoded (UTF-32BE: it starts with the byte-order mark 00 00 FE FF), but imports must be UTF-8. ${SAVE}`],
    ['utf32le-no-bom.csv', `The file is UTF-32 encoded (UTF-32LE: three of every four bytes are 0), but imports must be UTF-8. ${SAVE}`],
    ['utf16be-no-bom.csv', `The file is UTF-16 encoded (every other byte is 0), but imports must be UTF-8. ${SAVE}`],
    [
      'nul-in-field.csv',
      'The file is binary, not text: it contains a NUL byte at line 3, column 8. CSV, JSON and JSONL files are plain text; check that you picked the right file (an image, spreadsheet or database file cannot be imported as it is).',
    ],
  ])('%s → fatal, named', async (name, message) => {
    const err = await failure(name);
    expect(err).toBeInstanceOf(ParseError);
    expect(err.message).toBe(message);
  });

  it('sniffEncoding gives the same answer for bytes and for text decoded with U+FFFD (the memory loader)', () => {
    for (const name of ['utf32le.csv', 'utf32be.csv', 'utf16.csv', 'utf16be-no-bom.csv', 'utf32le-no-bom.csv', 'gzipped.csv']) {
      const bytes = readFileSync(bad(name));
      const fromBytes = sniffEncoding(bytes);
      expect(fromBytes, name).not.toBeNull();
      expect(sniffEncoding(new TextDecoder().decode(bytes))?.kind, name).toBe(
        fromBytes!.kind === 'utf-16be' && name === 'utf16.csv' ? 'utf-16le' : fromBytes!.kind,
      );
    }
    expect(sniffEncoding(readFileSync(bad('fffd-literal.csv')))).toBeNull();
  });

  it('duplicate keys → row error naming the key', async () => {
    const l = await importFile(bad('duplicate-keys.jsonl'));
    expect(l.summary.accepted).toBe(2);
    expect(reasons(l.summary)).toEqual([[2, '', "line 2: duplicate key 'score' in one object (line 2, column 56); each key may appear only once"]]);
    const j = await importFile(bad('duplicate-keys.json'));
    expect(reasons(j.summary)).toEqual([[2, '', "member 2: duplicate key 'prompt' in one object (line 3, column 52); each key may appear only once"]]);
  });

  it('comments, trailing commas, single quotes, NaN → the reason, at line and column', async () => {
    const c = await importFile(bad('comments.jsonl'));
    expect(reasons(c.summary)).toEqual([
      [2, '', 'line 2: invalid JSON: comments are not allowed in JSON: remove the // comment (line 2, column 57)'],
      [3, '', 'line 3: invalid JSON: comments are not allowed in JSON: remove the /* */ comment (line 3, column 27)'],
    ]);
    const between = await failure('comments-between.json');
    expect(between.message).toBe("Comments are not allowed in JSON: found '/', the start of a // or /* */ comment (line 3, column 3).");
    const t = await importFile(bad('trailing-comma.jsonl'));
    expect(reasons(t.summary)).toEqual([
      [1, '', "line 1: invalid JSON: trailing comma before '}' (line 1, column 53)"],
      [3, '', "line 3: invalid JSON: trailing comma before ']' (line 3, column 60)"],
    ]);
    const q = await importFile(bad('single-quotes.jsonl'));
    expect(reasons(q.summary)).toEqual([
      [1, '', 'line 1: invalid JSON: keys must be in double quotes, not single quotes (line 1, column 2)'],
      [2, '', 'line 2: invalid JSON: NaN is not a JSON number (line 2, column 50)'],
    ]);
  });
});

describe('an import that accepts no row leaves no empty dataset', () => {
  it('all rows rejected into a NEW dataset → no dataset, and the outcome says so', async () => {
    const { db, repos } = await freshDb('values-empty-dataset');
    try {
      const client = createInThreadClient<ImportApi>(createImportHandlers(repos, undefined, { locks: null }));
      const file = new File(
        [readFileSync(bad('hex-scores.csv')).toString('utf8').replace('Write a sonnet,gpt-4,3', 'Write a sonnet,gpt-4,0x9')],
        'all-bad.csv',
      );
      const outcome = await client.call('import', { file, datasetName: 'All bad', preset: 'generic' });
      expect(outcome.summary).toMatchObject({ accepted: 0, rejected: 4 });
      expect(outcome).toMatchObject({ createdDataset: false, datasetNotCreated: true });
      expect(await db.datasets.count()).toBe(0);
      expect(await db.experiences.count()).toBe(0);
      // A good file still creates its dataset.
      const good = await client.call('import', {
        file: new File([readFileSync(bad('mixed-line-endings.csv'))], 'mixed.csv'),
        datasetName: 'Mixed',
        preset: 'generic',
      });
      expect(good.createdDataset).toBe(true);
      expect(good.datasetNotCreated).toBeUndefined();
      expect(await db.experiences.count()).toBe(4);
    } finally {
      await dropDbs();
    }
  });
});
