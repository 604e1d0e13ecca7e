import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/core/errors';
import { JsonScanner, type JsonMember } from '../../../src/core/import/json-scanner';
import { createReader, detectFormat, readItems } from '../../../src/core/import/readers';
import type { ReadItem } from '../../../src/core/import/types';
import { chunked } from './helpers';

function scan(text: string, size: number): JsonMember[] {
  const scanner = new JsonScanner('t.json');
  const out: JsonMember[] = [];
  for (let i = 0; i < text.length; i += size || text.length) out.push(...scanner.push(text.slice(i, i + (size || text.length))));
  scanner.end();
  return out;
}

async function read(format: 'json' | 'jsonl', text: string, size = 0): Promise<ReadItem[]> {
  const items: ReadItem[] = [];
  for await (const item of readItems(chunked(text, size), createReader(format, `t.${format}`))) items.push(item);
  return items;
}

const ARRAY = '[ {"a": "x]}\\"{[", "n": [1, {"b": 2}]}, 42 ,"s\\\\" , true, null, -1.5e3, {} ]';
const OBJECT = '{"k1": {"v": 1}, "k\\"2" : [1,2], "k3": "str", "k4": 7}';

describe('JSON scanner', () => {
  it('splits a top-level array into members the same way for any chunk size', () => {
    const whole = scan(ARRAY, 0);
    expect(whole.map((m) => JSON.parse(m.text))).toEqual([{ a: 'x]}"{[', n: [1, { b: 2 }] }, 42, 's\\', true, null, -1500, {}]);
    expect(whole.map((m) => m.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const size of [1, 2, 3, 7]) expect(scan(ARRAY, size)).toEqual(whole);
  });

  it('gives object members with their keys', () => {
    const whole = scan(OBJECT, 0);
    expect(whole.map((m) => [m.key, JSON.parse(m.text)])).toEqual([
      ['k1', { v: 1 }],
      ['k"2', [1, 2]],
      ['k3', 'str'],
      ['k4', 7],
    ]);
    expect(scan(OBJECT, 1)).toEqual(whole);
  });

  it('accepts empty containers and surrounding whitespace', () => {
    expect(scan('  [ ]  \n', 1)).toEqual([]);
    expect(scan('{}', 0)).toEqual([]);
  });

  it('reports truncation with a position', () => {
    expect(() => scan('[{"a": 1}, {"b": "unfinished', 4)).toThrow(
      'Truncated JSON: the file ends inside member 2 (line 1, column 29, character 28); the top-level array is never closed.',
    );
    expect(() => scan('{"a": 1,\n "b": 2', 0)).toThrow(
      'Truncated JSON: the file ends inside member 2 (line 2, column 8, character 16); the top-level object is never closed.',
    );
    expect(() => scan('[1, 2', 0)).toThrow(/ends inside member 2/);
    expect(() => scan('[1, 2 ', 0)).toThrow("Truncated JSON: the file ends after member 2 without the closing ']'");
  });

  it('rejects a top level that is neither an array nor an object', () => {
    const err = (() => {
      try {
        scan('"hello"', 0);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ParseError);
    expect((err as Error).message).toBe('A JSON file must hold an array or an object at the top level; this one starts with a string (line 1, column 1).');
    expect(() => scan('42', 0)).toThrow('this one starts with a number');
  });

  it('rejects structural errors', () => {
    expect(() => scan('[1,]', 0)).toThrow('Trailing comma before the closing bracket (line 1, column 4).');
    expect(() => scan('[1 2]', 0)).toThrow("Expected ',' or ']' after member 1 but found '2' (line 1, column 4).");
    expect(() => scan('{"a" 1}', 0)).toThrow(`Expected ':' after the member name 'a' (line 1, column 6).`);
    expect(() => scan('{1: 2}', 0)).toThrow("Expected a member name in double quotes but found '1'");
    expect(() => scan('[1] x', 0)).toThrow('Unexpected data after the end of the top-level array');
  });
});

describe('JSON record reader', () => {
  it('turns bad members into row errors, not fatal errors', async () => {
    const items = await read('json', '[{"a": 1}, 5, {"b": tru}, {"c": 3}]', 3);
    expect(items.map((i) => i.record?.data ?? i.error?.reason)).toEqual([
      { a: 1 },
      'member 2: expected an object, found a number',
      expect.stringMatching(/^member 3: invalid JSON: /),
      { c: 3 },
    ]);
  });
});

describe('JSONL reader', () => {
  it('numbers lines, skips blank lines and reports bad lines', async () => {
    const text = '{"a": 1}\r\n\n{"a": 2}\n{oops}\n[1]\n{"a": 3}';
    for (const size of [1, 5, 0]) {
      const items = await read('jsonl', text, size);
      expect(items.map((i) => i.record?.row ?? i.error?.row)).toEqual([1, 3, 4, 5, 6]);
      expect(items[2]?.error?.reason).toMatch(/^line 4: invalid JSON: /);
      expect(items[3]?.error?.reason).toBe('line 5: expected a JSON object, found an array');
      expect(items[4]?.record?.data).toEqual({ a: 3 });
    }
  });

  it('rejects an empty file', async () => {
    await expect(read('jsonl', '\n\n')).rejects.toThrow('The file is empty: there are no JSON lines in it.');
  });
});

describe('format detection', () => {
  it('uses the extension, then the first character', () => {
    expect(detectFormat('a.csv', '{"x":1}')).toBe('csv');
    expect(detectFormat('a.tsv', 'a\tb')).toBe('csv');
    expect(detectFormat('a.jsonl', '{"x":1}')).toBe('jsonl');
    expect(detectFormat('a.ndjson', '{"x":1}')).toBe('jsonl');
    expect(detectFormat('a.json', '[{"x":1}]')).toBe('json');
    expect(detectFormat('a.json', '{\n  "00000": {}\n}')).toBe('json');
    expect(detectFormat('a.json', '{"x":1}\n{"x":2}\n')).toBe('jsonl');
    expect(detectFormat('data', '  [1]')).toBe('json');
    expect(detectFormat('data', '{"x":1}\n{"x":2}')).toBe('jsonl');
    expect(detectFormat('data.txt', 'a,b\n1,2')).toBe('csv');
  });
});
