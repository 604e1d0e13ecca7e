// Shared by the benchmark runners: build, serve, launch Chromium. Benchmarks print figures; they
// never fail on speed (speed goals are read off the printed ratios, not asserted in tests).
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** Builds the app with the bench pages into `outDir` (benches that may run at the same time use their own). */
export function buildBench(outDir = 'dist-bench') {
  execSync(`npx vite build --logLevel error --outDir ${outDir}`, { stdio: 'inherit', env: { ...process.env, BENCH: '1' } });
}

export async function serve(dir, port) {
  const child = spawn(process.execPath, ['scripts/serve.mjs', '--dir', dir, '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('running at') && resolve());
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

export async function launch() {
  return chromium.launch(launchOptions());
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

/** Deterministic pseudo-random numbers (mulberry32) so generated inputs are the same every run. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
