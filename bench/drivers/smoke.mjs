#!/usr/bin/env node
// npm run bench:smoke — every `bench:*` script of package.json at a tiny size (`--smoke`), to prove it
// still runs and prints its figures; part of the gate (`npm test`). A script fails the smoke when it
// exits non-zero, runs past its time limit, or lacks one of its figure lines (the patterns below).
// A bench:* script with no entry here fails too, so a new benchmark cannot be left out, and so does
// an entry whose script is gone. Figures printed at this size mean nothing: only that they print.
//
// The browser benches share one build (the app as shipped plus the bench pages, bench/drivers/common.mjs):
// `--app-dist DIR` copies an app build made before (the gate's `dist`) instead of building the app again.
// `--jobs N` (default 3): scripts run side by side (each one mostly waits on a browser, a server or a
// worker), each printed whole when it ends. `--only a,b`: just those (bench:a, bench:b).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { argValue, buildBench, buildBenchPages, loadLine } from './common.mjs';

const DIST = 'dist-bench-smoke';
const dist = ['--dist', DIST];
const num = String.raw`\d[\d,]*(?:\.\d+)?`;
/** A pattern for a figure line: `num` stands for any number (1,234.5). */
const fig = (source, flags = 'm') => new RegExp(source.replaceAll('NUM', num), flags);

/**
 * Per script: its time limit (seconds, generous: a loaded 2-core machine), the switches beside
 * --smoke, and the lines it must print. Keep one entry per bench:* script of package.json.
 */
const ENTRIES = {
  'bench:import': {
    timeoutS: 90,
    args: dist,
    lines: [
      fig('^ratio ours/baseline throughput, median of NUM: NUM'),
      fig('^time for NUM rows, median: NUM s'),
      fig('^stored counts after our import: NUM rows, NUM tasks'),
      fig('^main-thread long tasks .*: NUM'),
    ],
  },
  'bench:embed': {
    timeoutS: 120,
    args: dist,
    lines: [
      fig('^ratio worker/Node throughput, model only: NUM'),
      fig('^ratio through the cache \\(all misses\\) / model only: NUM'),
      fig('all hits \\(NUM model calls\\)\\s+NUM'),
      fig('^ours: NUM ms/query .* speed vs Orama: NUM×'),
    ],
  },
  'bench:memory': {
    timeoutS: 90,
    args: dist,
    lines: [
      fig('^largest deviation from 5,000 entries .*: NUM%'),
      fig('^goal ≤ 2 s for NUM operations — build-like.*: NUM s'),
      fig('^goal 0 corrupted or lost entries: (met|MISSED)'),
    ],
  },
  'bench:scale': {
    timeoutS: 150,
    args: dist,
    lines: [
      fig('^(Data|Memory|Tools|Evaluate)\\s+NUM\\s+NUM\\s+(yes|NO)'),
      fig('^(every page opened within NUM ms|over the goal: .+)'),
      // The curve's row: import seconds, rows/s, memory peaks, the four pages and the evaluation, all numbers.
      fig('^1,000\\s+NUM\\s+NUM\\s+NUM\\s+NUM\\s+NUM\\s+NUM\\s+NUM\\s+NUM\\s+NUM\\s+NUM\\s+NUM\\s+NUM'),
    ],
  },
  'bench:lighthouse': {
    timeoutS: 150,
    args: dist,
    lines: [fig('^mobile\\s+NUM \\(NUM\\)\\s+NUM\\s+NUM\\s+NUM s\\s+NUM s\\s+NUM ms'), fig('^desktop\\s+NUM \\(NUM\\)\\s+NUM\\s+NUM\\s+NUM s')],
  },
  'bench:parquet': {
    timeoutS: 60,
    args: [],
    lines: [
      fig('^reader: NUM records in NUM s; peak heap NUM MB'),
      fig('NUM rows read, NUM accepted, NUM rejected in NUM s \\(NUM rows/s\\); peak heap NUM MB'),
    ],
  },
  'bench:quality': {
    timeoutS: 120,
    args: [],
    lines: [
      fig('^GenAI-Bench — NUM train / NUM test prompts'),
      fig('^mean MAE ≤ 0\\.90\\s+NUM'),
      fig('^memory \\(skill facets\\) Pearson ≥ 0\\.37\\s+NUM\\s+NUM'),
      fig('^AlpacaEval 2\\.0 — NUM train / NUM test prompts'),
      fig('^Engine time of a no-LLM build .* capability memory NUM ms'),
      fig('^GenAI-Bench NUM, pooled \\(NUM builds\\)\\s+NUM'),
      // Issue #34: pick claims pooled, and the free-text figures (tagged vs untagged memory, DALLE_3's negation over MCP).
      fig('^Pick claims, pooled over the sets above: NUM made, NUM tested, direction (NUM|—)'),
      fig('^Pick claims over more builds, pooled: NUM builds, NUM picks, NUM tested, NUM ahead, NUM contradicted, direction (NUM|—)'),
      // The leaderboards' chance of being best, checked on the same builds' unseen tasks.
      fig(
        "^Leaderboards on unseen tasks, pooled: NUM facets, the likely best tool's stated chance of being best NUM \\(NUM on a sample the unseen size\\), best on unseen tasks NUM",
      ),
      fig(
        "^Goals: tagged text-only RMSE NUM pooled .*never worse than untagged \\(NUM\\).*tool-mean NUM; DALLE_3's lead shrinks by -?NUM on negation .*cited on NUM of NUM",
      ),
      fig('^Summary written to \\.bench/quality-bench\\.json'),
    ],
  },
  'bench:bootstrap': {
    timeoutS: 60,
    args: [],
    lines: [fig('^\\s+1 seed : bootstrap NUM ms wall, NUM ms CPU'), fig('^\\s+5 seeds: bootstrap NUM ms wall, NUM ms CPU')],
  },
  'bench:embed-compare': {
    timeoutS: 120,
    args: [],
    lines: [
      fig('^glove-100d \\(bundled, default\\)\\s+100\\s+NUM'),
      fig('^USE-lite 512-d \\(@energetic-ai\\)\\s+512\\s+NUM'),
      fig('^glove-100d \\(bundled, default\\)\\s+knn dense\\s+NUM ±'),
    ],
  },
  // bench:serve (issue #36): /v1/select against the bare node:http server, CPU per select, the
  // router's added latency, the refused 75 MB reload, the fault scenario (its smoke: ~35 s).
  'bench:serve': {
    timeoutS: 120,
    args: [],
    lines: [
      fig('^serve: /v1/select 200 conn: toolmem NUM req/s p50 NUM ms p99 NUM ms.* \\| bare NUM req/s p50 NUM ms p99 NUM ms.* \\| ratio NUM$'),
      fig('^serve: server CPU per select: NUM ms repeated texts, NUM ms new texts'),
      fig('^serve: router added 1 conn: p50 NUM ms p99 NUM ms'),
      fig('^serve: router added 50 conn, 5 calls/s each: p50 NUM ms p99 NUM ms'),
      fig('^serve: /v1/select p99 during a refused 75 MB reload: NUM ms'),
      fig('^faults: unexpected failures NUM;'),
      fig('^faults: SIGTERM with 50 router requests in flight: NUM answered 200'),
    ],
  },
};
/** Every bench prints the machine's load average beside its figures. */
const LOAD = /load average/;

/** The bench:* scripts of package.json (but this one), checked against ENTRIES both ways. */
function scripts() {
  const all = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).scripts).filter((s) => s.startsWith('bench:') && s !== 'bench:smoke');
  const missing = all.filter((s) => !(s in ENTRIES)).map((s) => `${s}: no smoke entry (its figure lines) in bench/drivers/smoke.mjs`);
  const stale = Object.keys(ENTRIES)
    .filter((s) => !all.includes(s))
    .map((s) => `${s}: a smoke entry for a script package.json does not have`);
  const only = argValue('--only')
    ?.split(',')
    .map((s) => (s.startsWith('bench:') ? s : `bench:${s}`));
  return { names: only ? all.filter((s) => only.includes(s)) : all, problems: [...missing, ...stale] };
}

/** The shared build: the app (copied from `--app-dist`, or built) and the bench pages beside it. */
function prepareBuild() {
  const appDist = argValue('--app-dist');
  rmSync(DIST, { recursive: true, force: true });
  if (!appDist) return buildBench(DIST);
  if (!existsSync(`${appDist}/index.html`)) throw new Error(`--app-dist ${appDist}: no index.html there (build the app first)`);
  cpSync(appDist, DIST, { recursive: true });
  buildBenchPages(DIST);
  return DIST;
}

/** Runs `npm run name -- --smoke …` in its own process group; resolves with its output, status and seconds. */
function run(name) {
  const { timeoutS, args } = ENTRIES[name];
  const t0 = Date.now();
  const child = spawn('npm', ['run', '--silent', name, '--', '--smoke', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const chunks = [];
  child.stdout.on('data', (d) => chunks.push(d));
  child.stderr.on('data', (d) => chunks.push(d));
  let timedOut = false;
  // The whole group: npm, the bench, and what it started (browsers, servers).
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // it ended meanwhile
    }
  }, timeoutS * 1000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ name, code, timedOut, output: Buffer.concat(chunks).toString('utf8'), seconds: (Date.now() - t0) / 1000 });
    });
  });
}

/** What is wrong with a finished run ([] when nothing). */
function check(r) {
  if (r.timedOut) return [`ran past its ${ENTRIES[r.name].timeoutS} s limit`];
  if (r.code !== 0) return [`exited with ${r.code}`];
  return [...ENTRIES[r.name].lines, LOAD].filter((re) => !re.test(r.output)).map((re) => `no line matching ${re}`);
}

/** CPU seconds used by the processes this one started and waited for (theirs included), from /proc; '?' elsewhere. */
function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) / 100).toFixed(0); // cutime + cstime, clock ticks of 10 ms
  } catch {
    return '?';
  }
}

async function runAll(names, jobs) {
  const queue = [...names];
  const results = [];
  const worker = async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const r = await run(name);
      r.problems = check(r);
      results.push(r);
      const head = `--- ${name} (${r.seconds.toFixed(0)} s): ${r.problems.length ? 'FAILED' : 'ok'}`;
      // A passing bench's figures are not this run's point: its last lines are enough to see it ran.
      const lines = r.output.trimEnd().split('\n');
      console.log(`${head}\n${(r.problems.length ? lines.slice(-60) : lines.slice(-3)).join('\n')}\n`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return results;
}

const started = Date.now();
const { names, problems } = scripts();
const jobs = Math.max(1, Number(argValue('--jobs', 3)));
console.log(`bench:smoke — ${names.length} benches at a tiny size, ${jobs} at a time; ${loadLine()}`);
const b0 = Date.now();
prepareBuild();
console.log(`build (the app and the bench pages) in ${DIST}: ${((Date.now() - b0) / 1000).toFixed(0)} s\n`);
// The longest first, so the side-by-side runs end together.
const order = [...names].sort((a, b) => ENTRIES[b].timeoutS - ENTRIES[a].timeoutS);
const results = await runAll(order, jobs);
const failed = results.filter((r) => r.problems.length);
console.log(
  results.map((r) => `${r.name.padEnd(20)} ${r.seconds.toFixed(0).padStart(4)} s  ${r.problems.length ? `FAILED: ${r.problems.join('; ')}` : 'ok'}`).join('\n'),
);
for (const p of problems) console.log(`FAILED: ${p}`);
console.log(
  `bench:smoke: ${results.length - failed.length} of ${results.length} passed in ${((Date.now() - started) / 1000).toFixed(0)} s, ` +
    `${childCpuSeconds()} CPU seconds in all (the build, the benches and what they started); ${loadLine()}`,
);
if (failed.length || problems.length) process.exit(1);
