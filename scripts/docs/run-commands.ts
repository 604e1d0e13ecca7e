/**
 * `npm run test:docs`: runs every command of the ```sh blocks of README.md and docs/serving.md as
 * written, from the repository's root, in order, one shell session per document (an `export`
 * carries to the document's next commands), and fails on the first that does not do what the
 * document says. How each command runs is in ./commands.ts (servers are started, probed and
 * stopped). Files the commands write in the repository's root (memory.json) are removed at the end.
 *
 * Environment: DOCS_SKIP_INSTALL=1 checks `npm ls` instead of running `npm install`; PORT sets the
 * port `npm start` serves on (default: a free one, so a running dev server is not in the way).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { DOCS, exportOf, modeOf, problemOf, shellCommands, writesOf, type DocCommand, type RunMode } from './commands';

const ROOT = resolve(import.meta.dirname, '../..');

class CommandFailed extends Error {
  override name = 'CommandFailed';
}

/** A free TCP port on the loopback. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

const where = (c: DocCommand) => `${c.doc}:${c.line} \`${c.command}\``;
const tail = (text: string, n = 2000) => (text.length > n ? `…${text.slice(-n)}` : text);

/** Runs a command to its end in bash; resolves with its output, rejects on a non-zero exit or the timeout. */
function runToEnd(c: DocCommand, env: NodeJS.ProcessEnv, timeoutS: number): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-c', c.command], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const timer = setTimeout(() => {
      stop(child);
      fail(new CommandFailed(`${where(c)} did not finish in ${timeoutS} s:\n${tail(out)}`));
    }, timeoutS * 1000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) done(out);
      else fail(new CommandFailed(`${where(c)} exited with ${code}:\n${tail(out)}`));
    });
  });
}

/** Stops a command started here and everything it started (its process group). */
function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/** Polls `url` until it answers 200 (and holds `expect`), or fails after `timeoutS`. */
async function probe(c: DocCommand, child: ChildProcess, url: string, headers: Record<string, string>, timeoutS: number, expect?: string): Promise<string> {
  const until = Date.now() + timeoutS * 1000;
  let last = '';
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new CommandFailed(`${where(c)} stopped (exit ${child.exitCode}) before ${url} answered`);
    try {
      const res = await fetch(url, { headers });
      const body = await res.text();
      if (res.status === 200 && (!expect || body.includes(expect))) return `${url} → 200`;
      last = `${res.status} ${body.slice(0, 200)}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new CommandFailed(`${where(c)}: ${url} did not answer 200 in ${timeoutS} s (last: ${last})`);
}

/** A stdio MCP server: initialize, then tools/list; its tools must be `tools`. */
function mcpSession(c: DocCommand, env: NodeJS.ProcessEnv, tools: string[], timeoutS: number): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-c', c.command], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    const finish = (error: Error | null, text = '') => {
      clearTimeout(timer);
      child.stdin.end();
      stop(child);
      if (error) fail(error);
      else done(text);
    };
    const timer = setTimeout(() => finish(new CommandFailed(`${where(c)}: no tools/list answer in ${timeoutS} s:\n${tail(err)}`)), timeoutS * 1000);
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      for (const line of out.split('\n')) {
        if (!line.includes('"id":2')) continue;
        const names = ((JSON.parse(line) as { result?: { tools?: { name: string }[] } }).result?.tools ?? []).map((t) => t.name).sort();
        if (JSON.stringify(names) === JSON.stringify([...tools].sort())) finish(null, `tools/list → ${names.join(', ')}`);
        else finish(new CommandFailed(`${where(c)}: tools/list answered ${names.join(', ') || 'no tool'}, expected ${tools.join(', ')}`));
        return;
      }
    });
    child.on('exit', (code) => finish(new CommandFailed(`${where(c)} exited with ${code} before answering:\n${tail(err)}`)));
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'docs-test', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  });
}

/** A server left running for the document's next commands; stopped with the document. */
interface Running {
  c: DocCommand;
  child: ChildProcess;
}

async function runOne(c: DocCommand, mode: RunMode, env: NodeJS.ProcessEnv, running: Running[]): Promise<string> {
  switch (mode.kind) {
    case 'gate':
      return 'not run here: it is the whole test gate (type check, lint, unit and end-to-end tests), which runs the docs unit test itself';
    case 'install':
      if (process.env.DOCS_SKIP_INSTALL === '1') {
        const ls = spawnSync('npm', ['ls', '--depth=0'], { cwd: ROOT, encoding: 'utf8' });
        if (ls.status !== 0) throw new CommandFailed(`${where(c)}: DOCS_SKIP_INSTALL=1, and \`npm ls\` finds the installed packages out of step:\n${tail(ls.stdout + ls.stderr)}`);
        return 'DOCS_SKIP_INSTALL=1: `npm ls` finds every package installed';
      }
      return `${(await runToEnd(c, env, 900)).trim().split('\n').at(-1) ?? ''}`;
    case 'run':
      return (await runToEnd(c, env, mode.timeoutS)).trim().split('\n').slice(-1)[0] ?? '';
    case 'mcp-stdio':
      return mcpSession(c, env, mode.tools, mode.timeoutS);
    case 'http': {
      const child = spawn('bash', ['-c', c.command], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
      child.stderr?.resume();
      running.push({ c, child });
      const url = mode.probe.replace('$PORT', env.PORT ?? '');
      const headers: Record<string, string> = mode.auth ? { authorization: `Bearer ${env.TOOLMEM_TOKEN ?? ''}` } : {};
      return probe(c, child, url, headers, mode.timeoutS, mode.expect);
    }
  }
}

/** Stops the servers a document left running; each must exit 0 on SIGTERM (the serve command drains). */
async function stopAll(running: Running[]): Promise<string[]> {
  const lines: string[] = [];
  for (const { c, child } of running.splice(0)) {
    const exited = new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));
    stop(child);
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000))]);
    if (code === 'timeout') {
      stop(child, 'SIGKILL');
      throw new CommandFailed(`${where(c)} did not stop within 20 s of SIGTERM`);
    }
    lines.push(`stopped ${c.command} with SIGTERM (${code === null ? 'its shell ended by the signal' : `exit ${code}`})`);
  }
  return lines;
}

async function runDoc(doc: string, env: NodeJS.ProcessEnv): Promise<number> {
  const commands = shellCommands(doc, readFileSync(join(ROOT, doc), 'utf8'));
  const made = new Set<string>();
  const running: Running[] = [];
  try {
    for (const c of commands) {
      const problem = problemOf(c.command, (p) => existsSync(join(ROOT, p)), made);
      if (problem) throw new CommandFailed(`${where(c)} cannot run as written: ${problem}`);
      const exp = exportOf(c.command);
      const t0 = Date.now();
      if (exp) {
        const value = spawnSync('bash', ['-c', `printf '%s' ${exp.value}`], { cwd: ROOT, env, encoding: 'utf8' });
        if (value.status !== 0 || !value.stdout) throw new CommandFailed(`${where(c)}: the value did not evaluate: ${value.stderr}`);
        env[exp.name] = value.stdout;
        console.log(`ok   ${where(c)} (${exp.name} set)`);
        continue;
      }
      const said = await runOne(c, modeOf(c.command), env, running);
      for (const w of writesOf(c.command)) made.add(w);
      console.log(`ok   ${where(c)} ${((Date.now() - t0) / 1000).toFixed(1)} s — ${said.length > 200 ? `${said.slice(0, 200)}…` : said}`);
    }
  } finally {
    for (const line of await stopAll(running)) console.log(`     ${line}`);
  }
  return commands.length;
}

async function main(): Promise<void> {
  const before = new Set(readdirSync(ROOT));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: process.env.PORT ?? String(await freePort()) };
  let count = 0;
  try {
    for (const doc of DOCS) count += await runDoc(doc, { ...env });
  } finally {
    // What the commands wrote in the repository's root (memory.json), removed; dist/ is the build's own folder.
    for (const name of readdirSync(ROOT)) if (!before.has(name) && name !== 'dist') rmSync(join(ROOT, name), { recursive: true, force: true });
  }
  console.log(`${count} commands of ${DOCS.join(' and ')} ran as written.`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
