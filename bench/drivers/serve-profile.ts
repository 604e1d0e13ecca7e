/**
 * `npx tsx bench/drivers/serve-profile.ts`: where a `/v1/select` goes (issue #36). Starts `toolmem serve --workers 1`
 * on the bench's fixture memory under `node --cpu-prof`, sends every demo prompt once (their
 * embeddings and predictions then cached, as in bench:serve's repeated-text figure), then runs the
 * same closed loop as bench:serve (raw keep-alive sockets, 50 connections by default) and prints the
 * server's CPU per select (from /proc, as bench:serve reads it), then stops the server and prints the
 * functions with the most self time in the profile (the .cpuprofile stays in .bench/serve-profile/
 * for Chrome's DevTools). Options: --seconds S (default 5), --connections N (default 50), --top N
 * (default 30), --no-profile (CPU per select only: no profiler overhead), --rounds N (measurements, default 1),
 * --new-bodies (the same texts in bodies never sent before, so no kept answer is reused: bench:serve's second CPU figure),
 * --new-texts (texts never seen before, each sent once: bench:serve's third CPU figure),
 * --server-repo DIR (the server of another checkout, e.g. `git archive <commit> bin src | tar -x -C DIR` with this
 * checkout's node_modules and public linked in: a before/after of the same measurement).
 * Asserts nothing.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, copyFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadLine } from './bench-env';
import { closedLoop, percentile, rawRequest } from './serve-load';
import { child, cpuMs, REPO } from './serve-procs';

const { values: argv } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    top: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '1' },
    'no-profile': { type: 'boolean', default: false },
    'new-bodies': { type: 'boolean', default: false },
    'new-texts': { type: 'boolean', default: false },
    'server-repo': { type: 'string' },
  },
});
const TOKEN = 'bench-token-0123456789abcdef';
const DIR = resolve(REPO, '.bench/serve-profile');
const TOOLS = ['DALLE_3', 'DeepFloyd_I_XL_v1', 'Midjourney_6', 'SDXL_2_1', 'SDXL_Base', 'SDXL_Turbo'];
const demo = JSON.parse(readFileSync(resolve(REPO, 'public/demo/genai_image.json'), 'utf8')) as Record<string, { prompt: string }>;
const TASKS = Object.values(demo).map((d) => d.prompt);
const PROFILE = !argv['no-profile'];

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  endTime: number;
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (name, file, line), largest first, as a share of all samples. */
function selfTimes(p: Profile, from: number, to: number): { share: number; where: string }[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  // Sample times from the end backwards (µs): only those within [from, to] count.
  const at: number[] = new Array(p.samples.length);
  for (let i = p.samples.length - 1, t = p.endTime; i >= 0; t -= p.timeDeltas[i] ?? 0, i--) at[i] = t;
  p.samples.forEach((id, i) => {
    if (at[i]! < from || at[i]! > to) return;
    const n = byId.get(id)!;
    const dt = p.timeDeltas[i] ?? 0;
    const f = n.callFrame;
    const file = f.url.replace(/^.*\/(src|node_modules)\//, '$1/');
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
  return [...self].sort((a, b) => b[1] - a[1]).map(([where, t]) => ({ share: t / total, where }));
}

async function main() {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const memory = resolve(DIR, 'memory.json');
  copyFileSync(resolve(REPO, 'tests/fixtures/serve/genai-200.json'), memory);
  const prof = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', DIR] : [];
  const bin = argv['server-repo'] ? resolve(argv['server-repo'], 'bin/toolmem.mjs') : 'bin/toolmem.mjs';
  const args = [...prof, bin, 'serve', '--memory', memory, '--port', '0', '--token', TOKEN, '--workers', '1'];
  const srv = await child(args, /serving .* on (http:\/\/127\.0\.0\.1:(\d+))/);
  const port = Number(srv.match[2]);
  const auth = { authorization: `Bearer ${TOKEN}` };
  const requests = TASKS.map((task) => rawRequest({ path: '/v1/select', port, body: JSON.stringify({ task, candidates: TOOLS }), headers: auth }));
  console.log(
    `profile: ${loadLine()} before; ${TASKS.length} prompts, ${argv.connections} connections, ${argv.seconds} s${PROFILE ? ', --cpu-prof' : ''}${argv['server-repo'] ? `, server of ${argv['server-repo']}` : ''}`,
  );
  await closedLoop({ port, requests, connections: 4, ms: 600_000, total: TASKS.length });
  // Trailing spaces (valid JSON) make each body new while its text repeats.
  const padded = Array.from({ length: 40 }, (_, k) => TASKS.map((task) => JSON.stringify({ task, candidates: TOOLS }) + ' '.repeat(k + 1))).flat();
  // New texts: each demo prompt with a variant suffix, never sent before (40 variants each, so a loop never wraps in 5 s).
  const fresh = Array.from({ length: 40 }, (_, k) => TASKS.map((task) => JSON.stringify({ task: `${task} (variant ${k})`, candidates: TOOLS }))).flat();
  const bodiesOf = (list: string[]) => list.map((body) => rawRequest({ path: '/v1/select', port, body, headers: auth }));
  const loop = argv['new-texts'] ? bodiesOf(fresh) : argv['new-bodies'] ? bodiesOf(padded) : requests;
  const loopStart = performance.now();
  for (let round = 0; round < Number(argv.rounds); round++) {
    const c0 = cpuMs(srv.proc.pid);
    const r = await closedLoop({ port, requests: loop, connections: Number(argv.connections), ms: Number(argv.seconds) * 1000 });
    const per = (cpuMs(srv.proc.pid) - c0) / Math.max(1, r.count);
    console.log(
      `profile: ${r.rate.toFixed(0)} selects/s, p50 ${percentile(r.ms, 50).toFixed(2)} ms, p99 ${percentile(r.ms, 99).toFixed(2)} ms, ` +
        `server CPU ${per.toFixed(3)} ms per select${r.non2xx + r.errors ? ` (${r.non2xx} non-2xx, ${r.errors} errors)` : ''}`,
    );
  }
  const loopEnd = performance.now();
  const exited = new Promise((ok) => srv.proc.once('exit', ok));
  srv.proc.kill('SIGTERM');
  await exited;
  const exitedAt = performance.now();
  if (!PROFILE) return;
  // The main thread's profile: thread 0 in Node's file name (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile).
  const f = readdirSync(DIR).find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  if (!f) throw new Error('no .cpuprofile of the main thread written');
  const main = { f, p: JSON.parse(readFileSync(resolve(DIR, f), 'utf8')) as Profile };
  console.log(`profile: ${resolve(DIR, main.f)}; self time during the measured loops, largest first:`);
  // The profile ends at the server's exit: the loops were the span [exit − (exit − loopStart), exit − (exit − loopEnd)].
  const [from, to] = [main.p.endTime - (exitedAt - loopStart) * 1000, main.p.endTime - (exitedAt - loopEnd) * 1000];
  for (const { share, where } of selfTimes(main.p, from, to).slice(0, Number(argv.top))) console.log(`${(share * 100).toFixed(1).padStart(5)} %  ${where}`);
}

await main();
