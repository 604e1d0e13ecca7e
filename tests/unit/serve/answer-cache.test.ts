/**
 * The JSON API's answers kept per memory generation (src/cli/serve/answer-cache.ts): bounded by
 * entries and bytes, least recently used dropped first, long bodies never kept; and through the
 * server, a repeated body gets the bytes of the first answer while a reloaded memory answers
 * from itself (no answer of the previous file survives a reload), and a bad body is never kept.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnswerCache, MAX_KEY_CHARS, type CachedAnswer } from '../../../src/cli/serve/answer-cache';
import { until } from '../helpers/until';
import { replaceFile, servedCopy, type Started } from './helpers';

const answer = (text: string, task?: string): CachedAnswer => ({ bytes: Buffer.from(text), headers: {}, task });

describe('AnswerCache', () => {
  it('keeps at most maxEntries answers, dropping the least recently used', () => {
    const c = new AnswerCache(2, 1e6);
    c.set('/v1/select', 'a', answer('A'));
    c.set('/v1/select', 'b', answer('B'));
    expect(c.get('/v1/select', 'a')?.bytes.toString()).toBe('A'); // a is now the most recent
    c.set('/v1/select', 'c', answer('C'));
    expect([c.get('/v1/select', 'a'), c.get('/v1/select', 'b'), c.get('/v1/select', 'c')].map((v) => v?.bytes.toString())).toEqual(['A', undefined, 'C']);
    expect(c.size).toBe(2);
  });

  it('keeps at most maxBytes of keys, task texts and answers; an answer larger than that is not kept', () => {
    // Each: key "/r x" (4 characters, 8 bytes) + task "t" (2 bytes) + 10 answer bytes = 20 bytes.
    const c = new AnswerCache(100, 45);
    for (const k of ['1', '2', '3']) c.set('/r', k, answer('0123456789', 't'));
    expect([c.get('/r', '1'), c.get('/r', '2'), c.get('/r', '3')].map((v) => v !== undefined)).toEqual([false, true, true]);
    c.set('/r', 'big', answer('x'.repeat(46)));
    expect(c.get('/r', 'big')).toBeUndefined();
    expect(c.size).toBe(2);
  });

  it('tells routes apart, replaces an answer set again, and never keeps a body over MAX_KEY_CHARS', () => {
    const c = new AnswerCache();
    c.set('/v1/select', 'same', answer('S'));
    c.set('/v1/predict', 'same', answer('P'));
    c.set('/v1/predict', 'same', answer('P2'));
    expect([c.get('/v1/select', 'same')?.bytes.toString(), c.get('/v1/predict', 'same')?.bytes.toString()]).toEqual(['S', 'P2']);
    const long = 'x'.repeat(MAX_KEY_CHARS + 1);
    c.set('/v1/select', long, answer('L'));
    expect(c.get('/v1/select', long)).toBeUndefined();
    expect(c.size).toBe(2);
  });
});

let path: string;
let s: Started;
servedCopy({}, (copy) => ({ path, server: s } = copy));

async function select(body: string): Promise<{ status: number; memory: string | null; text: string }> {
  const res = await fetch(`${s.url}/v1/select`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, memory: res.headers.get('x-toolmem-memory'), text: await res.text() };
}

describe('answers kept per memory generation', () => {
  it('a repeated body gets the same bytes; after a reload the new memory answers it', async () => {
    const body = JSON.stringify({ task: 'A lighthouse at dusk', candidates: ['DALLE_3', 'SDXL_Turbo'] });
    const first = await select(body);
    expect(first.status).toBe(200);
    expect(await select(body)).toEqual(first);
    // The same memory with DALLE_3 given a price: the select answer of that body now carries its cost.
    const file = JSON.parse(readFileSync(path, 'utf8')) as { tools: { id: string; cost?: unknown }[] };
    file.tools.find((t) => t.id === 'DALLE_3')!.cost = { perCall: 0.04, source: 'card' };
    replaceFile(path, JSON.stringify(file));
    await until(() => s.holder.current.generation === 2, 20_000);
    const after = await select(body);
    expect(after.memory).not.toBe(first.memory);
    expect(after.memory).toBe(s.holder.current.sha);
    const dalle = (JSON.parse(after.text) as { ranked: { tool: string; cost?: number }[] }).ranked.find((r) => r.tool === 'DALLE_3');
    expect(dalle?.cost).toBe(0.04);
    expect(first.text).not.toContain('"cost"');
  });

  it('the same arguments in other bytes get the same answer; other arguments never share it', async () => {
    const args = { task: 'A red kite over a beach', candidates: ['DALLE_3', 'SDXL_Turbo'] };
    const first = await select(JSON.stringify(args));
    expect(first.status).toBe(200);
    // Spacing and an escaped letter: another text, the same parsed body.
    expect(await select(`{ "task" : "A red kite over a be\\u0061ch",\n  "candidates": ["DALLE_3", "SDXL_Turbo"] }  `)).toEqual(first);
    const other = await select(JSON.stringify({ ...args, candidates: ['SDXL_Turbo'] }));
    expect(other.status).toBe(200);
    expect((JSON.parse(other.text) as { ranked: { tool: string }[] }).ranked.map((r) => r.tool)).toEqual(['SDXL_Turbo']);
  });

  it('a body that failed is answered with its error every time', async () => {
    const body = JSON.stringify({ task: 'A lighthouse at dusk', candidates: ['NOPE'] });
    const a = await select(body);
    const b = await select(body);
    expect([a.status, b.status]).toEqual([404, 404]);
    expect(b.text).toBe(a.text);
  });
});
