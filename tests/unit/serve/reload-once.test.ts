/**
 * A watched memory file is looked at once per version: the folder event and the stat poll (its
 * backstop) both see a replace, and the poll skips the version the last reload looked at — so a
 * refused file (a 75 MB one costs seconds of parsing) is read and refused once, not twice, and a
 * file refused from its size is logged once. A new version after it is still picked up.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { MemoryFile } from '../../../src/core/memory-format';
import { MemoryHolder } from '../../../src/cli/serve/memory-holder';
import { until } from '../helpers/until';
import { memoryCopy, renamed, replaceFile, replaceSparse } from './helpers';

const POLL_MS = 50;
let holder: MemoryHolder<MemoryFile> | null = null;
afterAll(() => holder?.close());

/** Waits for eight polls of the stat backstop. */
const pollsPassed = () => new Promise((r) => setTimeout(r, 8 * POLL_MS));

describe('one look per version of a watched memory file', () => {
  it('an invalid file and an oversized one are each refused once; the next valid version is served', async () => {
    const path = await memoryCopy();
    const logs: string[] = [];
    holder = await MemoryHolder.open(
      path,
      async (file) => file,
      (line) => void logs.push(line),
      { maxBytes: 10 * 1024 * 1024 },
    );
    holder.watch(10, POLL_MS);
    const refusals = () => logs.filter((l) => l.startsWith('reload refused'));

    replaceFile(path, JSON.stringify({ ...(JSON.parse(readFileSync(path, 'utf8')) as object), version: 99 }));
    await until(() => refusals().length === 1, 20_000);
    await pollsPassed();
    expect(refusals()).toHaveLength(1);

    replaceSparse(path, 1024 ** 3);
    await until(() => refusals().length === 2, 20_000);
    await pollsPassed();
    expect(refusals()).toHaveLength(2);
    expect(refusals()[1]).toContain('1024.0 MiB (1,073,741,824 bytes), more than the limit of 10.0 MiB');

    replaceFile(path, renamed(path.replace(/memory\.json$/, 'built.json'), 'third version'));
    await until(() => holder!.current.file.memory.name === 'third version', 20_000);
    expect(holder.current.generation).toBe(2);
    expect(refusals()).toHaveLength(2);
  }, 90_000);
});
