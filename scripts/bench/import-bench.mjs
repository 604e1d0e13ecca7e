#!/usr/bin/env node
// npm run bench:import — 100k-row CSV imported into IndexedDB in Chromium by the app's import worker,
// compared with raw Papa Parse + Dexie bulkPut on the same file in the same run, and main-thread
// long tasks during our import. Prints figures and ratios.
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { buildBench, launch, rng, serve, table } from './common.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const PORT = 4517;
const file = `.bench/import-v2-${ROWS}.csv`;

const WORDS = ('a the of in on with and red blue green small large old young quiet busy bright dark wooden glass metal ' +
  'cat dog horse bird child woman man robot car bicycle train bridge river mountain forest city street market kitchen ' +
  'window table chair lamp book cup flower tree cloud sun moon star ocean beach boat castle tower garden painting ' +
  'standing sitting running holding reading wearing beside under above behind near two three several many').split(' ');

async function generate() {
  if (existsSync(file)) return;
  mkdirSync('.bench', { recursive: true });
  const rand = rng(42);
  const words = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const out = createWriteStream(file);
  out.write('id,prompt,model,score,response,feedback\n');
  for (let i = 0; i < ROWS; i++) {
    // Realistic lengths: ~15-word prompts, ~45-word answers (a short LLM reply), ~14-word feedback; quotes and commas inside.
    const line = `t${Math.floor(i / 5)},"${words(10 + Math.floor(rand() * 10))}, please",tool-${i % 5},${1 + Math.floor(rand() * 5)},"${words(15 + Math.floor(rand() * 60))}","""${words(12)}"" said the judge"\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

await generate();
console.log(`input: ${file} (${ROWS.toLocaleString()} rows, ${(statSync(file).size / 1e6).toFixed(1)} MB, ${Math.round(statSync(file).size / ROWS)} bytes per row)`);
buildBench();
const server = await serve('dist-bench', PORT);
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${PORT}/bench/import.html`);
  await page.locator('#file').setInputFiles(file);
  const r = await page.evaluate(() => window.runBench());
  const oursRate = r.ours.rows / (r.ours.ms / 1000);
  const baseRate = r.baseline.rows / (r.baseline.ms / 1000);
  console.log(
    table([
      ['pipeline', 'rows', 'seconds', 'rows/s'],
      ['ToolMem import worker (validate + dedupe + Dexie)', r.ours.rows, (r.ours.ms / 1000).toFixed(2), Math.round(oursRate)],
      ['baseline: Papa Parse + Dexie bulkPut', r.baseline.rows, (r.baseline.ms / 1000).toFixed(2), Math.round(baseRate)],
    ]),
  );
  console.log(`ratio ours/baseline throughput: ${(oursRate / baseRate).toFixed(2)} (goal ≥ 0.50)`);
  console.log(`time for ${ROWS.toLocaleString()} rows: ${(r.ours.ms / 1000).toFixed(2)} s (goal ≤ 10 s)`);
  console.log(`accepted ${r.ours.accepted}, rejected ${r.ours.rejected}; baseline stored ${r.baseline.stored}`);
  console.log(`main-thread long tasks (> 50 ms) during our import: ${r.longTasks.count} (longest ${r.longTasks.maxMs.toFixed(0)} ms; goal 0)`);
} finally {
  await browser.close();
  server.kill();
}
