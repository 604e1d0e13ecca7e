/**
 * Hot reload: a valid new file is swapped in (answers name its hash in `x-toolmem-memory`), an
 * invalid one is refused with a log line while the old one keeps answering, and a request in
 * flight during a reload finishes on the memory it started with while the next gets the new one.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/core/embed';
import { until } from '../helpers/until';
import { embedder, memoryCopy, post, renamed, replaceFile, servedCopy, type Started } from './helpers';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const select = { task: 'Two dogs playing chess in a park', candidates: ['DALLE_3', 'SDXL_Turbo'] };

/** The GloVe embedder, held at its next call until `release()` (a request parked mid-flight). */
function gated(real: Embedder) {
  let hold: Promise<void> | null = null;
  let release = () => {};
  let waiting = 0;
  const e: Embedder = {
    id: real.id,
    dim: real.dim,
    embed: async (texts, opts) => {
      if (hold) {
        waiting++;
        await hold;
      }
      return real.embed(texts, opts);
    },
  };
  return {
    embedder: e,
    park: () => (hold = new Promise<void>((r) => (release = () => ((hold = null), r())))),
    waiting: () => waiting,
    release: () => release(),
  };
}

let path: string;
let s: Started;
const { start } = servedCopy({}, (copy) => ({ path, server: s } = copy));

describe('hot reload', () => {
  it('a valid new file (replaced by rename) is served from the next request on', async () => {
    const before = await post(`${s.url}/v1/select`, select);
    expect(before.headers.get('x-toolmem-memory')).toBe(sha(readFileSync(path)));
    const next = renamed(path, 'GenAI-Bench memory, second version');
    replaceFile(path, next);
    await until(() => s.holder.current.sha === sha(next), 20_000);
    const after = await post(`${s.url}/v1/select`, select);
    expect(after.headers.get('x-toolmem-memory')).toBe(sha(next));
    expect(after.json).toEqual(before.json); // same data, same answer
    const ready = (await (await fetch(`${s.url}/readyz`)).json()) as { memory: { name: string; generation: number } };
    expect(ready.memory).toMatchObject({ name: 'GenAI-Bench memory, second version', generation: 2 });
    expect(s.logs.some((l) => l.startsWith('reloaded: GenAI-Bench memory, second version (6 tools)'))).toBe(true);
  });

  it('an invalid file (written in place, half of it) is refused with a log line; the old one keeps serving', async () => {
    const served = s.holder.current.sha;
    const text = renamed(path, 'never served');
    writeFileSync(path, text.slice(0, text.length / 2));
    await until(() => s.logs.some((l) => l.startsWith(`reload refused, still serving ${served}`)), 20_000);
    const answer = await post(`${s.url}/v1/select`, select);
    expect([answer.status, answer.headers.get('x-toolmem-memory')]).toEqual([200, served]);
    expect(await s.holder.reload()).toMatchObject({ status: 'refused' });
    // Valid JSON but not a memory: refused with the parser's JSON path.
    writeFileSync(path, JSON.stringify({ ...JSON.parse(text), version: 99 }));
    expect(await s.holder.reload()).toMatchObject({ status: 'refused', why: expect.stringContaining('$.version') });
    expect(s.holder.current.sha).toBe(served);
  });

  it('a request in flight finishes on the memory it started with; the next one gets the new file', async () => {
    const gate = gated(await embedder());
    const memoryPath = await memoryCopy();
    const g = await start({ memoryPath, embedderFor: async () => gate.embedder, watch: false });
    const old = g.holder.current.sha;
    gate.park();
    const inFlight = post(`${g.url}/v1/predict`, { tool: 'DALLE_3', task: 'a red bicycle' });
    await until(() => gate.waiting() === 1);
    const next = renamed(memoryPath, 'swapped mid-request');
    writeFileSync(memoryPath, next);
    const reloading = g.holder.reload(); // its prepare may embed too: let everything through
    gate.release();
    expect(await reloading).toEqual({ status: 'reloaded', sha: sha(next) });
    const first = await inFlight;
    expect([first.status, first.headers.get('x-toolmem-memory')]).toEqual([200, old]);
    const second = await post(`${g.url}/v1/predict`, { tool: 'DALLE_3', task: 'a red bicycle' });
    expect(second.headers.get('x-toolmem-memory')).toBe(sha(next));
    expect(second.json).toEqual(first.json);
  });

  it('close() drains: the server stops listening, a request in flight is answered with Connection: close', async () => {
    const gate = gated(await embedder());
    const g = await start({ memoryPath: await memoryCopy(), embedderFor: async () => gate.embedder, watch: false });
    gate.park();
    const inFlight = post(`${g.url}/v1/predict`, { tool: 'DALLE_3', task: 'a red bicycle' });
    await until(() => gate.waiting() === 1);
    const closing = g.close();
    // The listener closes after the accept grace (drain.ts); from then on a new connection is refused.
    for (let open = true; open;)
      open = await fetch(`${g.url}/healthz`).then(
        () => new Promise<boolean>((r) => setTimeout(() => r(true), 20)),
        () => false,
      );
    gate.release();
    const answer = await inFlight;
    expect([answer.status, answer.headers.get('connection')]).toEqual([200, 'close']);
    await closing;
    await expect(fetch(`${g.url}/healthz`)).rejects.toThrow();
  });
});
