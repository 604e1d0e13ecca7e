#!/usr/bin/env node
// npm run bench:import — 100k-row CSV imported into IndexedDB in Chromium by the app's data worker,
// compared with raw Papa Parse + Dexie bulkPut on the same file in the same run, and main-thread
// long tasks during our import. Prints figures and ratios; each pipeline runs in a fresh browser
// context, rounds rotate the order (`--rounds N`, default 3) and the median ratio is the figure.
// `--stages [names]` adds a stage-by-stage breakdown, `--profile [stage]` a CPU profile of one stage.
// Each pipeline's CPU seconds (all Chromium processes, from /proc on Linux) are printed beside its wall time.
// `--smoke`: 1,000 rows, one round (npm run bench:smoke); `--dist DIR`: an existing bench build (common.mjs).
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { argValue, browserCpuSeconds, buildBench, launch, loadLine, rng, serve, SMOKE, table } from './common.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? (SMOKE ? 1_000 : 100_000));
const file = `.bench/import-v2-${ROWS}.csv`;

const WORDS = (
  'a the of in on with and red blue green small large old young quiet busy bright dark wooden glass metal ' +
  'cat dog horse bird child woman man robot car bicycle train bridge river mountain forest city street market kitchen ' +
  'window table chair lamp book cup flower tree cloud sun moon star ocean beach boat castle tower garden painting ' +
  'standing sitting running holding reading wearing beside under above behind near two three several many'
).split(' ');

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
console.log(
  `input: ${file} (${ROWS.toLocaleString()} rows, ${(statSync(file).size / 1e6).toFixed(1)} MB, ${Math.round(statSync(file).size / ROWS)} bytes per row)`,
);
// Rounds alternate which pipeline runs first (the machine warms up and other load comes and goes);
// the ratio is taken within each round and the median reported. `--rounds N` (default 3).
const ROUNDS = Number(argValue('--rounds', SMOKE ? 1 : 3));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Its own build folder: bench:scale may be serving dist-bench meanwhile.
const server = await serve(buildBench('dist-bench-import'));
// The switch tags this browser's processes, so each pipeline's CPU time can be read from /proc.
const TAG = `--toolmem-import-bench=${process.pid}`;
const browser = await launch([TAG]);
const url = `${server.origin}/bench/import.html`;
/** A fresh context per pipeline: its own (empty) IndexedDB backing store. */
async function runIn(which) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('#file').setInputFiles(file);
    const cpu0 = browserCpuSeconds(TAG);
    const result = await page.evaluate((w) => window.runOne(w), which);
    const cpu1 = browserCpuSeconds(TAG);
    // CPU of every Chromium process from the call to its answer (ours: the import, then its stats read).
    return { ...result, cpuS: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
  } finally {
    await context.close();
  }
}
try {
  if (process.argv.includes('--stages')) {
    // Where the time goes: each stage adds one part of the real import path (see bench/import-stages.ts).
    // `--stages` runs every stage; `--stages 'name|name'` only those (repeat a name to run it again).
    const arg = process.argv[process.argv.indexOf('--stages') + 1];
    const only = arg && !arg.startsWith('--') ? arg.split('|') : undefined;
    // One fresh context per stage (see runIn): a stage never pays for compacting what another wrote.
    const names =
      only ??
      (await (async () => {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(url);
        const all = await page.evaluate(() => window.stageNames());
        await context.close();
        return all;
      })());
    const stages = [];
    for (const name of names) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(url);
        await page.locator('#file').setInputFiles(file);
        stages.push(...(await page.evaluate((o) => window.runStages(o), [name])));
      } finally {
        await context.close();
      }
    }
    console.log(table([['stage', 'rows', 'seconds'], ...stages.map((s) => [s.stage, s.rows, (s.ms / 1000).toFixed(2)])]));
  }
  if (process.argv.includes('--profile')) {
    // CPU profile of one stage on the page's main thread (default: the app's write path): self time
    // by function and by source file. Time spent in the browser process's IndexedDB backend is not in
    // it; it shows as the stage's wall time minus the profiled busy time ('(idle)').
    const arg = process.argv[process.argv.indexOf('--profile') + 1];
    const stage = arg && !arg.startsWith('--') ? arg : 'runImport → writeImportBatch (counts middleware)';
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('#file').setInputFiles(file);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
    const [res] = await page.evaluate((s) => window.runStagesHere([s]), stage);
    const { profile } = await cdp.send('Profiler.stop');
    await context.close();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map();
    const dt = profile.timeDeltas;
    profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i + 1] ?? 0) / 1000));
    const fn = new Map();
    const files = new Map();
    for (const [id, ms] of self) {
      const f = byId.get(id).callFrame;
      const where = f.url ? f.url.replace(/^.*\/(assets\/)?/, '') : '';
      const k = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
      fn.set(k, (fn.get(k) ?? 0) + ms);
      files.set(where || f.functionName, (files.get(where || f.functionName) ?? 0) + ms);
    }
    const top = (m, n) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, ms]) => [k.slice(0, 110), ms.toFixed(0)]);
    console.log(`profile of '${stage}': ${(res.ms / 1000).toFixed(2)} s wall`);
    console.log(table([['function (self time)', 'ms'], ...top(fn, 30)]));
    console.log(table([['file', 'ms'], ...top(files, 12)]));
  }
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    // The order rotates from round to round; 'schema' is the baseline into the app's indexes (info).
    const order = [
      ['baseline', 'ours', 'schema'],
      ['ours', 'schema', 'baseline'],
      ['schema', 'baseline', 'ours'],
    ][r % 3];
    const got = {};
    for (const which of order) got[which] = await runIn(which);
    const oursRate = got.ours.result.rows / (got.ours.result.ms / 1000);
    const baseRate = got.baseline.rows / (got.baseline.ms / 1000);
    const schemaRate = got.schema.rows / (got.schema.ms / 1000);
    const cpuRatio = got.ours.cpuS && got.baseline.cpuS ? got.baseline.cpuS / got.ours.cpuS : null;
    rounds.push({
      order: order.join(' → '),
      ours: got.ours,
      baseline: got.baseline,
      schema: got.schema,
      oursRate,
      baseRate,
      ratio: oursRate / baseRate,
      schemaRatio: oursRate / schemaRate,
      cpuRatio,
    });
  }
  if (rounds.length) report(rounds);
} finally {
  await browser.close();
  server.kill();
}

function report(rounds) {
  console.log(
    table([
      [
        'round',
        'order',
        'ours s',
        'ours rows/s',
        'baseline s',
        'baseline rows/s',
        'ratio',
        'schema baseline s',
        'ratio vs schema',
        'CPU s ours / baseline / schema',
        'CPU ratio',
      ],
      ...rounds.map((x, i) => [
        i + 1,
        x.order,
        (x.ours.result.ms / 1000).toFixed(2),
        Math.round(x.oursRate),
        (x.baseline.ms / 1000).toFixed(2),
        Math.round(x.baseRate),
        x.ratio.toFixed(2),
        (x.schema.ms / 1000).toFixed(2),
        x.schemaRatio.toFixed(2),
        [x.ours.cpuS, x.baseline.cpuS, x.schema.cpuS].map((c) => (c === null ? '–' : c.toFixed(1))).join(' / '),
        x.cpuRatio === null ? '–' : x.cpuRatio.toFixed(2),
      ]),
    ]),
  );
  const last = rounds[rounds.length - 1];
  console.log(
    'ours = the ToolMem data worker (read + validate + dedupe + Dexie with counts); baseline = Papa Parse + Dexie bulkPut of its rows into a key-only table;',
  );
  console.log("schema baseline (info) = the same parse, rows shaped as our Experience, into a table with the app's indexes (src/db/schema.ts)");
  console.log(`ratio ours/baseline throughput, median of ${ROUNDS}: ${median(rounds.map((x) => x.ratio)).toFixed(2)} (goal ≥ 0.80)`);
  console.log(`ratio ours/schema baseline, median: ${median(rounds.map((x) => x.schemaRatio)).toFixed(2)}`);
  const cpu = rounds.map((x) => x.cpuRatio).filter((r) => r !== null);
  // CPU seconds of all Chromium processes (the worker's renderer and the browser process, which runs IndexedDB's backend).
  if (cpu.length) console.log(`CPU ratio baseline/ours (all Chromium processes, less load-dependent than wall time), median: ${median(cpu).toFixed(2)}`);
  console.log(`time for ${ROWS.toLocaleString()} rows, median: ${(median(rounds.map((x) => x.ours.result.ms)) / 1000).toFixed(2)} s (goal ≤ 10 s)`);
  console.log(`accepted ${last.ours.result.accepted}, rejected ${last.ours.result.rejected}; baseline stored ${last.baseline.stored}`);
  console.log(
    `stored counts after our import: ${last.ours.result.counted.rows} rows, ${last.ours.result.counted.tasks} tasks (the file: ${ROWS} rows, ${Math.ceil(ROWS / 5)} tasks)`,
  );
  const long = rounds.map((x) => x.ours.longTasks);
  console.log(
    `main-thread long tasks (> 50 ms) during our import: ${Math.max(...long.map((l) => l.count))} (longest ${Math.max(...long.map((l) => l.maxMs)).toFixed(0)} ms; goal 0)`,
  );
  console.log(loadLine());
}
