/**
 * `npm run bench:serve` (issues #30, #35, #36): `toolmem serve` measured against a bare node:http
 * server answering the same bytes, in one run, on loopback:
 *  1. /v1/select at 1, 50 and 200 keep-alive connections (closed loop, raw sockets: serve-load.ts),
 *     for toolmem serve (--workers 1 unless --workers N) and the bare server: throughput, p50, p99,
 *     their ratios, and the server's CPU per select (from /proc, the parse worker and any cluster
 *     workers included) — with the 1,600 demo prompts repeated (after one warm-up pass: the same
 *     bodies, answered from the kept answers), the same texts in bodies never sent before (parsed,
 *     then answered from the kept answer of the same arguments), and texts never seen before;
 *  2. the router's added latency at 1 and 50 connections: /v1/chat/completions (route
 *     toolmem:strict, one upstream) against the same request sent straight to that fake upstream,
 *     each connection sending its next call as soon as it has an answer (saturated), and 50
 *     connections of 5 calls a second each;
 *  3. /v1/select p99 at 50 connections while a 75 MB memory file is read, parsed and refused by the
 *     parse worker (the bench's server reads files up to 100 MiB, so the file is parsed rather than
 *     refused from its size), then a 1 GiB sparse file refused from its size;
 *  4. the fault scenario of serve-faults.ts (reloads and an upstream kill under mixed load, every bad
 *     request, SIGTERM with requests in flight).
 * Prints figures and the goals they meet or not; asserts nothing. Options: --smoke (about a second
 * per measurement, 200 prompts, a 3-second fault scenario: well under 30 s plus the server's start),
 * --seconds S per measurement (default 5), --workers N (toolmem serve's workers, default 1),
 * --clients N and --think MS for the fault scenario.
 */
import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync, closeSync, openSync, ftruncateSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadLine } from './bench-env';
import { runFaults } from './serve-faults';
import { closedLoop, percentile, rawRequest, type LoopResult } from './serve-load';
import { child, cpuMs, REPO, sleep, type Child } from './serve-procs';

const { values: argv } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    workers: { type: 'string', default: '1' },
    clients: { type: 'string' },
    think: { type: 'string', default: '1000' },
  },
});
const SMOKE = argv.smoke === true;
const LEVEL_MS = Number(argv.seconds ?? (SMOKE ? 1 : 5)) * 1000;
const WORKERS = Number(argv.workers);
const TOKEN = 'bench-token-0123456789abcdef';
const DIR = resolve(REPO, SMOKE ? '.bench/serve-smoke' : '.bench/serve');
const TOOLS = ['DALLE_3', 'DeepFloyd_I_XL_v1', 'Midjourney_6', 'SDXL_2_1', 'SDXL_Base', 'SDXL_Turbo'];
const demo = JSON.parse(readFileSync(resolve(REPO, 'public/demo/genai_image.json'), 'utf8')) as Record<string, { prompt: string }>;
const TASKS = Object.values(demo)
  .map((d) => d.prompt)
  .slice(0, SMOKE ? 200 : undefined);
const auth = { authorization: `Bearer ${TOKEN}` };
const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)} ms`;
/** A latency difference: below zero (the direct call slower at that percentile: noise) it prints as 0 with the raw value beside. */
const diff = (x: number) => (x < 0 ? `0 ms (direct ${ms(-x)} slower)` : ms(x));

interface Setup {
  srv: Child;
  port: number;
  url: string;
  bare: Child;
  barePort: number;
  a: Child;
  b: Child;
  upA: string;
  upB: string;
  memoryPath: string;
  base: string;
}

async function setup(): Promise<Setup> {
  mkdirSync(DIR, { recursive: true });
  const memoryPath = resolve(DIR, 'memory.json');
  copyFileSync(resolve(REPO, 'tests/fixtures/serve/genai-200.json'), memoryPath);
  const [a, b] = await Promise.all(['a', 'b'].map((n) => child(['--import', 'tsx', 'bench/drivers/fake-openai.ts', n], /^listening (\d+)$/)));
  const upA = `http://127.0.0.1:${a!.match[1]}/v1`;
  const upB = `http://127.0.0.1:${b!.match[1]}/v1`;
  const routes = resolve(DIR, 'routes.json');
  writeFileSync(
    routes,
    JSON.stringify({
      tools: { DALLE_3: { upstream: `openai:${upB}#dalle` }, SDXL_2_1: { upstream: `openai:${upA}#sdxl` }, Midjourney_6: { upstream: `openai:${upA}#mj` } },
      routes: { 'toolmem:strict': { tools: ['DALLE_3'], fallback: false } },
    }),
  );
  const args = [
    'bin/toolmem.mjs',
    'serve',
    '--memory',
    memoryPath,
    '--routes',
    routes,
    '--port',
    '0',
    '--token',
    TOKEN,
    '--request-timeout',
    '3000',
    '--max-sessions',
    '512',
    '--max-memory-bytes',
    String(100 * 1024 * 1024),
    '--workers',
    String(WORKERS),
  ];
  const srv = await child(args, /serving .* on (http:\/\/127\.0\.0\.1:(\d+))/);
  const url = srv.match[1]!;
  const sample = await fetch(`${url}/v1/select`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ task: TASKS[0], candidates: TOOLS }),
  });
  const answer = resolve(DIR, 'answer.json');
  writeFileSync(answer, JSON.stringify({ body: await sample.text(), memory: sample.headers.get('x-toolmem-memory') }));
  const bare = await child(['bench/drivers/bare-server.mjs', answer], /^listening (\d+)$/);
  return {
    srv,
    port: Number(srv.match[2]),
    url,
    bare,
    barePort: Number(bare.match[1]),
    a: a!,
    b: b!,
    upA,
    upB,
    memoryPath,
    base: readFileSync(memoryPath, 'utf8'),
  };
}

const selectRequests = (port: number, tasks: readonly string[]) =>
  tasks.map((task) => rawRequest({ path: '/v1/select', port, body: JSON.stringify({ task, candidates: TOOLS }), headers: auth }));

/** A closed loop with the server's CPU over it. */
async function measured(pid: number | undefined, opts: Parameters<typeof closedLoop>[0]): Promise<LoopResult & { cpuPer: number }> {
  const c0 = cpuMs(pid);
  const r = await closedLoop(opts);
  return { ...r, cpuPer: (cpuMs(pid) - c0) / Math.max(1, r.count) };
}

const line = (r: LoopResult) =>
  `${r.rate.toFixed(0)} req/s p50 ${ms(percentile(r.ms, 50))} p99 ${ms(percentile(r.ms, 99))}${r.non2xx + r.errors ? ` (${r.non2xx} non-2xx, ${r.errors} errors)` : ''}`;

/** Part 1: /v1/select at 1, 50, 200 connections, toolmem serve and the bare server. */
async function selectLevels(s: Setup) {
  const ours = selectRequests(s.port, TASKS);
  const bare = selectRequests(s.barePort, TASKS);
  // Every prompt once: the bench measures repeated texts (their embeddings cached), then new texts below.
  await closedLoop({ port: s.port, requests: ours, connections: 4, ms: 600_000, total: TASKS.length });
  await closedLoop({ port: s.barePort, requests: bare, connections: 4, ms: 2_000 });
  const levels: { c: number; ours: LoopResult & { cpuPer: number }; bare: LoopResult & { cpuPer: number } }[] = [];
  for (const c of [1, 50, 200]) {
    const o = await measured(s.srv.proc.pid, { port: s.port, requests: ours, connections: c, ms: LEVEL_MS });
    const b = await measured(s.bare.proc.pid, { port: s.barePort, requests: bare, connections: c, ms: LEVEL_MS });
    levels.push({ c, ours: o, bare: b });
    console.log(`serve: /v1/select ${c} conn: toolmem ${line(o)} | bare ${line(b)} | ratio ${(o.rate / b.rate).toFixed(3)}`);
  }
  const fresh = TASKS.map((t, i) => `${t} (variant ${i}-${Date.now()})`);
  const f = await measured(s.srv.proc.pid, { port: s.port, requests: selectRequests(s.port, fresh), connections: 50, ms: LEVEL_MS, total: fresh.length });
  const at50 = levels[1]!;
  console.log(
    `serve: server CPU per select: ${ms(at50.ours.cpuPer)} repeated texts, ${ms(f.cpuPer)} new texts (50 conn); bare server ${ms(at50.bare.cpuPer)} per request`,
  );
  // The same texts in bodies the server never saw (trailing spaces, valid JSON): no body text is
  // kept, so every request is parsed and answered from the kept answer of the same parsed arguments —
  // what a repeated task costs when a client formats its body differently.
  const padded = Array.from({ length: 30 }, (_, k) => TASKS.map((task) => JSON.stringify({ task, candidates: TOOLS }) + ' '.repeat(k + 1))).flat();
  const bodies = padded.map((body) => rawRequest({ path: '/v1/select', port: s.port, body, headers: auth }));
  const nb = await measured(s.srv.proc.pid, { port: s.port, requests: bodies, connections: 50, ms: LEVEL_MS, total: bodies.length });
  console.log(`serve: server CPU per select, repeated texts in bodies never sent before: ${ms(nb.cpuPer)} (50 conn, ${line(nb)})`);
  return { levels, freshCpu: f.cpuPer, newBodyCpu: nb.cpuPer };
}

/** Part 2: the router's added latency (toolmem:strict → upstream B, against B directly). */
async function routerOverhead(s: Setup) {
  const body = (model: string, i: number) => JSON.stringify({ model, messages: [{ role: 'user', content: TASKS[i % TASKS.length] }] });
  const bPort = Number(new URL(s.upB).port);
  const router = TASKS.map((_, i) => rawRequest({ path: '/v1/chat/completions', port: s.port, body: body('toolmem:strict', i), headers: auth }));
  const direct = TASKS.map((_, i) => rawRequest({ path: '/v1/chat/completions', port: bPort, body: body('dalle', i) }));
  await closedLoop({ port: s.port, requests: router, connections: 4, ms: 1_000 });
  const added: { c: number; paced: boolean; p50: number; p99: number }[] = [];
  // Saturated (each connection sends its next call as soon as it has an answer), then 50 clients
  // making 5 calls a second each: a router's clients wait seconds for an LLM, they do not hammer it.
  for (const [c, paceMs] of [
    [1, 0],
    [50, 0],
    [50, 200],
  ] as const) {
    const opts = { connections: c, ms: LEVEL_MS, ...(paceMs ? { paceMs } : {}) };
    const c0 = cpuMs(s.srv.proc.pid);
    const r = await closedLoop({ port: s.port, requests: router, ...opts });
    const cpu = (cpuMs(s.srv.proc.pid) - c0) / Math.max(1, r.count);
    const d = await closedLoop({ port: bPort, requests: direct, ...opts });
    const a = { c, paced: paceMs > 0, p50: percentile(r.ms, 50) - percentile(d.ms, 50), p99: percentile(r.ms, 99) - percentile(d.ms, 99) };
    added.push(a);
    const how = paceMs ? `, 5 calls/s each` : '';
    console.log(
      `serve: router added ${c} conn${how}: p50 ${diff(a.p50)} p99 ${diff(a.p99)} (router ${line(r)}, server CPU ${ms(cpu)} per call; upstream directly ${line(d)})`,
    );
  }
  return added;
}

/** Waits for the server's next log line containing `text` after `from` lines; resolves with its time. */
async function logged(s: Setup, text: string, from: number): Promise<number> {
  for (const until = performance.now() + 120_000; performance.now() < until; await sleep(5))
    if (s.srv.log.slice(from).some((l) => l.includes(text))) return performance.now();
  throw new Error(`the server never logged "${text}"`);
}

/** Part 3: /v1/select p99 while a 75 MB file is parsed and refused; a 1 GiB sparse file refused from its size. */
async function reloadStall(s: Setup) {
  const big = `${s.memoryPath}.75mb`;
  const f = JSON.parse(s.base) as { memory: { name: string } };
  f.memory.name = 'x'.repeat(75_000_000);
  writeFileSync(big, JSON.stringify(f));
  const stop = { now: false };
  const from = s.srv.log.length;
  const load = closedLoop({ port: s.port, requests: selectRequests(s.port, TASKS), connections: 50, ms: 600_000, samples: true, stop });
  await sleep(500);
  const t0 = performance.now();
  renameSync(big, s.memoryPath);
  const t1 = await logged(s, 'reload refused', from);
  await sleep(300);
  stop.now = true;
  const r = await load;
  const during = r
    .samples!.filter((x) => x.start >= t0 && x.start <= t1)
    .map((x) => x.ms)
    .sort((a, b) => a - b);
  const before = r
    .samples!.filter((x) => x.start < t0)
    .map((x) => x.ms)
    .sort((a, b) => a - b);
  const p99 = percentile(during, 99);
  console.log(
    `serve: /v1/select p99 during a refused 75 MB reload: ${ms(p99)} (${during.length} selects in the ${((t1 - t0) / 1000).toFixed(1)} s it took; p99 before it ${ms(percentile(before, 99))}; 50 conn)`,
  );
  const sparse = `${s.memoryPath}.1gib`;
  const fd = openSync(sparse, 'w');
  ftruncateSync(fd, 1024 ** 3);
  closeSync(fd);
  const from2 = s.srv.log.length;
  const t2 = performance.now();
  renameSync(sparse, s.memoryPath);
  const t3 = await logged(s, 'reload refused', from2);
  const alive = await fetch(`${s.url}/v1/select`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ task: TASKS[1], candidates: TOOLS }),
  });
  console.log(`serve: a 1 GiB sparse memory file refused from its size in ${ms(t3 - t2)} of the watcher's time; then /v1/select answers ${alive.status}`);
  writeFileSync(`${s.memoryPath}.tmp`, s.base);
  renameSync(`${s.memoryPath}.tmp`, s.memoryPath);
  return p99;
}

function goals(sel: Awaited<ReturnType<typeof selectLevels>>, added: Awaited<ReturnType<typeof routerOverhead>>, stallP99: number): void {
  const at200 = sel.levels[2]!;
  const ratio = at200.ours.rate / at200.bare.rate;
  const p99 = percentile(at200.ours.ms, 99);
  const cpu = sel.levels[1]!.ours.cpuPer;
  const r50 = added[2]!.p50;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log('\nMust reach (issue #35, #36):');
  console.log(`serve: goal throughput at 200 conn ≥ 0.3 of bare: ${ratio.toFixed(3)} — ${met(ratio >= 0.3)}`);
  // The bare server's p99 beside it: on a shared machine the scheduler's share of the tail is in both.
  const bareP99 = percentile(at200.bare.ms, 99);
  console.log(`serve: goal p99 at 200 conn ≤ 50 ms: ${ms(p99)} (bare server ${ms(bareP99)}, ratio ${(p99 / bareP99).toFixed(2)}) — ${met(p99 <= 50)}`);
  console.log(
    `serve: goal server CPU per select ≤ 0.15 ms: ${ms(cpu)} (repeated texts; in new bodies ${ms(sel.newBodyCpu)}; new texts ${ms(sel.freshCpu)}) — ${met(cpu <= 0.15)}`,
  );
  console.log(`serve: goal router added p50 at 50 conn ≤ 5 ms: ${diff(r50)} at 5 calls/s each (${diff(added[1]!.p50)} saturated) — ${met(r50 <= 5)}`);
  console.log(`serve: goal /v1/select p99 during a refused 75 MB reload ≤ 100 ms: ${ms(stallP99)} — ${met(stallP99 <= 100)}`);
}

const s = await setup();
console.log(
  `serve: ${loadLine()} before the run; toolmem serve --workers ${WORKERS} on ${s.url}; ${TASKS.length} prompts, ${LEVEL_MS / 1000} s per measurement${SMOKE ? ' (smoke)' : ''}`,
);
const sel = await selectLevels(s);
const added = await routerOverhead(s);
const stall = await reloadStall(s);
goals(sel, added, stall);
await runFaults({
  url: s.url,
  token: TOKEN,
  upA: s.upA,
  upB: s.upB,
  b: s.b,
  srv: s.srv,
  memoryPath: s.memoryPath,
  base: s.base,
  tasks: TASKS,
  tools: TOOLS,
  clients: Number(argv.clients ?? (SMOKE ? 20 : 200)),
  seconds: SMOKE ? 3 : 20,
  thinkMs: Number(argv.think),
});
console.log(`serve: ${loadLine()} after the run`);
s.a.proc.kill('SIGTERM');
s.bare.proc.kill('SIGTERM');
process.exit(0);
