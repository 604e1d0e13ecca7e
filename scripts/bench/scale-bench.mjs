#!/usr/bin/env node
// npm run bench:scale — the pages with a large database: 200k experiences and 20k memory entries
// seeded into the app's IndexedDB in Chromium (bench/scale-seed.ts), then the time from a click on
// the navigation (warm) and from a reload of the app on the page (cold) until each page shows its content;
// for information, also from about:blank (a new renderer process; not the goal).
// Goal: every page ≤ 1 s. Prints figures; never fails on speed (see common.mjs).
import { buildBench, launch, serve, table } from './common.mjs';

const EXPERIENCES = Number(process.env.BENCH_EXPERIENCES ?? 200_000);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 20_000);
const TOOLS = 8;
const PORT = 4519;
const GOAL_MS = 1000;

buildBench();
const server = await serve('dist-bench', PORT);
const browser = await launch();
const base = `http://127.0.0.1:${PORT}`;
try {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${base}/bench/scale.html`);
  const seeded = await page.evaluate((o) => window.seedScale(o), { experiences: EXPERIENCES, entries: ENTRIES, tools: TOOLS });
  console.log(`seeded ${seeded.experiences.toLocaleString('en-US')} experiences, ${seeded.entries.toLocaleString('en-US')} memory entries (${TOOLS} tools) in ${(seeded.ms / 1000).toFixed(1)} s`);

  // What "the page is open" means for each page: its main content is on screen.
  const ready = {
    Data: () => page.getByTestId('dataset-card').filter({ hasText: `${EXPERIENCES.toLocaleString('en-US')} experiences` }).waitFor(),
    Memory: () => page.locator('button.entry').first().waitFor(),
    Tools: () => page.getByTestId('tool-card').nth(TOOLS - 1).waitFor(),
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
    results[name] = { cold: await time(async () => { await page.reload(); await ready[name](); }) };
  }
  // For information (not the goal): opening the page in a fresh tab-like navigation from about:blank,
  // which adds Chromium's renderer start and a colder script cache.
  for (const name of Object.keys(ready)) {
    await page.goto('about:blank');
    results[name].fresh = await time(async () => { await page.goto(`${base}/#/${name.toLowerCase()}`); await ready[name](); });
  }
  // Warm: the app is running; a click in the navigation.
  await page.goto(`${base}/#/settings`);
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  for (const name of Object.keys(ready)) {
    await page.goto(`${base}/#/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    results[name].warm = await time(async () => { await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click(); await ready[name](); });
  }
  // The experience browser: open it on the Data page, then page forward.
  await page.goto(`${base}/#/data`);
  await ready.Data();
  const card = page.getByTestId('dataset-card').first();
  results['Experience browser'] = {
    warm: await time(async () => { await card.getByText('Browse experiences').click(); await card.getByTestId('experience-browser').locator('tbody tr').first().waitFor(); }),
    cold: null,
  };
  for (const [name, r] of Object.entries(results)) {
    const worst = Math.max(r.warm ?? 0, r.cold ?? 0);
    rows.push([name, r.warm ?? '—', r.cold ?? '—', worst <= GOAL_MS ? 'yes' : 'NO', r.fresh ?? '—']);
  }
  console.log(table(rows));
  const slow = Object.entries(results).filter(([, r]) => Math.max(r.warm ?? 0, r.cold ?? 0) > GOAL_MS).map(([n]) => n);
  console.log(slow.length ? `over the goal: ${slow.join(', ')}` : `every page opened within ${GOAL_MS} ms`);
} finally {
  await browser.close();
  server.kill();
}
