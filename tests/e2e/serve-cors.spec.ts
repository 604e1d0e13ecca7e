/**
 * `toolmem serve --allow-origin` from a real browser (issue #35): a page on another origin calls
 * /v1/select with a token. Chromium preflights the call (Authorization and a JSON body), the
 * server answers the preflight without the token, and the page reads the answer and its
 * x-toolmem-memory header. A page on an origin not allowed is blocked by the browser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { CorsProbePage, startProbeSite } from './support/cors-probe';

const REPO = resolve(import.meta.dirname, '../..');
const TOKEN = 'e2e-token-0123456789abcdef';

let server: ChildProcess;
let serverUrl = '';
let allowed: Awaited<ReturnType<typeof startProbeSite>>;
let other: Awaited<ReturnType<typeof startProbeSite>>;

test.beforeAll(async () => {
  allowed = await startProbeSite();
  other = await startProbeSite();
  const memory = join(mkdtempSync(join(tmpdir(), 'toolmem-cors-')), 'memory.json');
  copyFileSync(join(REPO, 'tests/fixtures/serve/genai-200.json'), memory);
  server = spawn(
    process.execPath,
    [join(REPO, 'bin/toolmem.mjs'), 'serve', '--memory', memory, '--port', '0', '--workers', '1', '--allow-origin', allowed.origin],
    {
      cwd: REPO,
      env: { ...process.env, TOOLMEM_TOKEN: TOKEN },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  serverUrl = await new Promise<string>((done, fail) => {
    let log = '';
    server.stderr!.on('data', (d: Buffer) => {
      log += d.toString('utf8');
      const m = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(log);
      if (m) done(m[1]!);
    });
    server.once('exit', (code) => fail(new Error(`toolmem serve exited ${code}: ${log}`)));
  });
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await Promise.all([allowed?.close(), other?.close()]);
});

test('a page of an allowed origin calls /v1/select with its token and reads the answer', async ({ page }) => {
  const probe = new CorsProbePage(page);
  await probe.open(allowed.origin, serverUrl, TOKEN);
  expect(await probe.ask()).toMatch(/^200 (DALLE_3|SDXL_Turbo) memory [0-9a-f]{16}$/);
});

test('a page of another origin is blocked by the browser', async ({ page }) => {
  const probe = new CorsProbePage(page);
  await probe.open(other.origin, serverUrl, TOKEN);
  expect(await probe.ask()).toBe('blocked: TypeError');
});
