// Shared by the benchmark runners: build, serve, launch Chromium. Benchmarks print figures; they
// never fail on speed (speed goals are read off the printed ratios, not asserted in tests).
import { execSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';

/**
 * The app as shipped plus the bench pages beside it (bench/*.html under `outDir`/bench, see
 * vite.config.ts), built into `outDir` (benches that may run at the same time use their own), or
 * `--dist DIR`: such a build made before (bench:smoke builds one for all benches). Returns the folder.
 */
export function buildBench(outDir = 'dist-bench') {
  const given = argValue('--dist');
  if (given) {
    if (!existsSync(`${given}/index.html`) || !existsSync(`${given}/bench/import.html`))
      throw new Error(`--dist ${given}: not an app build with the bench pages`);
    return given;
  }
  execSync(`npx vite build --logLevel error --outDir ${outDir}`, { stdio: 'inherit' });
  buildBenchPages(outDir);
  return outDir;
}

/** Adds the bench pages to the app build in `outDir`. */
export function buildBenchPages(outDir) {
  execSync(`npx vite build --logLevel error --outDir ${outDir}`, { stdio: 'inherit', env: { ...process.env, BENCH: '1' } });
}

/**
 * Serves `dir` on `port` (default 0: a free port, so benches can run side by side). Returns the
 * server's process with `origin` (http://127.0.0.1:PORT) added.
 */
export async function serve(dir, port = 0) {
  const child = spawn(process.execPath, ['scripts/serve.mjs', '--dir', dir, '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.origin = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
      const m = /running at (http:\/\/[^/\s]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return child;
}

function launchOptions() {
  const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  return {
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
  };
}

/** `extraArgs`: more Chromium switches (import-bench tags its browser to find its processes in /proc). */
export async function launch(extraArgs = []) {
  const options = launchOptions();
  return chromium.launch({ ...options, args: [...options.args, ...extraArgs] });
}

/**
 * CPU seconds (user + system) used so far by the browser started with the switch `tag` and every
 * process under it (renderers, GPU, network), from /proc (Linux; null elsewhere). On a shared machine
 * a pipeline's CPU time moves far less with the load than its wall time.
 */
export function browserCpuSeconds(tag) {
  if (!existsSync('/proc/self/stat')) return null;
  const children = new Map();
  const ticks = new Map();
  let root;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), pid]);
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes(tag) && !cmd.includes('--type=')) root = pid;
    } catch {
      // the process ended meanwhile
    }
  }
  if (root === undefined) return null;
  let total = 0;
  const walk = (pid) => {
    total += ticks.get(pid) ?? 0;
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return total / 100; // clock ticks (USER_HZ = 100 on Linux)
}

/**
 * A browser with a profile on disk (`dir`): IndexedDB written to files as for a user. A plain
 * `launch()` context is off the record, and Chromium keeps its IndexedDB in memory (in the browser
 * process), which at a million rows is neither what a user gets nor affordable.
 */
export async function launchPersistent(dir, options = {}) {
  return chromium.launchPersistentContext(dir, { ...launchOptions(), ...options });
}

export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ')).join('\n');
}

/**
 * Deterministic pseudo-random numbers so generated inputs are the same every run: the tree's one
 * PRNG (src/core/eval/rng.ts, mulberry32), loaded through tsx because these scripts run on plain Node.
 */
export const { mulberry32: rng } = await tsImport('../../src/core/eval/rng.ts', import.meta.url);

/** `SMOKE`, `argValue`, `sharedData`, `loadLine`: see bench-env.ts (one definition for both kinds of bench). */
export const { SMOKE, argValue, sharedData, loadLine } = await tsImport('./bench-env.ts', import.meta.url);
