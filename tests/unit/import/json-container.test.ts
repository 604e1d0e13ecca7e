import { describe, expect, it } from 'vitest';
import { JsonContainerScanner } from '../../../src/core/import/json-container';

function scan(text: string, path: string[], chunk = 0): unknown[] {
  const scanner = new JsonContainerScanner('f.json', path);
  const out: unknown[] = [];
  const parts = chunk > 0 ? Array.from({ length: Math.ceil(text.length / chunk) }, (_, i) => text.slice(i * chunk, (i + 1) * chunk)) : [text];
  for (const part of parts) for (const m of scanner.push(part)) out.push(JSON.parse(m.text));
  scanner.end();
  return out;
}

const DOC = JSON.stringify({
  evalId: 'e "quoted" {not a brace}',
  decoy: { results: { results: [{ wrong: 1 }] }, list: [{ results: 2 }, '[', ']'] },
  'we\\"ird': [1, 2, { a: [] }],
  results: { version: 3, prompts: [{ raw: '}]' }], results: [{ ok: 1 }, { ok: 2, nested: { results: [] } }], stats: { n: 2 } },
  after: [true, null, -1.5e3],
});

describe('JsonContainerScanner', () => {
  it('streams the array at the path, not look-alikes deeper in other members', () => {
    expect(scan(DOC, ['results', 'results'])).toEqual([{ ok: 1 }, { ok: 2, nested: { results: [] } }]);
  });

  it('gives the same records whatever the chunk boundaries', () => {
    for (const size of [1, 2, 3, 7, 64]) expect(scan(DOC, ['results', 'results'], size)).toHaveLength(2);
  });

  it('reports positions in the file for a broken record', () => {
    const text = '{\n "samples": [\n  {"a": 1},\n  {"a": 2,,}\n ]\n}';
    const scanner = new JsonContainerScanner('f.json', ['samples']);
    const members = scanner.push(text);
    expect(members.map((m) => [m.index, m.line])).toEqual([
      [1, 3],
      [2, 4],
    ]);
  });

  it('says when the path is missing, not an array, or the file is not an object', () => {
    expect(() => scan('{"results": {"prompts": []}}', ['results', 'results'])).toThrow(
      "The file has no array at 'results.results', where this format keeps its records, so there is nothing to import. Its top level holds: 'results'.",
    );
    expect(() => scan('{"samples": {"a": 1}}', ['samples'])).toThrow("'samples' must be an array of records, but it starts with '{' (line 1, column 13).");
    expect(() => scan('[1, 2]', ['samples'])).toThrow("Expected a JSON object at the top level (with its records at 'samples'), found '['");
    expect(() => scan('', ['samples'])).toThrow('The file is empty');
    expect(() => scan('{"samples": [{"a": 1}', ['samples'])).toThrow(/Truncated JSON/);
  });
});
