import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { embedCommand } from '../../../src/cli/commands/embed';
import type { Io } from '../../../src/cli/io';
import { forbidNetwork } from '../embed/offline-guard';

function capture(): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += `${t}\n`),
    err: (t: string) => void (io.stderr += `${t}\n`),
  };
  return io;
}

let guard: { attempts: string[] };
beforeAll(() => {
  guard = forbidNetwork();
});
afterAll(() => {
  vi.unstubAllGlobals();
  expect(guard.attempts).toEqual([]);
});

describe('toolmem embed', () => {
  it('--json prints model, dim and one unit vector per text', async () => {
    const io = capture();
    expect(await embedCommand(['--text', 'A red apple on a table', '--text', 'An apple on a wooden table', '--text', '???', '--json'], io)).toBe(0);
    const out = JSON.parse(io.stdout) as { model: string; id: string; dim: number; embeddings: number[][] };
    expect(out.model).toBe('glove-100d');
    expect(out.id).toMatch(/^glove-100d@[0-9a-f]{8}$/);
    expect(out.dim).toBe(100);
    expect(out.embeddings).toHaveLength(3);
    const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    expect(norm(out.embeddings[0]!)).toBeCloseTo(1, 5);
    expect(out.embeddings[2]!.every((x) => x === 0)).toBe(true);
    expect(io.stderr).toBe('');
  });

  it('without --json prints a short summary with pairwise similarity', async () => {
    const io = capture();
    expect(await embedCommand(['--text', 'dogs in the snow', '--text', 'a dog playing in snow'], io)).toBe(0);
    expect(io.stdout).toMatch(/^glove-100d@[0-9a-f]{8} · 100 dimensions · 2 texts/);
    expect(io.stdout).toMatch(/1–2 {2}0\.\d{3}/);
  });

  it('exit 1 on usage errors, with the usage text', async () => {
    for (const argv of [
      [],
      ['--json'],
      ['--text'],
      ['--text', 'x', '--bogus'],
      ['positional'],
      ['--text', 'x', '--model', '../x'],
      ['--text', 'x', '--dim', '0'],
    ]) {
      const io = capture();
      expect(await embedCommand(argv, io), argv.join(' ')).toBe(1);
      expect(io.stderr).toContain('Usage: toolmem embed');
    }
    const help = capture();
    expect(await embedCommand(['--help'], help)).toBe(0);
    expect(help.stdout).toContain('--model ID');
  });

  it('exit 2 when the model cannot be loaded (missing folder; hub model while offline)', async () => {
    const io = capture();
    expect(await embedCommand(['--text', 'x', '--model', 'no-such-model', '--json'], io)).toBe(2);
    expect(JSON.parse(io.stdout)).toMatchObject({ error: { name: 'ModelLoadError', model: 'no-such-model' } });
    expect(io.stderr).toContain('no-such-model');
    const hub = capture();
    expect(await embedCommand(['--text', 'x', '--model', 'Xenova/all-MiniLM-L6-v2', '--offline'], hub)).toBe(2);
  });
});
