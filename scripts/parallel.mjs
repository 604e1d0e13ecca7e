#!/usr/bin/env node
// node scripts/parallel.mjs check lint — runs npm scripts at the same time (the gate's type check and
// lint are each one process on one core; CI has two) and prints each one's output whole when it
// ends, so their lines do not interleave. Exits with the first non-zero status, after all have ended.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/parallel.mjs <npm script> [<npm script> …]');
  process.exit(2);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const chunks = [];
        const child = spawn(npm, ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.on('data', (d) => chunks.push(d));
        child.stderr.on('data', (d) => chunks.push(d));
        child.on('error', (err) => {
          process.stdout.write(`${err.message}\n`);
          resolve({ name, code: 1 });
        });
        child.on('close', (code) => {
          process.stdout.write(Buffer.concat(chunks));
          resolve({ name, code: code ?? 1 });
        });
      }),
  ),
);
const failed = results.filter((r) => r.code !== 0);
for (const r of failed) console.error(`npm run ${r.name} failed (exit ${r.code})`);
process.exit(failed[0]?.code ?? 0);
