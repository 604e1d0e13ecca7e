/**
 * `toolmem serve` in-process for the tests: the GenAI-Bench slice memory built once per file
 * (as `toolmem build-memory --llm none` writes it), the offline GloVe embedder, servers on port 0
 * (ephemeral, so test files never collide), every server and fake upstream closed after the file.
 */
import { closeSync, copyFileSync, ftruncateSync, mkdtempSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Embedder } from '../../../src/core/embed';
import { main } from '../../../src/cli/main';
import { openServe, type OpenServe, type OpenServeOptions } from '../../../src/cli/serve/open';
import { createTransformersEmbedder } from '../../../src/model-host/transformers-embedder';
import { startFakeOpenAi, type FakeOpenAi } from '../../../bench/drivers/fake-openai';

const REPO = resolve(import.meta.dirname, '../../..');
export const SLICE = resolve(REPO, 'tests/fixtures/import/genai_image_slice.json');
export const TOKEN = 'test-token-0123456789abcdef';

let built: string | null = null;

/** The slice memory (built on first use), copied to a fresh folder so a test may replace it. */
export async function memoryCopy(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'toolmem-serve-'));
  if (!built) {
    built = join(dir, 'built.json');
    expect(await main(['build-memory', '--data', SLICE, '--out', built, '--llm', 'none'], { out: () => {}, err: () => {} })).toBe(0);
  }
  const path = join(dir, 'memory.json');
  copyFileSync(built, path);
  return path;
}

/** Replaces `path` the way a build does: written beside it, then renamed over it (one change for the watcher). */
export function replaceFile(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** Replaces `path` by rename with a sparse file of `bytes` (no disk used). */
export function replaceSparse(path: string, bytes: number): void {
  const fd = openSync(`${path}.tmp`, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  renameSync(`${path}.tmp`, path);
}

/** The same memory under another name: valid, other bytes (another version hash). */
export function renamed(path: string, name: string): string {
  const file = JSON.parse(readFileSync(path, 'utf8')) as { memory: { name: string } };
  file.memory.name = name;
  return `${JSON.stringify(file, null, 2)}\n`;
}

let glove: Promise<Embedder> | null = null;
export function embedder(): Promise<Embedder> {
  glove ??= (async () => {
    const e = createTransformersEmbedder({ model: 'glove-100d' });
    await e.load();
    return e;
  })();
  return glove;
}

export interface Started extends OpenServe {
  url: string;
  logs: string[];
}

/** Call at module level: returns `start(options)`; closes everything after the file's tests. */
export function servers(): { start(opts: Partial<OpenServeOptions> & { memoryPath: string }): Promise<Started>; upstream(name: string): Promise<FakeOpenAi> } {
  const open: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const s of open.splice(0).reverse()) await s.close();
  });
  return {
    async start(opts) {
      const logs: string[] = [];
      const served = await openServe({
        host: '127.0.0.1',
        port: 0,
        token: null,
        allowOrigins: [],
        logPrompts: false,
        maxBodyBytes: 1024 * 1024,
        requestTimeoutMs: 30_000,
        maxSessions: 16,
        embedderFor: () => embedder(),
        log: (line) => void logs.push(line),
        ...opts,
      });
      open.push(served);
      return { ...served, url: served.app.url, logs };
    },
    async upstream(name) {
      const fake = await startFakeOpenAi(name);
      open.push(fake);
      return fake;
    },
  };
}

type Servers = ReturnType<typeof servers>;

/**
 * Call at module level: `servers()`, and before the file's tests a fresh copy of the slice memory
 * served with `opts`; `ready` gets the copy's path and its server (a test may replace the file).
 */
export function servedCopy(opts: Partial<OpenServeOptions>, ready: (copy: { path: string; server: Started }) => void): Servers {
  const started = servers();
  beforeAll(async () => {
    const path = await memoryCopy();
    ready({ path, server: await started.start({ memoryPath: path, ...opts }) });
  }, 60_000);
  return started;
}

export function writeJson(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value));
}

/** POST a JSON body (or raw text); returns status, headers and the parsed JSON answer. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
