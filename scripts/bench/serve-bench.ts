/**
 * `npm run bench:serve` (issue #30): `toolmem serve` under load and faults, loopback only, bounded
 * in time (DURATION_MS of load) and count (MAX_REQUESTS). CLIENTS concurrent clients, each sending
 * a request then thinking THINK_MS (uniform ±50%), mix: /v1/select, /v1/predict, MCP tools/call,
 * the router (toolmem:auto, fallback on; toolmem:strict, no fallback) and direct calls to a fake
 * upstream (the router's baseline). During the load the memory file is replaced 5 times — four
 * valid versions written in place in two halves (a torn file the watcher may see first), one
 * invalid — and upstream B (DALLE_3's) is killed. Then every bad request is tried once, and the
 * server is stopped with SIGTERM while requests are in flight. Prints the figures; asserts nothing.
 * Options: --clients N, --seconds S, --think MS; --smoke (npm run bench:smoke): 20 clients, 2 s, think
 * 200 ms, a memory built from the GenAI-Bench slice in tests/fixtures, shorter quiet and sizing runs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { send, summary, type Sample } from './serve-load';
import { sharedData } from './bench-env';

const { values: argv } = parseArgs({
  options: { clients: { type: 'string', default: '200' }, seconds: { type: 'string', default: '20' }, think: { type: 'string', default: '1000' }, smoke: { type: 'boolean', default: false } },
});
const SMOKE = argv.smoke;
if (SMOKE) Object.assign(argv, { clients: '20', seconds: '2', think: '200' });
/** One client's router/direct pairs, the first WARM_PAIRS of them warm-up; the saturation run's length. */
const QUIET_PAIRS = SMOKE ? 60 : 300;
const WARM_PAIRS = SMOKE ? 20 : 100;
const SIZING_MS = SMOKE ? 500 : 3000;
const CLIENTS = Number(argv.clients);
const DURATION_MS = Number(argv.seconds) * 1000;
const THINK_MS = Number(argv.think);
const MAX_REQUESTS = 200_000;
const REPO = resolve(import.meta.dirname, '../..');
const DIR = resolve(REPO, SMOKE ? '.bench/serve-smoke' : '.bench/serve');
const TOKEN = 'bench-token-0123456789abcdef';
const DATA = SMOKE ? '' : sharedData('genai_bench/genai_image.json');
const SLICE = resolve(REPO, 'tests/fixtures/import/genai_image_slice.json');
const sha = (t: string) => createHash('sha256').update(t).digest('hex').slice(0, 16);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** CPU milliseconds (user + system) a process has used, from /proc (Linux; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms (USER_HZ 100)
  } catch {
    return NaN;
  }
}

function child(args: string[], ready: RegExp): Promise<{ proc: ChildProcess; match: RegExpMatchArray; log: string[] }> {
  const proc = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  return new Promise((res, rej) => {
    let buf = '';
    const onLine = (d: Buffer) => {
      buf += d.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        log.push(line);
        const m = ready.exec(line);
        if (m) res({ proc, match: m, log });
      }
    };
    proc.stdout!.on('data', onLine);
    proc.stderr!.on('data', onLine);
    proc.once('exit', (code) => rej(new Error(`${args.join(' ')} exited with ${code}: ${log.slice(-5).join(' | ')}`)));
  });
}

mkdirSync(DIR, { recursive: true });
const built = resolve(DIR, 'built.json');
if (!existsSync(built)) {
  const data = existsSync(DATA) ? ['--data', DATA, '--train', '200', '--seed', '0'] : ['--data', SLICE];
  console.log(`building the memory (${existsSync(DATA) ? 'GenAI-Bench, 200 training prompts' : 'the GenAI-Bench slice'}) …`);
  const r = spawnSync(process.execPath, ['bin/toolmem.mjs', 'build-memory', ...data, '--llm', 'none', '--out', built], { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build-memory failed');
}
const base = readFileSync(built, 'utf8');
const memoryPath = resolve(DIR, 'memory.json');
writeFileSync(memoryPath, base);
const variant = (k: number) => { const f = JSON.parse(base); f.memory.name = `bench version ${k}`; return `${JSON.stringify(f, null, 1)}\n`; };

const [a, b] = await Promise.all(['a', 'b'].map((n) => child(['--import', 'tsx', 'scripts/bench/fake-openai.ts', n], /^listening (\d+)$/)));
const upA = `http://127.0.0.1:${a!.match[1]}/v1`;
const upB = `http://127.0.0.1:${b!.match[1]}/v1`;
writeFileSync(resolve(DIR, 'routes.json'), JSON.stringify({
  tools: { DALLE_3: { upstream: `openai:${upB}#dalle` }, SDXL_2_1: { upstream: `openai:${upA}#sdxl` }, Midjourney_6: { upstream: `openai:${upA}#mj` } },
  routes: { 'toolmem:strict': { tools: ['DALLE_3'], fallback: false } },
}));
const srv = await child(['bin/toolmem.mjs', 'serve', '--memory', memoryPath, '--routes', resolve(DIR, 'routes.json'), '--port', '0', '--token', TOKEN, '--request-timeout', SMOKE ? '1000' : '3000', '--max-sessions', '512'], /serving .* on (http:\/\/127\.0\.0\.1:\d+)/);
const URL0 = srv.match[1]!;
const auth = { authorization: `Bearer ${TOKEN}` };
const tasks = Object.values(JSON.parse(readFileSync(existsSync(DATA) ? DATA : SLICE, 'utf8')) as Record<string, { prompt: string }>).map((r) => r.prompt);
const TOOLS = ['DALLE_3', 'Midjourney_6', 'SDXL_2_1', 'SDXL_Base', 'SDXL_Turbo', 'DeepFloyd_I_XL_v1'];
console.log(`load average before the run: ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
console.log(`serve on ${URL0}, upstreams A ${upA} and B ${upB}; ${CLIENTS} clients, think ${THINK_MS} ms ±50%, ${DURATION_MS / 1000} s of load`);

// --- the router's own cost: one client, router and direct calls alternating (nothing queued) ----------
const quiet: Sample[] = [];
for (let i = 0; i < QUIET_PAIRS; i++) {
  const body = JSON.stringify({ model: 'toolmem:strict', messages: [{ role: 'user', content: tasks[i % tasks.length] }] });
  quiet.push(await send('router', { url: `${URL0}/v1/chat/completions`, headers: auth, body }));
  quiet.push(await send('direct', { url: `${upB}/chat/completions`, body: body.replace('toolmem:strict', 'dalle') }));
}
const quietWarm = quiet.slice(2 * WARM_PAIRS); // the first pairs warm up
const quietRouter = summary(quietWarm.filter((s) => s.kind === 'router'));
const quietDirect = summary(quietWarm.filter((s) => s.kind === 'direct'));

// --- the load, with the reloads and the kill on a timeline ---------------------------------------
const samples: Sample[] = [];
const shaGen = new Map<string, number>([[sha(base), 0]]);
/** When (performance.now()) /readyz first showed each generation; requests after it must come from it or later. */
const applied: { gen: number; at: number }[] = [{ gen: 0, at: 0 }];
let killedAt = Infinity;
const t0 = performance.now();
const cpu0 = cpuMs(srv.proc.pid);
let stop = false;

function mix(i: number) {
  const task = tasks[i % tasks.length]!;
  const r = Math.random();
  const chat = (model: string, stream: boolean) => JSON.stringify({ model, stream, messages: [{ role: 'user', content: task }] });
  if (r < 0.35) return send('select', { url: `${URL0}/v1/select`, headers: auth, body: JSON.stringify({ task, candidates: TOOLS.slice(0, 3 + (i % 4)) }) });
  if (r < 0.55) return send('predict', { url: `${URL0}/v1/predict`, headers: auth, body: JSON.stringify({ tool: TOOLS[i % 6], task }) });
  if (r < 0.7) return send('mcp', { url: `${URL0}/mcp`, headers: { ...auth, accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'select_tool', arguments: { task, candidates: TOOLS } } }) });
  if (r < 0.85) return send('router', { url: `${URL0}/v1/chat/completions`, headers: auth, body: chat('toolmem:auto', i % 3 === 0) });
  if (r < 0.9) return send('router-strict', { url: `${URL0}/v1/chat/completions`, headers: auth, body: chat('toolmem:strict', false) });
  // The router's baseline: the same body straight to the upstream the router uses (B, then A once B is gone).
  return send('direct', { url: `${performance.now() > killedAt ? upA : upB}/chat/completions`, body: chat('dalle', i % 3 === 0) });
}

async function client(c: number): Promise<void> {
  // Clients arrive spread over one think time, as independent agents would, not in one burst.
  await sleep(THINK_MS * Math.random());
  for (let i = c; !stop && samples.length < MAX_REQUESTS; i += CLIENTS) {
    samples.push(await mix(i));
    await sleep(THINK_MS * (0.5 + Math.random()));
  }
}

async function readyGen(expect: string): Promise<void> {
  for (const until = performance.now() + 5000; performance.now() < until; await sleep(10)) {
    const r = await send('readyz', { method: 'GET', url: `${URL0}/readyz`, headers: auth });
    if ((JSON.parse(r.text) as { memory: { sha256: string } }).memory.sha256 === expect) return;
  }
  throw new Error(`the server never served ${expect}`);
}

async function replace(k: number): Promise<void> {
  if (k === 3) {
    // The invalid one: valid JSON, not a memory file (version 99), put in place by rename.
    writeFileSync(`${memoryPath}.tmp`, JSON.stringify({ ...JSON.parse(base), version: 99 }));
    renameSync(`${memoryPath}.tmp`, memoryPath);
    await sleep(300);
    return;
  }
  const text = variant(k);
  shaGen.set(sha(text), k);
  const f = await open(memoryPath, 'w');
  await f.write(text.slice(0, text.length >> 1));
  await f.sync();
  await sleep(40);
  await f.write(text.slice(text.length >> 1));
  await f.close();
  await readyGen(sha(text));
  applied.push({ gen: k, at: performance.now() });
}

const timeline = (async () => {
  for (const [k, at] of [[1, 0.15], [2, 0.3], [3, 0.45], [4, 0.6], [5, 0.75]] as const) {
    await sleep(t0 + DURATION_MS * at - performance.now());
    await replace(k);
    if (k === 3) {
      killedAt = performance.now();
      b!.proc.kill('SIGKILL');
    }
  }
})();
const ending = sleep(DURATION_MS).then(() => (stop = true));
await Promise.all([...Array.from({ length: CLIENTS }, (_, c) => client(c)), timeline, ending]);
const wall = (performance.now() - t0) / 1000;
const loadCpu = cpuMs(srv.proc.pid) - cpu0;
const rss = /VmRSS:\s+(\d+) kB/.exec(existsSync(`/proc/${srv.proc.pid}/status`) ? readFileSync(`/proc/${srv.proc.pid}/status`, 'utf8') : '')?.[1];

// --- the figures ---------------------------------------------------------------------------------
// A strict-route request that ended after B was killed may fail (it may have been in flight when B died).
// A direct baseline call to B that ended after the kill fails too (it measures the upstream, not the server).
const expectedFault = (s: Sample) => s.start + s.ms >= killedAt && ((s.kind === 'router-strict' && s.status === 502) || (s.kind === 'direct' && s.status === 0));
const failures = samples.filter((s) => (s.status < 200 || s.status >= 300) && !expectedFault(s));
const genOf = (m: string) => shaGen.get(m);
const fromMemory = samples.filter((s) => s.kind !== 'direct' && s.status >= 200 && s.status < 300);
const halfRead = fromMemory.filter((s) => genOf(s.memory) === undefined || s.broken).length;
const stale = fromMemory.filter((s) => {
  const known = applied.filter((x) => x.at <= s.start).at(-1)!.gen;
  return (genOf(s.memory) ?? -1) < known;
}).length;
const fmt = (x: number) => x.toFixed(1).padStart(7);
console.log(`\n${samples.length} requests in ${wall.toFixed(1)} s: ${(samples.length / wall).toFixed(0)} requests/s; reloads applied: ${applied.length - 1} of 4 valid (the invalid one refused: ${srv.log.some((l) => l.includes('reload refused') && l.includes('$.version'))}); refused torn/invalid reads logged: ${srv.log.filter((l) => l.includes('reload refused')).length}`);
console.log(`reload times (read, parse, validate, prepare): ${srv.log.filter((l) => l.includes('reloaded:')).map((l) => / in (\d+) ms$/.exec(l)?.[1] ?? '?').join(', ')} ms`);
console.log(`server CPU: ${(loadCpu / samples.length).toFixed(2)} ms per request (${(loadCpu / 1000 / wall).toFixed(2)} cores busy on average); resident memory ${rss ? `${Math.round(Number(rss) / 1024)} MB` : 'unknown'}`);
console.log('kind            n   p50 ms  p99 ms  max ms  non-2xx');
for (const kind of ['select', 'predict', 'mcp', 'router', 'router-strict', 'direct']) {
  const of = samples.filter((s) => s.kind === kind);
  const st = summary(of);
  console.log(`${kind.padEnd(13)} ${String(st.n).padStart(5)} ${fmt(st.p50)} ${fmt(st.p99)} ${fmt(st.max)}  ${of.filter((s) => s.status < 200 || s.status >= 300).length}`);
}
if (process.env.SERVE_BENCH_SERIES) {
  for (let w = 0; w < DURATION_MS / 1000; w++) {
    const win = samples.filter((s) => s.kind === 'select' && s.start - t0 >= w * 1000 && s.start - t0 < (w + 1) * 1000);
    const st = summary(win);
    console.log(`  t=${w}s select n=${st.n} p50 ${st.p50.toFixed(1)} p99 ${st.p99.toFixed(1)}`);
  }
}
const router = summary(samples.filter((s) => s.kind === 'router'));
const direct = summary(samples.filter((s) => s.kind === 'direct'));
const sel = summary(samples.filter((s) => s.kind === 'select'));
const expected = samples.filter(expectedFault).length;
console.log(`\nMust reach:`);
console.log(`  p99 /v1/select at ${CLIENTS} clients: ${sel.p99.toFixed(1)} ms (goal ≤ 50 ms): ${sel.p99 <= 50 ? 'met' : 'NOT met'}`);
console.log(`  router overhead at p50: ${(router.p50 - direct.p50).toFixed(2)} ms (router ${router.p50.toFixed(2)} − direct ${direct.p50.toFixed(2)}; goal ≤ 5 ms): ${router.p50 - direct.p50 <= 5 ? 'met' : 'NOT met'}`);
console.log(`  router overhead at p50 with one client (nothing queued): ${(quietRouter.p50 - quietDirect.p50).toFixed(2)} ms (router ${quietRouter.p50.toFixed(2)} − direct ${quietDirect.p50.toFixed(2)}; goal ≤ 5 ms): ${quietRouter.p50 - quietDirect.p50 <= 5 ? 'met' : 'NOT met'}`);
const calm = samples.filter((s) => s.kind === 'select' && s.start - t0 > 1000 && applied.every((x) => x.gen === 0 || s.start < x.at - 1500 || s.start > x.at + 1000));
console.log(`  p99 /v1/select away from the start and the reloads (${calm.length} requests): ${summary(calm).p99.toFixed(1)} ms`);
console.log(`  unexpected failures: ${failures.length} (expected: ${expected} strict-route 502s and direct calls to B after it was killed)${failures.length ? ` — e.g. ${failures.slice(0, 5).map((f) => `${f.kind} ${f.status}${f.error ? ` ${f.error}` : ''}`).join(', ')}` : ''}`);
console.log(`  answers from a half-read or unknown file: ${halfRead}; answers from an older file after a reload was seen: ${stale}`);

// --- sizing: the same clients with no think time, /v1/select only (the most one process answers) -----
{
  const sat: Sample[] = [];
  const select = (i: number) => JSON.stringify({ task: tasks[i % tasks.length], candidates: TOOLS });
  const t1 = performance.now();
  const c1 = cpuMs(srv.proc.pid);
  await Promise.all(Array.from({ length: CLIENTS }, async (_, c) => {
    for (let i = c; performance.now() - t1 < SIZING_MS; i += CLIENTS) sat.push(await send('select', { url: `${URL0}/v1/select`, headers: auth, body: select(i) }));
  }));
  const st = summary(sat);
  const rate = sat.length / ((performance.now() - t1) / 1000);
  const perReq = (cpuMs(srv.proc.pid) - c1) / sat.length;
  console.log(`\nSizing: /v1/select with ${CLIENTS} clients and no think time: ${rate.toFixed(0)} requests/s per process here (p50 ${st.p50.toFixed(1)} ms, p99 ${st.p99.toFixed(1)} ms, ${sat.filter((x) => x.status !== 200).length} non-200); server CPU ${perReq.toFixed(2)} ms per request → about ${(1000 / perReq).toFixed(0)} requests/s per free core`);
}

// --- every bad request once; the server must keep serving ------------------------------------------
console.log('\nBad requests (status, message length; then a /v1/select must still answer 200):');
const select = JSON.stringify({ task: tasks[0], candidates: TOOLS });
const bad: [string, Parameters<typeof send>[1]][] = [
  ['no token', { url: `${URL0}/v1/select`, body: select }],
  ['wrong token', { url: `${URL0}/v1/select`, body: select, headers: { authorization: 'Bearer wrong-token-0000000000' } }],
  ['wrong Origin on /mcp', { url: `${URL0}/mcp`, body: '{}', headers: { ...auth, origin: 'http://rebind.example' } }],
  ['10 MB body', { url: `${URL0}/v1/select`, body: Buffer.alloc(10 * 1024 * 1024, 0x20), headers: auth }],
  ['malformed JSON', { url: `${URL0}/v1/predict`, body: '{"tool": ', headers: auth }],
  ['unknown route', { url: `${URL0}/v1/nothing`, body: '{}', headers: auth }],
  ['slow client (body stalls)', { url: `${URL0}/v1/select`, body: select, headers: auth, stallAfter: 10 }],
];
for (const [what, call] of bad) {
  const r = await send(what, call);
  const message = r.text ? ((JSON.parse(r.text) as { error?: { message?: string } }).error?.message ?? '') : '';
  const after = await send('after', { url: `${URL0}/v1/select`, headers: auth, body: select });
  console.log(`  ${what.padEnd(26)} ${r.status}  ${String(message.length).padStart(3)} chars in ${r.ms.toFixed(0)} ms; then ${after.status}`);
}

// --- SIGTERM with requests in flight ----------------------------------------------------------------
const inFlight = Array.from({ length: 50 }, (_, i) => send('drain', { url: `${URL0}/v1/chat/completions`, headers: auth, body: JSON.stringify({ model: 'toolmem:auto', messages: [{ role: 'user', content: tasks[i] }] }) }));
await sleep(2);
const exited = new Promise<number | null>((r) => srv.proc.once('exit', (code) => r(code)));
srv.proc.kill('SIGTERM');
const drained = await Promise.all(inFlight);
console.log(`\nSIGTERM with 50 router requests in flight: ${drained.filter((d) => d.status === 200).length} answered 200, ${drained.filter((d) => d.status === 0).length} refused at connect (sent after the listener closed); exit code ${await exited}`);
a!.proc.kill('SIGTERM');
process.exit(0);
