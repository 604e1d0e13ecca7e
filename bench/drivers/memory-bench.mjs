#!/usr/bin/env node
// npm run bench:memory — issue #4's "must reach" figures, in Chromium (bench/memory-bench.ts):
// update-prompt tokens as the memory grows from 10 to 5,000 entries; 1,000 scripted update
// operations applied to IndexedDB the way a build applies them (validate → plan → Run cursor →
// DexieMemoryRepository.applyUpdate, one transaction per experience) vs raw Dexie baselines in the
// same run; 100 malformed model replies → corrupted / lost entries (SHA-256 of every entry before
// and after). Prints figures; never fails on speed.
// `--smoke`: 100 operations (npm run bench:smoke); `--dist DIR`: an existing bench build (common.mjs).
import { buildBench, launch, loadLine, serve, SMOKE, table } from './common.mjs';

const OPS = Number(process.env.BENCH_OPS ?? (SMOKE ? 100 : 1000));

const server = await serve(buildBench());
const browser = await launch();
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${server.origin}/bench/memory.html`);
  await page.waitForFunction(() => typeof window.runBench === 'function');
  const r = await page.evaluate((ops) => window.runBench(ops), OPS);

  // 1. prompt size
  const ref = r.promptSize.find((x) => x.entries === 5000).tokens;
  console.log('Update-prompt tokens by memory size (one tool; same experience; k = 6 per level)\n');
  console.log(
    table([
      ['entries', 'entries shown', 'prompt tokens', 'vs 5,000 entries'],
      ...r.promptSize.map((x) => [x.entries.toLocaleString('en'), x.shown, x.tokens, `${(((x.tokens - ref) / ref) * 100).toFixed(1)}%`]),
    ]),
  );
  const flat = r.promptSize.filter((x) => x.entries >= 24);
  const spread = Math.max(...flat.map((x) => Math.abs(x.tokens - ref) / ref));
  console.log(`largest deviation from 5,000 entries once every level holds k entries (24 … 5,000): ${(spread * 100).toFixed(1)}% (goal ≤ 10%)`);
  console.log('(10 entries: fewer than 4k can be shown, so the prompt is smaller, never larger)');

  // 2. applying operations
  console.log(
    `\nApplying ${OPS.toLocaleString('en')} scripted update operations to IndexedDB (Chromium; ${r.apply[0].validEntries.expected > 0 ? 'seeded memory of 2,000 valid entries, 4 tools' : ''})\n`,
  );
  console.log(
    table([
      [
        'scenario',
        'experiences = transactions',
        'rows written',
        'add/update/merge/retire',
        'pipeline ms',
        'ms/op',
        'applyUpdate ms',
        'wall ms',
        'valid entries (stored/expected)',
        'cursor',
      ],
      ...r.apply.map((a) => [
        a.label,
        a.experiences,
        a.rowsWritten,
        `${a.byKind.add}/${a.byKind.update}/${a.byKind.merge}/${a.byKind.retire}`,
        a.pipelineMs.toFixed(0),
        (a.pipelineMs / a.operations).toFixed(3),
        a.applyMs.toFixed(0),
        a.wallMs.toFixed(0),
        `${a.validEntries.stored}/${a.validEntries.expected}`,
        a.cursorOk ? 'matches' : 'MISMATCH',
      ]),
    ]),
  );
  console.log(
    '(pipeline = parseOperations + planOperations + afterStep + applyUpdate with the Run, summed; wall also includes the bench scripting the replies)',
  );
  console.log('\nBaselines, same run, same schema and seeded table\n');
  console.log(
    table([
      ['baseline', 'rows', 'transactions', 'ms', 'ms/row'],
      ...r.baselines.map((b) => [b.label, b.rows, b.transactions, b.ms.toFixed(0), (b.ms / b.rows).toFixed(3)]),
    ]),
  );
  const [bulk, perExp, single] = r.baselines;
  const ours = r.apply[0];
  console.log(`\nratios (build-like pipeline ${ours.pipelineMs.toFixed(0)} ms):`);
  console.log(`  vs one bulkPut transaction of the same rows: ${(ours.pipelineMs / bulk.ms).toFixed(1)}×`);
  console.log(`  vs raw per-experience transactions of the same rows: ${(ours.pipelineMs / perExp.ms).toFixed(2)}×`);
  console.log(
    `  vs ${OPS.toLocaleString('en')} single-row put transactions: ${(ours.pipelineMs / single.ms).toFixed(2)}× (worst case 1 op/experience: ${(r.apply[1].pipelineMs / single.ms).toFixed(2)}×)`,
  );
  for (const a of r.apply)
    console.log(
      `goal ≤ 2 s for ${OPS.toLocaleString('en')} operations — ${a.label}: ${(a.pipelineMs / 1000).toFixed(2)} s (${a.pipelineMs <= 2000 ? 'met' : 'missed'})`,
    );

  // 3. malformed replies
  const m = r.malformed;
  console.log(`\n${m.replies} malformed model replies (each also on the retry) through runBuild → DexieMemoryRepository\n`);
  console.log(
    table([
      ['run state', 'model calls', 'applied', 'skipped', 'entries before → after', 'corrupted', 'lost', 'added', 'SHA-256 of all entries', 'ms'],
      [
        m.state,
        m.modelCalls,
        m.applied,
        m.skipped,
        `${m.entriesBefore} → ${m.entriesAfter}`,
        m.corrupted,
        m.lost,
        m.added,
        m.hashBefore === m.hashAfter ? `unchanged (${m.hashBefore.slice(0, 12)}…)` : `CHANGED ${m.hashBefore.slice(0, 12)} → ${m.hashAfter.slice(0, 12)}`,
        m.ms.toFixed(0),
      ],
    ]),
  );
  console.log(`goal 0 corrupted or lost entries: ${m.corrupted + m.lost === 0 && m.added === 0 ? 'met' : 'MISSED'}`);
  console.log(loadLine());
} finally {
  await browser.close();
  server.kill();
}
