import { describe, expect, it } from 'vitest';
import { PathSyntaxError, formatPath, listPaths, parsePath, resolvePath } from '../../../src/core/import/record-path';
import { parseMapping } from '../../../src/core/import';

const record = {
  vars: { question: 'Capital of Peru?', 'a.b': 'dotted key' },
  response: { output: 'Lima' },
  gradingResult: { componentResults: [{ score: 0.5 }, { score: 1, reason: 'ok' }] },
  'score.mean': 3,
  list: [[1, 2], [3]],
};

describe('parsePath', () => {
  it('reads keys, indices and quoted keys', () => {
    expect(parsePath('gradingResult.componentResults[0].score')).toEqual([
      { key: 'gradingResult' },
      { key: 'componentResults' },
      { index: 0 },
      { key: 'score' },
    ]);
    expect(parsePath('vars["a.b"]')).toEqual([{ key: 'vars' }, { key: 'a.b' }]);
    expect(parsePath('m["x]y"][2]')).toEqual([{ key: 'm' }, { key: 'x]y' }, { index: 2 }]);
    expect(parsePath('list[0][1]')).toEqual([{ key: 'list' }, { index: 0 }, { index: 1 }]);
  });

  it('says which character is wrong', () => {
    const message = (p: string) => {
      try {
        parsePath(p);
        return 'parsed';
      } catch (err) {
        expect(err).toBeInstanceOf(PathSyntaxError);
        return (err as Error).message;
      }
    };
    expect(message('')).toBe("Path '': it is empty.");
    expect(message('a..b')).toBe("Path 'a..b': expected a key name at character 3.");
    expect(message('a[')).toBe("Path 'a[': the '[' at character 2 is never closed.");
    expect(message('a[x]')).toBe(`Path 'a[x]': expected a whole number or a "quoted key" inside [ ] at character 3, found 'x'.`);
    expect(message('a[-1]')).toContain('expected a whole number');
    expect(message('a]')).toBe("Path 'a]': unexpected ']' at character 2.");
    expect(message('.a')).toBe("Path '.a': expected a key name at character 1.");
    expect(message('x'.repeat(1001))).toContain('the limit is 1000');
    expect(message(Array.from({ length: 70 }, () => 'k').join('.'))).toContain('more than 64 steps');
  });
});

describe('resolvePath', () => {
  it('walks objects and arrays', () => {
    expect(resolvePath(record, 'vars.question')).toBe('Capital of Peru?');
    expect(resolvePath(record, 'response.output')).toBe('Lima');
    expect(resolvePath(record, 'gradingResult.componentResults[1].score')).toBe(1);
    expect(resolvePath(record, 'vars["a.b"]')).toBe('dotted key');
    expect(resolvePath(record, 'list[0][1]')).toBe(2);
  });

  it('prefers an exact key, so flat column names keep their meaning', () => {
    expect(resolvePath(record, 'score.mean')).toBe(3);
  });

  it('is undefined for what is missing, out of range or the wrong kind', () => {
    expect(resolvePath(record, 'vars.missing')).toBeUndefined();
    expect(resolvePath(record, 'gradingResult.componentResults[5].score')).toBeUndefined();
    expect(resolvePath(record, 'vars[0]')).toBeUndefined();
    expect(resolvePath(record, 'list.length')).toBeUndefined();
    expect(resolvePath(record, 'a[')).toBeUndefined();
  });

  it('reads own properties only', () => {
    expect(resolvePath(record, 'vars.toString')).toBeUndefined();
    expect(resolvePath(record, 'vars.__proto__')).toBeUndefined();
    const hostile = JSON.parse('{"x": {"__proto__": {"polluted": 1}}}') as Record<string, unknown>;
    expect(resolvePath(hostile, 'x.__proto__.polluted')).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('formatPath and listPaths', () => {
  it('writes paths that parse back', () => {
    for (const steps of [[{ key: 'a' }, { index: 3 }, { key: 'b.c' }], [{ key: '[x]' }], [{ key: 'a' }, { key: 'say "hi"' }]]) {
      expect(parsePath(formatPath(steps))).toEqual(steps);
    }
  });

  it('lists a tree of the first records, parents first, with examples', () => {
    const paths = listPaths([record, { extra: true }], { maxItems: 2 });
    expect(paths.slice(0, 4).map((p) => [p.path, p.depth, p.kind, p.example])).toEqual([
      ['vars', 1, 'object', '{…}'],
      ['vars.question', 2, 'text', 'Capital of Peru?'],
      ['vars["a.b"]', 2, 'text', 'dotted key'],
      ['response', 1, 'object', '{…}'],
    ]);
    expect(paths.map((p) => p.path)).toContain('gradingResult.componentResults[1].reason');
    expect(paths.at(-1)?.path).toBe('extra');
    expect(listPaths([record], { maxPaths: 3 })).toHaveLength(3);
  });
});

describe('--map with paths', () => {
  it('keeps commas inside brackets', () => {
    expect(parseMapping('prompt=vars.question,score=m["a,b"],tool=provider.label')).toEqual({
      prompt: 'vars.question',
      score: 'm["a,b"]',
      tool: 'provider.label',
    });
  });
});

describe('readSamples (the path picker before any mapping is valid)', () => {
  it('reads the first records as they are, with the preset detection would pick', async () => {
    const { readSamples } = await import('../../../src/core/import');
    const { fileSource, FIXTURES } = await import('./helpers');
    const nested = await readSamples(fileSource(`${FIXTURES}/../e2e/nested-eval.jsonl`), { fileName: 'nested-eval.jsonl' }, 2);
    expect(nested).toMatchObject({ format: 'jsonl', preset: 'generic', headers: ['case', 'input', 'run', 'grades'] });
    expect(nested.samples).toHaveLength(2);
    expect(listPaths(nested.samples).map((p) => p.path)).toContain('grades[0].score');
    const pf = await readSamples(fileSource(`${FIXTURES}/promptfoo/results.json`), { fileName: 'results.json' }, 5);
    expect(pf.preset).toBe('promptfoo');
    expect(resolvePath(pf.samples[0] as Record<string, unknown>, 'provider.label')).toBe('terse-model');
  });
});
