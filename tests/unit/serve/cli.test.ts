/**
 * `toolmem serve` on the command line: usage errors (exit 1), an invalid memory or route file
 * (exit 2, every problem with its JSON path), and the real process: it serves, and SIGTERM
 * drains and exits 0 — its log never holding the token.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolmem } from '../helpers/cli';
import { memoryCopy, TOKEN } from './helpers';

const REPO = resolve(import.meta.dirname, '../../..');

describe('toolmem serve (command line)', { timeout: 60_000 }, () => {
  it('exit 1: no --memory, a non-loopback host without a token, a short token', async () => {
    expect((await toolmem(['serve'])).stderr).toContain('toolmem serve: --memory FILE is required.');
    const open = await toolmem(['serve', '--memory', 'm.json', '--host', '0.0.0.0']);
    expect([open.code, open.stderr.split('\n')[0]]).toEqual([
      1,
      'toolmem serve: --host 0.0.0.0 is not a loopback address: give a token (--token or TOOLMEM_TOKEN) so the network cannot use the server unasked.',
    ]);
    expect((await toolmem(['serve', '--memory', 'm.json', '--token', 'short'])).code).toBe(1);
  });

  it('exit 2: an invalid memory, a bad route file, a route to a tool the memory lacks', async () => {
    const bad = await toolmem(['serve', '--memory', join(REPO, 'tests/fixtures/bad-inputs/memory-unknown-level.json'), '--port', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('$.tools[0].entries[0].level: string "excellent" is not one of');
    const memory = await memoryCopy();
    const routes = memory.replace(/memory\.json$/, 'routes.json');
    writeFileSync(routes, JSON.stringify({ tools: { DALLE_3: { upstream: 'wllama:/m.gguf', price: -1 } } }));
    const r = await toolmem(['serve', '--memory', memory, '--routes', routes, '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `toolmem serve: ${routes}: The route file has 2 problems:\n  $.tools["DALLE_3"].upstream: must be an OpenAI-compatible endpoint "openai:URL#MODEL", got 'wllama:/m.gguf'\n  $.tools["DALLE_3"].price: must be a number ≥ 0 (US dollars per call)`,
    );
    writeFileSync(routes, JSON.stringify({ tools: { Nope: { upstream: 'openai:http://127.0.0.1:9/v1#m' } } }));
    const lacks = await toolmem(['serve', '--memory', memory, '--routes', routes, '--port', '0']);
    expect([lacks.code, lacks.stderr]).toEqual([
      2,
      `toolmem serve: ${memory}: The memory file has 1 problem:\n  $.tools: the route file routes 'Nope', a tool this memory does not have\n`,
    ]);
  });

  it('serves until SIGTERM, then drains and exits 0; the token is never logged', async () => {
    const memory = await memoryCopy();
    const proc = spawn(process.execPath, [join(REPO, 'bin/toolmem.mjs'), 'serve', '--memory', memory, '--port', '0', '--workers', '1'], {
      cwd: REPO,
      env: { ...process.env, TOOLMEM_TOKEN: TOKEN },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    const url = await new Promise<string>((res, rej) => {
      proc.stderr.on('data', (d: Buffer) => {
        log += d.toString('utf8');
        const m = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(log);
        if (m) res(m[1]!);
      });
      proc.once('exit', (code) => rej(new Error(`exited ${code}: ${log}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(((await ready.json()) as { ready: boolean }).ready).toBe(true);
    const code = new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
    proc.kill('SIGTERM');
    expect(await code).toBe(0);
    expect(log).toContain('bearer token required');
    expect(log).toMatch(/SIGTERM: draining requests in flight\ntoolmem serve: stopped\n$/);
    expect(log).not.toContain(TOKEN);
  });
});
