/**
 * `toolmem serve --workers 2` (node:cluster, one port): both workers answer, each hot-reloads the
 * memory file, a worker that dies is replaced, a 10 MB body gets its 413 every time (a separate
 * process, as clients see it), and SIGTERM drains every worker under keep-alive
 * load — 200s or refused connections, no reset — and exits 0 with the primary's log last.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/until';
import { memoryCopy, renamed, replaceFile, TOKEN } from './helpers';

const REPO = resolve(import.meta.dirname, '../../..');
const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const auth = { authorization: `Bearer ${TOKEN}` };
let proc: ChildProcess | null = null;
afterAll(() => void proc?.kill('SIGKILL'));

/** /readyz on a new connection each time (so the primary hands it to the next worker). */
async function ready(url: string): Promise<{ pid: number; memory: { sha256: string } }> {
  const r = await fetch(`${url}/readyz`, { headers: { ...auth, connection: 'close' } });
  return (await r.json()) as { pid: number; memory: { sha256: string } };
}

/** A 10 MB body (over the 1 MiB limit) written in one call by node:http's client: the answer it read, or the error it got instead. */
function tooLarge(url: string): Promise<string> {
  const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
  return new Promise((done) => {
    const req = request(`${url}/v1/select`, { method: 'POST', agent: false, headers: { ...auth, 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => done(`${res.statusCode} ${res.headers.connection}`));
    });
    req.on('error', (err: NodeJS.ErrnoException) => done(`no answer: ${err.code ?? err.message}`));
    req.end(body);
  });
}

function select(agent: Agent, url: string): Promise<{ status: number; error?: string }> {
  const body = JSON.stringify({ task: 'A tiger reading a newspaper', candidates: ['DALLE_3', 'SDXL_2_1'] });
  return new Promise((done) => {
    const req = request(
      `${url}/v1/select`,
      { method: 'POST', agent, headers: { ...auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => done({ status: 0, error: `${err.code ?? err.message}${req.reusedSocket ? ' (reused socket)' : ''}` }));
    req.end(body);
  });
}

describe('toolmem serve --workers 2', () => {
  it('serves from both workers, reloads in each, replaces a dead one, drains all on SIGTERM', async () => {
    const memory = await memoryCopy();
    proc = spawn(process.execPath, [join(REPO, 'bin/toolmem.mjs'), 'serve', '--memory', memory, '--port', '0', '--workers', '2'], {
      cwd: REPO,
      env: { ...process.env, TOOLMEM_TOKEN: TOKEN },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    proc.stderr!.on('data', (d: Buffer) => (log += d.toString('utf8')));
    await until(() => /on http:\/\/127\.0\.0\.1:\d+ .*; 2 workers\n/.test(log), 90_000);
    const url = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(log)![1]!;

    // Serves: new connections go to both workers.
    const pids = new Set<number>();
    for (let i = 0; i < 20 && pids.size < 2; i++) pids.add((await ready(url)).pid);
    expect(pids.size).toBe(2);

    // Reloads: each worker watches the file and swaps in the new version.
    const next = renamed(memory, 'second version');
    replaceFile(memory, next);
    const seen = new Map<number, string>();
    for (const end = Date.now() + 60_000; Date.now() < end && ![...pids].every((p) => seen.get(p) === sha(next));) {
      const r = await ready(url);
      seen.set(r.pid, r.memory.sha256);
    }
    expect([...pids].map((p) => seen.get(p))).toEqual([sha(next), sha(next)]);

    // A worker that dies is replaced; the other keeps serving meanwhile.
    process.kill([...pids][0]!, 'SIGKILL');
    await until(() => /worker \d+ serves in place of worker \d+\n/.test(log), 90_000);
    expect((await ready(url)).memory.sha256).toBe(sha(next));

    // A refused body is cut after 64 KiB without losing the answer: the 413 is read every time
    // (cut at once, the kernel could drop it behind the body's ACKs; the client saw ECONNRESET).
    const refused: string[] = [];
    for (let i = 0; i < 20; i++) refused.push(await tooLarge(url));
    expect(refused).toEqual(Array.from({ length: 20 }, () => '413 close'));

    // SIGTERM under keep-alive load: every request answered or refused at connect, none reset.
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const outcomes: { status: number; error?: string }[] = [];
    const clients = Array.from({ length: 8 }, async () => {
      for (;;) {
        const o = await select(agent, url);
        outcomes.push(o);
        if (o.status === 0) return;
      }
    });
    await until(() => outcomes.length >= 50, 30_000);
    const exited = new Promise<number | null>((r) => proc!.once('exit', (code) => r(code)));
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    await Promise.all(clients);
    agent.destroy();
    const errors = outcomes.filter((o) => o.status !== 200).map((o) => o.error);
    expect(
      errors.every((e) => e === 'ECONNREFUSED'),
      `errors: ${[...new Set(errors)].join(', ')}`,
    ).toBe(true);
    expect(log).toMatch(/SIGTERM: draining requests in flight\ntoolmem serve: stopped\n$/);
    expect(log).not.toContain(TOKEN);
  }, 240_000);
});
