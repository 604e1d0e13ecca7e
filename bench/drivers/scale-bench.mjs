#!/usr/bin/env node
// npm run bench:scale — the pages with a large database: 200k experiences and 20k memory entries
// seeded into the app's IndexedDB in Chromium (bench/scale-seed.ts), then the time from a click on
// the navigation (warm) and from a reload of the app on the page (cold) until each page shows its content;
// for information, also from about:blank (a new renderer process; not the goal).
// Goal: every page ≤ 1 s. Prints figures; never fails on speed (see common.mjs).
//
// Then the scale curve (issue #14): 10k, 100k and 1M experiences imported through the app's Data
// page (file → preview → Import, the data worker as a user runs it) into a browser profile on disk,
// with the import time, rows/s, peak memory of the tab (renderer process RSS from /proc — the import
// worker runs in it — and the page's JS heap from CDP), then Data/Memory/Tools/Evaluate open times
// (a click in the navigation) and one evaluation (tool-mean, one seed) at each size.
// `--sizes 10k,100k` runs only those sizes of the curve (and not the 200k page table); `--pages-only` only the page table.
// `--smoke`: 2,000 seeded experiences and a curve of 1,000 (npm run bench:smoke); `--dist DIR`: an existing bench build (common.mjs).
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argValue, buildBench, launch, launchPersistent, loadLine, rng, serve, SMOKE, table } from './common.mjs';

const EXPERIENCES = Number(process.env.BENCH_EXPERIENCES ?? (SMOKE ? 2_000 : 200_000));
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? (SMOKE ? 200 : 20_000));
/** Memory entries seeded over each size of the curve. */
const CURVE_ENTRIES = SMOKE ? 200 : 2_000;
const TOOLS = 8;
const GOAL_MS = 1000;

const sizesArg = argValue('--sizes');
/** `--pages-only`: the 200k page table without the curve (a few minutes instead of a quarter of an hour). */
const PAGES_ONLY = process.argv.includes('--pages-only');
const parseSize = (t) => {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(t.trim());
  if (!m) throw new Error(`--sizes: '${t}' is not a size like 10k, 100k or 1M`);
  return Math.round(Number(m[1]) * (m[2].toLowerCase() === 'k' ? 1e3 : m[2].toLowerCase() === 'm' ? 1e6 : 1));
};
const SIZES = (sizesArg ?? (SMOKE ? '1k' : '10k,100k,1M')).split(',').map(parseSize);

const server = await serve(buildBench());
const base = server.origin;

async function pageTable() {
  const browser = await launch();
  try {
    const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${base}/bench/scale.html`);
    const seeded = await page.evaluate((o) => window.seedScale(o), { experiences: EXPERIENCES, entries: ENTRIES, tools: TOOLS });
    console.log(
      `seeded ${seeded.experiences.toLocaleString('en-US')} experiences, ${seeded.entries.toLocaleString('en-US')} memory entries (${TOOLS} tools) in ${(seeded.ms / 1000).toFixed(1)} s`,
    );

    // What "the page is open" means for each page: its main content is on screen.
    const ready = {
      Data: () =>
        page
          .getByTestId('dataset-card')
          .filter({ hasText: `${EXPERIENCES.toLocaleString('en-US')} experiences` })
          .waitFor(),
      Memory: () => page.locator('button.entry').first().waitFor(),
      Tools: () =>
        page
          .getByTestId('tool-card')
          .nth(TOOLS - 1)
          .waitFor(),
      Evaluate: () => page.getByRole('form', { name: 'New evaluation' }).getByRole('option', { name: 'Scale' }).waitFor({ state: 'attached' }),
    };
    const time = async (fn) => {
      const t0 = Date.now();
      await fn();
      return Date.now() - t0;
    };
    const rows = [['page', 'warm (nav click) ms', 'cold (reload) ms', `≤ ${GOAL_MS} ms`, 'from about:blank ms (info)']];
    const results = {};
    // Warm-up: one start of the app (the first open after a 200k-row write also pays for IndexedDB compaction).
    await page.goto(`${base}/#/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    // Cold: the app reloaded on the page (new document, scripts evaluated again, database opened, app
    // started, page rendered). A goto that changes only the hash would not reload the document; a goto
    // from about:blank would also time Chromium starting a renderer process (250–300 ms here, before
    // any script of ours runs).
    for (const name of Object.keys(ready)) {
      await page.goto(`${base}/#/${name.toLowerCase()}`);
      await ready[name]();
      results[name] = {
        cold: await time(async () => {
          await page.reload();
          await ready[name]();
        }),
      };
    }
    // For information (not the goal): opening the page in a fresh tab-like navigation from about:blank,
    // which adds Chromium's renderer start and a colder script cache.
    for (const name of Object.keys(ready)) {
      await page.goto('about:blank');
      results[name].fresh = await time(async () => {
        await page.goto(`${base}/#/${name.toLowerCase()}`);
        await ready[name]();
      });
    }
    // Warm: the app is running; a click in the navigation.
    await page.goto(`${base}/#/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    for (const name of Object.keys(ready)) {
      await page.goto(`${base}/#/settings`);
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      results[name].warm = await time(async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
        await ready[name]();
      });
    }
    // The experience browser: open it on the Data page, then page forward.
    await page.goto(`${base}/#/data`);
    await ready.Data();
    const card = page.getByTestId('dataset-card').first();
    results['Experience browser'] = {
      warm: await time(async () => {
        await card.getByText('Browse experiences').click();
        await card.getByTestId('experience-browser').locator('tbody tr').first().waitFor();
      }),
      cold: null,
    };
    for (const [name, r] of Object.entries(results)) {
      const worst = Math.max(r.warm ?? 0, r.cold ?? 0);
      rows.push([name, r.warm ?? '—', r.cold ?? '—', worst <= GOAL_MS ? 'yes' : 'NO', r.fresh ?? '—']);
    }
    console.log(table(rows));
    const slow = Object.entries(results)
      .filter(([, r]) => Math.max(r.warm ?? 0, r.cold ?? 0) > GOAL_MS)
      .map(([n]) => n);
    console.log(slow.length ? `over the goal: ${slow.join(', ')}` : `every page opened within ${GOAL_MS} ms`);
    console.log(loadLine());
  } finally {
    await browser.close();
  }
}

// ---- The scale curve ----

const CURVE_TOOLS = 8;
const CURVE_WORDS = (
  'red blue green small large old quiet bright dark wooden glass metal cat dog horse bird child robot car train ' +
  'bridge river mountain forest city market kitchen window lamp book flower tree cloud moon ocean boat castle garden'
).split(' ');

/** A CSV of `n` experiences: n/8 tasks × 8 tools, ~12-word prompts, ~25-word responses (~250 bytes a row). */
async function curveFile(n) {
  const file = `.bench/scale-curve-${n}.csv`;
  if (existsSync(file)) return file;
  mkdirSync('.bench', { recursive: true });
  const rand = rng(7);
  const words = (k) => Array.from({ length: k }, () => CURVE_WORDS[Math.floor(rand() * CURVE_WORDS.length)]).join(' ');
  const out = createWriteStream(`${file}.part`);
  out.write('id,prompt,model,score,response\n');
  let prompt = '';
  for (let i = 0; i < n; i++) {
    if (i % CURVE_TOOLS === 0) prompt = `"${words(8 + Math.floor(rand() * 8))}, please"`;
    const line = `t${Math.floor(i / CURVE_TOOLS)},${prompt},tool-${i % CURVE_TOOLS},${1 + Math.floor(rand() * 5)},"${words(15 + Math.floor(rand() * 20))}"\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  renameSync(`${file}.part`, file);
  return file;
}

/** Pids of every process below `root` (Chromium's renderers hang off its zygote, not the browser itself). */
function descendants(root) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // the process ended meanwhile
    }
  }
  const out = [];
  const todo = [root];
  while (todo.length) {
    for (const c of children.get(todo.pop()) ?? []) {
      out.push(c);
      todo.push(c);
    }
  }
  return out;
}

function rssMB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function isRenderer(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
  } catch {
    return false;
  }
}

/** Chromium's browser process for a profile directory: the one whose command line names it and has no --type. */
function browserPid(dir) {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmd.includes(`--user-data-dir=${dir}`) && !cmd.includes('--type=')) return Number(name);
    } catch {
      // gone
    }
  }
  return undefined;
}

/** Samples the largest renderer's RSS, the browser process's RSS (it holds IndexedDB's backend) and the page's JS heap, every 250 ms. */
function sampler(dir, cdp) {
  const peak = { renderer: 0, browser: 0, heap: 0 };
  const root = browserPid(dir);
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      if (root) {
        peak.browser = Math.max(peak.browser, rssMB(root));
        for (const pid of descendants(root)) if (isRenderer(pid)) peak.renderer = Math.max(peak.renderer, rssMB(pid));
      }
      try {
        const { metrics } = await cdp.send('Performance.getMetrics');
        peak.heap = Math.max(peak.heap, (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 2 ** 20);
      } catch {
        // the page is navigating or gone
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return peak;
  };
}

/** Import time allowed per size (the 1M import takes minutes on a loaded 2-core machine). */
const importTimeout = (n) => Math.max(120_000, n * 1.2);

async function curveSize(n) {
  const file = await curveFile(n);
  const dir = mkdtempSync(join(tmpdir(), 'toolmem-scale-'));
  const context = await launchPersistent(dir, { serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
  const r = { n, bytes: statSync(file).size };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    let crashed = false;
    page.on('crash', () => (crashed = true));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(`${base}/#/data`);
    await page.getByRole('heading', { level: 1, name: 'Data' }).waitFor();
    await page
      .getByRole('button', { name: /Import (file|a file)/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Import experiences' });
    await dialog.getByLabel('Choose a file to import').setInputFiles(file);
    await dialog.getByTestId('preview-table').waitFor();
    await dialog.getByLabel('Dataset name').fill('Scale');
    const stop = sampler(dir, cdp);
    const t0 = Date.now();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    try {
      await dialog.getByTestId('import-result').waitFor({ timeout: importTimeout(n) });
      r.importMs = Date.now() - t0;
    } catch (err) {
      r.importMs = null;
      r.failure = crashed ? 'the tab crashed' : `no result after ${importTimeout(n) / 1000} s (${String(err.message).split('\n')[0]})`;
    }
    r.peak = await stop();
    if (r.importMs === null) return r;
    r.resultText = (await dialog.getByTestId('import-result').innerText()).replace(/\s+/g, ' ').slice(0, 160);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // A memory over the imported dataset, so the Memory page has entries to show (seeded, not built).
    await page.goto(`${base}/bench/scale.html`);
    await page.evaluate((entries) => window.seedMemory({ datasetId: 'scale', entries }), CURVE_ENTRIES);
    const ready = {
      Data: () =>
        page
          .getByTestId('dataset-card')
          .filter({ hasText: `${n.toLocaleString('en-US')} experiences` })
          .waitFor({ timeout: 60_000 }),
      Memory: () => page.locator('button.entry').first().waitFor({ timeout: 60_000 }),
      Tools: () =>
        page
          .getByTestId('tool-card')
          .nth(CURVE_TOOLS - 1)
          .waitFor({ timeout: 60_000 }),
      Evaluate: () => page.getByRole('form', { name: 'New evaluation' }).getByRole('option', { name: 'Scale' }).waitFor({ state: 'attached', timeout: 60_000 }),
    };
    const settings = async () => {
      await page.goto(`${base}/#/settings`);
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    };
    await settings();
    r.open = {};
    for (const name of Object.keys(ready)) {
      await settings();
      const t = Date.now();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
      await ready[name]();
      r.open[name] = Date.now() - t;
    }

    // One evaluation: the cheapest numeric method (tool-mean), one seed, the form's default split.
    const form = page.getByRole('form', { name: 'New evaluation' });
    for (const m of ['tool-median', 'knn', 'knn-difficulty', 'ridge', 'ensemble', 'memory']) {
      const box = form.getByLabel(m, { exact: true });
      if ((await box.count()) && (await box.isChecked()) && (await box.isEnabled())) await box.uncheck();
    }
    await form.getByLabel('tool-mean', { exact: true }).check();
    await form.getByLabel('Seeds').fill('1');
    const stopEval = sampler(dir, cdp);
    const te = Date.now();
    await form.getByRole('button', { name: 'Run evaluation' }).click();
    try {
      await page.getByTestId('eval-summary').waitFor({ timeout: Math.max(120_000, n * 0.3) });
      r.evalMs = Date.now() - te;
    } catch (err) {
      r.evalMs = null;
      r.evalFailure = crashed ? 'the tab crashed' : String(err.message).split('\n')[0];
    }
    r.evalPeak = await stopEval();
    return r;
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function scaleCurve() {
  const rows = [
    [
      'experiences',
      'file MB',
      'import s',
      'rows/s',
      'tab RSS peak MB',
      'JS heap peak MB (page)',
      'browser RSS peak MB',
      'Data ms',
      'Memory ms',
      'Tools ms',
      'Evaluate ms',
      'eval s (tool-mean, 1 seed)',
      'eval tab RSS peak MB',
      'eval JS heap peak MB (page)',
    ],
  ];
  for (const n of SIZES) {
    const r = await curveSize(n);
    const mb = (x) => (x ? Math.round(x) : '—');
    rows.push([
      n.toLocaleString('en-US'),
      (r.bytes / 1e6).toFixed(0),
      r.importMs == null ? `FAILED: ${r.failure}` : (r.importMs / 1000).toFixed(1),
      r.importMs ? Math.round(n / (r.importMs / 1000)) : '—',
      mb(r.peak?.renderer),
      mb(r.peak?.heap),
      mb(r.peak?.browser),
      r.open?.Data ?? '—',
      r.open?.Memory ?? '—',
      r.open?.Tools ?? '—',
      r.open?.Evaluate ?? '—',
      r.evalMs == null ? (r.evalFailure ? `FAILED: ${r.evalFailure}` : '—') : (r.evalMs / 1000).toFixed(1),
      mb(r.evalPeak?.renderer),
      mb(r.evalPeak?.heap),
    ]);
    console.log(`${n.toLocaleString('en-US')}: ${r.resultText ?? r.failure}; ${loadLine()}`);
  }
  console.log(table(rows));
}

try {
  if (!sizesArg) await pageTable();
  if (!PAGES_ONLY) await scaleCurve();
} finally {
  server.kill();
}
