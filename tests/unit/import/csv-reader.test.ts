import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/core/errors';
import { guessDelimiter } from '../../../src/core/import/csv-chunk-parser';
import { createReader, readItems } from '../../../src/core/import/readers';
import { TextSource } from '../../../src/core/import/text-source';
import type { ReadItem } from '../../../src/core/import/types';
import { chunked, importSource } from './helpers';

async function readCsv(text: string, size: number, delimiter?: string): Promise<{ items: ReadItem[]; headers: string[] | null }> {
  const reader = createReader('csv', 'test.csv', delimiter);
  const items: ReadItem[] = [];
  for await (const item of readItems(new TextSource(chunked(text, size)).chunks(), reader)) items.push(item);
  return { items, headers: reader.headers };
}

// Quoted fields with embedded newlines (LF and CRLF), escaped quotes, delimiters inside quotes,
// non-ASCII text and an emoji (a surrogate pair that 1-char chunks split in two).
const TRICKY =
  '\uFEFFid,prompt,model,score\r\n' +
  '1,"A poem about ""rain"",\r\nin two lines",gpt-4,4\r\n' +
  '2,"Crème brûlée, ✨ 🍮",claude,5\r\n' +
  '3,"multi\nline\n\nwith blank line",gpt-4,3\r\n' +
  '4,plain,gpt-4,2\r\n';

describe('CSV reader', () => {
  it('gives identical records for 1-byte, 7-byte and whole chunks', async () => {
    const whole = await readCsv(TRICKY, 0);
    expect(whole.headers).toEqual(['id', 'prompt', 'model', 'score']);
    expect(whole.items.map((i) => i.record?.data.prompt)).toEqual([
      'A poem about "rain",\r\nin two lines',
      'Crème brûlée, ✨ 🍮',
      'multi\nline\n\nwith blank line',
      'plain',
    ]);
    expect(whole.items.map((i) => i.record?.row)).toEqual([1, 2, 3, 4]);
    for (const size of [1, 7]) expect(await readCsv(TRICKY, size)).toEqual(whole);
  });

  it('gives identical import results for 1-byte, 7-byte and whole chunks', async () => {
    const results = [];
    for (const size of [1, 7, 0]) {
      const { summary, sink } = await importSource(chunked(TRICKY, size), 'tricky.csv');
      results.push({ rows: sink.rows, accepted: summary.accepted, rejected: summary.rejected, tools: summary.tools });
    }
    expect(results[0]?.accepted).toBe(4);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });

  it('keeps a 1 MB quoted field with newlines intact across 64 KB chunks', async () => {
    const big = ('x'.repeat(1023) + '\n').repeat(1000); // 1,024,000 chars
    const text = `prompt,model,score,response\n"short",m,1,"${big}"\nnext,m,2,ok\n`;
    const { items } = await readCsv(text, 65_536);
    expect(items).toHaveLength(2);
    expect((items[0]?.record?.data.response as string).length).toBe(1_024_000);
    expect(items[1]?.record?.data.prompt).toBe('next');
  });

  it('detects the delimiter from the header line', async () => {
    expect(guessDelimiter('a,b,c')).toBe(',');
    expect(guessDelimiter('a;b;c')).toBe(';');
    expect(guessDelimiter('a\tb\tc')).toBe('\t');
    expect(guessDelimiter('a|b|c')).toBe('|');
    expect(guessDelimiter('"x;y",b,c')).toBe(',');
    for (const d of [';', '\t', '|']) {
      const { items, headers } = await readCsv(`prompt${d}model${d}score\nhi, there${d}m${d}3\n`, 3);
      expect(headers).toEqual(['prompt', 'model', 'score']);
      expect(items[0]?.record?.data).toEqual({ prompt: 'hi, there', model: 'm', score: '3' });
    }
  });

  it('reports a row whose field count differs from the header, and goes on', async () => {
    const { items } = await readCsv('a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n', 4);
    expect(items.map((i) => i.record?.row ?? i.error?.row)).toEqual([1, 2, 3, 4]);
    expect(items[1]?.error?.reason).toBe('has 2 fields but the header has 3 columns (fewer than expected; check quoting and the delimiter ",")');
    expect(items[2]?.error?.reason).toBe('has 4 fields but the header has 3 columns (more than expected; check quoting and the delimiter ",")');
    expect(items[2]?.error?.raw).toEqual({ a: '6', b: '7', c: '8', extra_1: '9' });
  });

  it('throws ParseError with the row number for an unclosed quote at EOF', async () => {
    const text = 'prompt,model,score\n"ok",m,1\nfine,m,2\n"broken,m,3\nmore,m,4\n';
    for (const size of [1, 5, 0]) {
      const err = await readCsv(text, size).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ParseError);
      expect((err as ParseError).row).toBe(3);
      expect((err as ParseError).message).toBe('Unclosed quote: row 3 opens a quoted field ("broken,m,3…") that is never closed before the end of the file.');
    }
  });

  it('skips blank lines and numbers rows without them', async () => {
    const { items } = await readCsv('a,b\n\n1,2\n\n\n3,4', 2);
    expect(items.map((i) => [i.record?.row, i.record?.data.a])).toEqual([
      [1, '1'],
      [2, '3'],
    ]);
  });

  it('names blank and repeated header cells', async () => {
    const { headers } = await readCsv('score,,score\n1,2,3\n', 0);
    expect(headers).toEqual(['score', 'column_2', 'score_2']);
  });

  it('rejects empty files and numeric first rows', async () => {
    await expect(readCsv('', 0)).rejects.toThrow('The file is empty: there is no header row.');
    await expect(readCsv('\n\n', 1)).rejects.toThrow('The file is empty: there is no header row.');
    await expect(readCsv('1,2,3\n4,5,6\n', 0)).rejects.toThrow(
      'Missing header: the first row (1, 2, 3) holds only numbers, so it looks like data rather than column names.',
    );
    await expect(readCsv(',,\n1,2,3\n', 0)).rejects.toThrow('Missing header: the first row has no column names.');
  });

  it('uses a forced delimiter even when another one would be detected', async () => {
    const { headers } = await readCsv('prompt;model;score\na;b;1\n', 0, ',');
    expect(headers).toEqual(['prompt;model;score']);
  });
});
