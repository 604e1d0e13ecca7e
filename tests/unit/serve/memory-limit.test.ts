/**
 * A memory file `toolmem serve` cannot hold is refused without stalling anyone (issue #35): over
 * `--max-memory-bytes` it is refused from its size (stat) before a byte is read — at start (exit 2)
 * and on reload (a 1 GiB sparse file included); under the limit, a reload is read, parsed and
 * validated in the parse worker, never on the thread that answers requests, which keeps answering
 * while a 48 MB file is parsed and refused. The old memory keeps serving throughout.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import * as memoryFormat from '../../../src/core/memory-format';
import { toolmem } from '../helpers/cli';
import { memoryCopy, post, renamed, replaceFile, replaceSparse, servedCopy, type Started } from './helpers';

// Counts the memory-format parser's calls on this thread (the parse worker has its own copy).
const mainThreadParses = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/core/memory-format', async (original) => {
  const real = await original<typeof memoryFormat>();
  return {
    ...real,
    parseMemoryFile: (text: string) => {
      mainThreadParses.count++;
      return real.parseMemoryFile(text);
    },
  };
});

const select = { task: 'Three red apples on a wooden table', candidates: ['DALLE_3', 'SDXL_2_1'] };
let path: string;
let s: Started;
servedCopy({ watch: false, maxMemoryBytes: 60 * 1024 * 1024 }, (copy) => ({ path, server: s } = copy));

describe('memory files over the limit', () => {
  it('at start: exit 2, refused from its size without reading it', async () => {
    const r = await toolmem(['serve', '--memory', await memoryCopy(), '--max-memory-bytes', '1000', '--port', '0', '--workers', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /: the file is \d+\.\d KiB \([\d,]+ bytes\), more than the limit of 1000 bytes \(--max-memory-bytes\); refused without reading it\n$/,
    );
  });

  it('on reload: a 61 MiB file and a 1 GiB sparse file are refused from their size; the old memory keeps serving', async () => {
    const served = s.holder.current.sha;
    for (const bytes of [61 * 1024 * 1024, 1024 ** 3]) {
      replaceSparse(path, bytes);
      const r = await s.holder.reload();
      expect(r).toMatchObject({
        status: 'refused',
        why: expect.stringMatching(/more than the limit of 60\.0 MiB \(62,914,560 bytes\) \(--max-memory-bytes\); refused without reading it$/),
      });
      const answer = await post(`${s.url}/v1/select`, select);
      expect([answer.status, answer.headers.get('x-toolmem-memory')]).toEqual([200, served]);
    }
    expect(s.logs.filter((l) => l.startsWith(`reload refused, still serving ${served}`) && l.includes('1024.0 MiB (1,073,741,824 bytes)'))).toHaveLength(1);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });
});

describe('memory files under the limit', () => {
  it('a 48 MB file is parsed and refused in the worker while this thread keeps answering', async () => {
    const parsesBefore = mainThreadParses.count;
    // Valid JSON, one 48 MB string: read, hashed, parsed, then refused by the parser's string limit.
    const file = JSON.parse(renamed(path.replace(/memory\.json$/, 'built.json'), 'x')) as { memory: { name: string } };
    file.memory.name = 'x'.repeat(48 * 1024 * 1024);
    replaceFile(path, JSON.stringify(file));
    let settled = false;
    const reload = s.holder.reload().finally(() => (settled = true));
    let answeredMeanwhile = 0;
    while (!settled && answeredMeanwhile < 50) {
      expect((await post(`${s.url}/v1/select`, select)).status).toBe(200);
      if (!settled) answeredMeanwhile++;
    }
    const r = await reload;
    expect(r).toMatchObject({
      status: 'refused',
      why: expect.stringContaining('$.memory.name: string of 50,331,648 characters is too long (at most 100,000)'),
    });
    expect(mainThreadParses.count).toBe(parsesBefore); // never parsed here
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('a valid new file is parsed in the worker and served', async () => {
    const parsesBefore = mainThreadParses.count;
    const next = renamed(path.replace(/memory\.json$/, 'built.json'), 'second version');
    writeFileSync(path, next);
    expect(await s.holder.reload()).toMatchObject({ status: 'reloaded' });
    expect(s.holder.current.file.memory.name).toBe('second version');
    expect(mainThreadParses.count).toBe(parsesBefore);
  });
});
