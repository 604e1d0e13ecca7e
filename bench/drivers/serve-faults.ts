/**
 * The fault scenario of bench:serve (issue #30), run last: CLIENTS clients, each sending a request
 * then thinking THINK_MS (uniform ±50 %), mix: /v1/select, /v1/predict, MCP tools/call, the router
 * (toolmem:auto, fallback on; toolmem:strict, no fallback) and direct calls to a fake upstream.
 * During the load the memory file is replaced 5 times — four valid versions written in place in two
 * halves (a torn file the watcher may see first), one invalid — and upstream B (DALLE_3's) is
 * killed. Then every bad request is tried once, and the server is stopped with SIGTERM while router
 * requests are in flight. Prints its figures; asserts nothing.
 */
import { createHash } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { cpuMs, sleep, type Child } from './serve-procs';
import { send, summary, type Sample } from './serve-load';

export interface FaultContext {
  url: string;
  token: string;
  upA: string;
  upB: string;
  b: Child;
  srv: Child;
  memoryPath: string;
  /** The memory file's text served at the start. */
  base: string;
  tasks: string[];
  tools: string[];
  clients: number;
  seconds: number;
  thinkMs: number;
}

const MAX_REQUESTS = 200_000;
const sha = (t: string) => createHash('sha256').update(t).digest('hex').slice(0, 16);

/** The mixed load with its reloads and the upstream kill; returns the samples and the timeline. */
async function mixedLoad(ctx: FaultContext) {
  const auth = { authorization: `Bearer ${ctx.token}` };
  const durationMs = ctx.seconds * 1000;
  const samples: Sample[] = [];
  const shaGen = new Map<string, number>([[sha(ctx.base), 0]]);
  const applied: { gen: number; at: number }[] = [{ gen: 0, at: 0 }];
  let killedAt = Infinity;
  let stop = false;
  const mix = (i: number) => {
    const task = ctx.tasks[i % ctx.tasks.length]!;
    const r = Math.random();
    const chat = (model: string, stream: boolean) => JSON.stringify({ model, stream, messages: [{ role: 'user', content: task }] });
    if (r < 0.35)
      return send('select', { url: `${ctx.url}/v1/select`, headers: auth, body: JSON.stringify({ task, candidates: ctx.tools.slice(0, 3 + (i % 4)) }) });
    if (r < 0.55) return send('predict', { url: `${ctx.url}/v1/predict`, headers: auth, body: JSON.stringify({ tool: ctx.tools[i % 6], task }) });
    if (r < 0.7)
      return send('mcp', {
        url: `${ctx.url}/mcp`,
        headers: { ...auth, accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'select_tool', arguments: { task, candidates: ctx.tools } } }),
      });
    if (r < 0.85) return send('router', { url: `${ctx.url}/v1/chat/completions`, headers: auth, body: chat('toolmem:auto', i % 3 === 0) });
    if (r < 0.9) return send('router-strict', { url: `${ctx.url}/v1/chat/completions`, headers: auth, body: chat('toolmem:strict', false) });
    return send('direct', { url: `${performance.now() > killedAt ? ctx.upA : ctx.upB}/chat/completions`, body: chat('dalle', i % 3 === 0) });
  };
  const client = async (c: number) => {
    await sleep(ctx.thinkMs * Math.random());
    for (let i = c; !stop && samples.length < MAX_REQUESTS; i += ctx.clients) {
      samples.push(await mix(i));
      await sleep(ctx.thinkMs * (0.5 + Math.random()));
    }
  };
  const readyGen = async (expect: string) => {
    for (const until = performance.now() + 10_000; performance.now() < until; await sleep(10)) {
      const r = await send('readyz', { method: 'GET', url: `${ctx.url}/readyz`, headers: auth });
      if ((JSON.parse(r.text) as { memory: { sha256: string } }).memory.sha256 === expect) return;
    }
    throw new Error(`the server never served ${expect}`);
  };
  const replace = async (k: number) => {
    if (k === 3) {
      writeFileSync(`${ctx.memoryPath}.tmp`, JSON.stringify({ ...JSON.parse(ctx.base), version: 99 }));
      renameSync(`${ctx.memoryPath}.tmp`, ctx.memoryPath);
      return sleep(300);
    }
    const f = JSON.parse(ctx.base) as { memory: { name: string } };
    f.memory.name = `bench version ${k}`;
    const text = `${JSON.stringify(f, null, 1)}\n`;
    shaGen.set(sha(text), k);
    const h = await open(ctx.memoryPath, 'w');
    await h.write(text.slice(0, text.length >> 1));
    await h.sync();
    await sleep(40);
    await h.write(text.slice(text.length >> 1));
    await h.close();
    await readyGen(sha(text));
    applied.push({ gen: k, at: performance.now() });
  };
  const t0 = performance.now();
  const cpu0 = cpuMs(ctx.srv.proc.pid);
  const timeline = (async () => {
    for (const [k, at] of [
      [1, 0.15],
      [2, 0.3],
      [3, 0.45],
      [4, 0.6],
      [5, 0.75],
    ] as const) {
      await sleep(t0 + durationMs * at - performance.now());
      await replace(k);
      if (k === 3) {
        killedAt = performance.now();
        ctx.b.proc.kill('SIGKILL');
      }
    }
  })();
  const ending = sleep(durationMs).then(() => (stop = true));
  await Promise.all([...Array.from({ length: ctx.clients }, (_, c) => client(c)), timeline, ending]);
  return { samples, shaGen, applied, killedAt, wall: (performance.now() - t0) / 1000, cpu: cpuMs(ctx.srv.proc.pid) - cpu0 };
}

function report(ctx: FaultContext, run: Awaited<ReturnType<typeof mixedLoad>>): void {
  const { samples, shaGen, applied, killedAt, wall } = run;
  // A strict-route request or a direct call to B that ended after B was killed may fail: expected.
  const expectedFault = (s: Sample) =>
    s.start + s.ms >= killedAt && ((s.kind === 'router-strict' && s.status === 502) || (s.kind === 'direct' && s.status === 0));
  const failures = samples.filter((s) => (s.status < 200 || s.status >= 300) && !expectedFault(s));
  const fromMemory = samples.filter((s) => s.kind !== 'direct' && s.status >= 200 && s.status < 300);
  const halfRead = fromMemory.filter((s) => shaGen.get(s.memory) === undefined || s.broken).length;
  const stale = fromMemory.filter((s) => (shaGen.get(s.memory) ?? -1) < applied.filter((x) => x.at <= s.start).at(-1)!.gen).length;
  const refusals = ctx.srv.log.filter((l) => l.includes('reload refused')).length;
  console.log(
    `\nfaults: ${samples.length} requests in ${wall.toFixed(1)} s from ${ctx.clients} clients; reloads applied ${applied.length - 1} of 4 valid; refused torn/invalid reads logged: ${refusals}`,
  );
  console.log(`faults: server CPU ${(run.cpu / samples.length).toFixed(2)} ms per request of the mixed load (reloads, MCP and the router included)`);
  console.log('kind            n   p50 ms  p99 ms  max ms  non-2xx');
  const fmt = (x: number) => x.toFixed(1).padStart(7);
  for (const kind of ['select', 'predict', 'mcp', 'router', 'router-strict', 'direct']) {
    const of = samples.filter((s) => s.kind === kind);
    const st = summary(of);
    console.log(
      `${kind.padEnd(13)} ${String(st.n).padStart(5)} ${fmt(st.p50)} ${fmt(st.p99)} ${fmt(st.max)}  ${of.filter((s) => s.status < 200 || s.status >= 300).length}`,
    );
  }
  const why = failures.length
    ? ` — e.g. ${failures
        .slice(0, 5)
        .map((f) => `${f.kind} ${f.status}${f.error ? ` ${f.error}` : ''}`)
        .join(', ')}`
    : '';
  console.log(
    `faults: unexpected failures ${failures.length}${why}; expected ${samples.filter(expectedFault).length} (strict route and direct calls after B was killed); answers from a half-read or unknown file ${halfRead}; from an older file after a reload was seen ${stale}`,
  );
}

/** Every bad request once, each followed by a /v1/select that must still answer 200. */
async function badRequests(ctx: FaultContext): Promise<void> {
  const auth = { authorization: `Bearer ${ctx.token}` };
  const select = JSON.stringify({ task: ctx.tasks[0], candidates: ctx.tools });
  const bad: [string, Parameters<typeof send>[1]][] = [
    ['no token', { url: `${ctx.url}/v1/select`, body: select }],
    ['wrong token', { url: `${ctx.url}/v1/select`, body: select, headers: { authorization: 'Bearer wrong-token-0000000000' } }],
    ['wrong Origin on /mcp', { url: `${ctx.url}/mcp`, body: '{}', headers: { ...auth, origin: 'http://rebind.example' } }],
    ['10 MB body', { url: `${ctx.url}/v1/select`, body: Buffer.alloc(10 * 1024 * 1024, 0x20), headers: auth }],
    ['malformed JSON', { url: `${ctx.url}/v1/predict`, body: '{"tool": ', headers: auth }],
    [
      '100,000 nested arrays',
      { url: `${ctx.url}/v1/chat/completions`, body: `{"model":"toolmem:auto","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, headers: auth },
    ],
    ['unknown route', { url: `${ctx.url}/v1/nothing`, body: '{}', headers: auth }],
    ['slow client (body stalls)', { url: `${ctx.url}/v1/select`, body: select, headers: auth, stallAfter: 10 }],
  ];
  console.log('\nfaults: bad requests (status, message length, time; then a /v1/select must answer 200):');
  for (const [what, call] of bad) {
    const r = await send(what, call);
    let message = '';
    try {
      message = (JSON.parse(r.text) as { error?: { message?: string } }).error?.message ?? '';
    } catch {
      /* no JSON answer */
    }
    const after = await send('after', { url: `${ctx.url}/v1/select`, headers: auth, body: select });
    const cut = r.error ? ` (then the connection: ${r.error})` : '';
    console.log(`  ${what.padEnd(26)} ${r.status}  ${String(message.length).padStart(3)} chars in ${r.ms.toFixed(0)} ms${cut}; then ${after.status}`);
  }
}

/** SIGTERM with 50 router requests in flight; resolves with the server's exit code. */
async function sigterm(ctx: FaultContext): Promise<void> {
  const auth = { authorization: `Bearer ${ctx.token}` };
  const inFlight = Array.from({ length: 50 }, (_, i) =>
    send('drain', {
      url: `${ctx.url}/v1/chat/completions`,
      headers: auth,
      body: JSON.stringify({ model: 'toolmem:auto', messages: [{ role: 'user', content: ctx.tasks[i] }] }),
    }),
  );
  await sleep(2);
  const exited = new Promise<number | null>((r) => ctx.srv.proc.once('exit', (code) => r(code)));
  ctx.srv.proc.kill('SIGTERM');
  const drained = await Promise.all(inFlight);
  const refused = drained.filter((d) => d.error === 'ECONNREFUSED').length;
  const other = drained.filter((d) => d.status !== 200 && d.error !== 'ECONNREFUSED');
  console.log(
    `faults: SIGTERM with 50 router requests in flight: ${drained.filter((d) => d.status === 200).length} answered 200, ${refused} refused at connect (sent after the listener closed), ${other.length} other${other.length ? ` (${other.map((o) => o.error ?? o.status).join(', ')})` : ''}; exit code ${await exited}`,
  );
}

export async function runFaults(ctx: FaultContext): Promise<void> {
  report(ctx, await mixedLoad(ctx));
  await badRequests(ctx);
  await sigterm(ctx);
}
