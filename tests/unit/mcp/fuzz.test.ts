/**
 * `toolmem mcp` under hostile input (issue #14 class 6): the real server (bin/toolmem.mjs) over
 * stdio, fed garbage lines, binary, wrong types, nested junk, oversized strings, batches and
 * 1,000 concurrent tools/call requests, written raw (the SDK client would refuse to send them).
 * Every request with an id must get exactly one reply with the JSON-RPC code it deserves, every
 * reply except a legitimate result stays under 2 KB, notifications get nothing, and the server
 * still answers afterwards and exits 0 when the client closes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'toolmem-fuzz-'));
const MEMORY = join(dir, 'memory.json');
const KB2 = 2048;

interface Reply {
  jsonrpc?: string;
  id?: string | number | null;
  result?: { content?: { text: string }[]; isError?: boolean };
  error?: { code: number; message: string };
}

let server: ChildProcessWithoutNullStreams;
/** Every stdout line, as received (raw length and parsed). */
const lines: { bytes: number; value: Reply | Reply[] }[] = [];
let stderr = '';
const waiters: (() => void)[] = [];

const send = (line: string | Buffer) => server.stdin.write(Buffer.isBuffer(line) ? Buffer.concat([line, Buffer.from('\n')]) : `${line}\n`);
const rpc = (id: string | number, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const call = (id: string, name: string, args: unknown) => rpc(id, 'tools/call', { name, arguments: args });

function replies(): Reply[] {
  return lines.flatMap((l) => (Array.isArray(l.value) ? l.value : [l.value]));
}
const byId = (id: string | number) => replies().filter((r) => r.id === id);

async function until(done: () => boolean, ms = 20_000, missing: () => string = () => ''): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > ms) throw new Error(`timed out; ${lines.length} lines so far; missing: ${missing()}; stderr: ${stderr.slice(-500)}`);
    await new Promise<void>((r) => {
      waiters.push(r);
      setTimeout(r, 50);
    });
  }
}

beforeAll(async () => {
  const file = JSON.parse(readFileSync(resolve(REPO, 'tests/fixtures/bad-inputs/memory-valid.json'), 'utf8')) as { memory: { embeddingModel: string } };
  file.memory.embeddingModel = 'glove-100d@2790b023';
  writeFileSync(MEMORY, JSON.stringify(file));
  server = spawn(process.execPath, [join(REPO, 'bin/toolmem.mjs'), 'mcp', '--memory', MEMORY], { cwd: REPO, stdio: 'pipe' });
  let pending = '';
  server.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      lines.push({ bytes: Buffer.byteLength(line), value: JSON.parse(line) as Reply });
    }
    for (const w of waiters.splice(0)) w();
  });
  server.stderr.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
  send(rpc('init', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } }));
  await until(() => byId('init').length === 1, 25_000);
  send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
}, 30_000);

afterAll(() => {
  if (server.exitCode === null) server.kill();
});

/** Lines answered with id null, and the code each must get. */
const NULL_ID: [string | Buffer, number][] = [
  ['hello', -32700],
  ['{', -32700],
  ['{"jsonrpc":"2.0","id":1,"method":', -32700],
  ["{'single': 'quotes'}", -32700],
  [Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x1a, 0x00]), -32700],
  [Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef]), -32700],
  ['\u0000\u0000\u0000', -32700],
  ['null', -32600],
  ['42', -32600],
  ['"a string"', -32600],
  ['true', -32600],
  ['[]', -32600],
  ['{}', -32600],
  [JSON.stringify({ jsonrpc: '2.0', id: { nested: true }, method: 'ping' }), -32600],
  [JSON.stringify({ jsonrpc: '2.0', id: [1], method: 'ping' }), -32600],
  [JSON.stringify({ jsonrpc: '2.0', id: true, method: 'tools/call' }), -32600],
  [`${'['.repeat(10_000)}${']'.repeat(10_000)}`, -32600], // a batch whose one member is junk
];

/** Requests with an id, and the code each must get (0 = a result; 'tool' = a result with isError). */
function idCases(): [string | number, string, number | 'tool'][] {
  const tenMb = 'x'.repeat(10_000_000);
  return [
    ['v1', JSON.stringify({ jsonrpc: '1.0', id: 'v1', method: 'ping' }), -32600],
    ['v2', JSON.stringify({ id: 'v2', method: 'ping' }), -32600],
    ['v3', JSON.stringify({ jsonrpc: '2.0', id: 'v3' }), -32600],
    ['v4', JSON.stringify({ jsonrpc: '2.0', id: 'v4', method: 5 }), -32600],
    ['v5', JSON.stringify({ jsonrpc: '2.0', id: 'v5', method: '' }), -32600],
    ['p1', rpc('p1', 'tools/call', 'predict_score'), -32602],
    ['p2', rpc('p2', 'tools/call', ['predict_score', { tool: 'ToolA' }]), -32602],
    ['p3', rpc('p3', 'tools/call', 17), -32602],
    ['p4', rpc('p4', 'tools/call', { name: 5 }), -32602],
    ['p5', rpc('p5', 'tools/call', { arguments: {} }), -32602],
    ['p6', rpc('p6', 'tools/call', { name: 'predict_score', arguments: 'tool=ToolA' }), -32602],
    ['p7', call('p7', 'predict_score', { tool: 5, task: 'a fox' }), -32602],
    ['p8', call('p8', 'predict_score', { tool: 'ToolA' }), -32602],
    ['p9', call('p9', 'predict_score', { tool: 'ToolA', task: '' }), -32602],
    ['p10', call('p10', 'recall', { tool: 'ToolA', task: 'a fox', k: 1000 }), -32602],
    ['p11', call('p11', 'recall', { tool: 'ToolA', task: 'a fox', k: 'five' }), -32602],
    ['p12', call('p12', 'select_tool', { task: 'a fox', candidates: 'ToolA' }), -32602],
    ['p13', call('p13', 'select_tool', { task: 'a fox', candidates: [] }), -32602],
    ['p14', call('p14', 'select_tool', { task: 'a fox', candidates: [{ id: 'ToolA' }] }), -32602],
    ['p15', call('p15', 'no_such_tool', {}), -32602],
    ['p16', rpc('p16', 'initialize', { protocolVersion: 5 }), -32602],
    [17, rpc(17, 'tools/list', 'all'), -32602], // a numeric id
    // 5,000 nested arrays, written by hand (JSON.stringify would recurse that deep).
    ['n1', call('n1', 'recall', { tool: 'ToolA', task: { deep: 'DEEP' } }).replace('"DEEP"', `${'['.repeat(5000)}${']'.repeat(5000)}`), -32602],
    ['n2', call('n2', 'predict_score', { tool: ['ToolA'], task: [[['a fox']]] }), -32602],
    ['m1', rpc('m1', 'resources/list'), -32601],
    ['m2', rpc('m2', 'x'.repeat(1_000_000)), -32601],
    ['big1', call('big1', 'predict_score', { tool: 'ToolA', task: tenMb }), -32602],
    ['big2', call('big2', 'recall', { tool: tenMb.slice(0, 5_000_000), task: 'a fox' }), -32602],
    ['big3', call('big3', 'select_tool', { task: 'a fox', candidates: Array.from({ length: 200_000 }, (_, i) => `T${i}`) }), -32602],
    ['t1', call('t1', 'predict_score', { tool: 'Nope'.repeat(200), task: 'a fox' }), 'tool'],
    ['t2', call('t2', 'select_tool', { task: 'a fox', candidates: ['ToolA', 'x'.repeat(900)] }), 'tool'],
    ['ok1', call('ok1', 'predict_score', { tool: 'ToolA', task: 'a red fox in the snow' }), 0],
    ['ok2', rpc('ok2', 'ping'), 0],
  ];
}

describe('toolmem mcp fuzz', { timeout: 60_000 }, () => {
  it('answers every malformed message as JSON-RPC 2.0 requires, stays under 2 KB, and keeps serving', async () => {
    const t0 = Date.now();
    const linesBefore = lines.length;
    for (const [line] of NULL_ID) send(line);
    // Notifications are never answered, even when malformed.
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/whatever' }));
    send(JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: 'not an object' }));
    // A batch: each member with an id answered -32600 in one array, garbage members with id null.
    send(JSON.stringify([{ jsonrpc: '2.0', id: 'b1', method: 'ping' }, 1, { jsonrpc: '2.0', method: 'notifications/initialized' }]));
    // A line over the 16 MB limit: skipped unread, answered -32700.
    send(
      `{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"recall","arguments":{"tool":"ToolA","task":"${'y'.repeat(17 * 1024 * 1024)}"}}}`,
    );
    const cases = idCases();
    for (const [, line] of cases) send(line);
    // 1,000 concurrent calls, written at once.
    const N = 1000;
    send(
      Array.from({ length: N }, (_, i) =>
        call(`c${i}`, i % 2 ? 'predict_score' : 'recall', {
          tool: i % 3 ? 'ToolA' : 'ToolB',
          task: `task number ${i}: a fox by a fence`,
          ...(i % 2 ? {} : { k: 2 }),
        }),
      ).join('\n'),
    );

    const expectedNull = NULL_ID.length + 1 /* batch member 1 */ + 1; /* huge line */
    await until(
      () =>
        cases.every(([id]) => byId(id).length > 0) &&
        byId('b1').length > 0 &&
        Array.from({ length: N }, (_, i) => `c${i}`).every((id) => byId(id).length > 0) &&
        replies().filter((r) => r.id === null).length >= expectedNull,
      40_000,
      () =>
        [...cases.map(([id]) => id), 'b1', ...Array.from({ length: N }, (_, i) => `c${i}`)]
          .filter((id) => byId(id).length === 0)
          .slice(0, 20)
          .join(', ') + ` nulls ${replies().filter((r) => r.id === null).length}/${expectedNull}`,
    );
    const seconds = (Date.now() - t0) / 1000;

    for (const [id, , code] of cases) {
      const got = byId(id);
      expect(got, `${id}: exactly one reply`).toHaveLength(1);
      const r = got[0]!;
      expect(r.jsonrpc).toBe('2.0');
      if (code === 0) expect(r.error, `${id}: ${JSON.stringify(r.error)}`).toBeUndefined();
      else if (code === 'tool') expect(r.result?.isError, String(id)).toBe(true);
      else expect(r.error?.code, `${id}: ${JSON.stringify(r).slice(0, 300)}`).toBe(code);
    }
    expect(byId('big1')[0]!.error!.message).toBe("Invalid arguments for predict_score: 'task' is 10,000,000 characters long; at most 100,000 are accepted.");
    expect(byId('p1')[0]!.error!.message).toBe("Invalid params for 'tools/call': 'params' must be an object (named parameters), got a string.");
    expect(byId('b1')).toEqual([{ jsonrpc: '2.0', id: 'b1', error: { code: -32600, message: expect.stringMatching(/batches are not supported/) } }]);

    const nulls = replies().filter((r) => r.id === null);
    expect(nulls).toHaveLength(expectedNull);
    const codes = (c: number) => nulls.filter((r) => r.error?.code === c).length;
    expect(codes(-32700)).toBe(NULL_ID.filter(([, c]) => c === -32700).length + 1);
    expect(codes(-32600)).toBe(NULL_ID.filter(([, c]) => c === -32600).length + 1);

    for (let i = 0; i < N; i++) {
      const got = byId(`c${i}`);
      expect(got, `c${i}`).toHaveLength(1);
      expect(got[0]!.error, `c${i}`).toBeUndefined();
      const body = JSON.parse(got[0]!.result!.content![0]!.text) as { score?: number; levels?: object };
      expect(i % 2 ? typeof body.score : typeof body.levels).toBe(i % 2 ? 'number' : 'object');
    }
    // Only legitimate results may exceed 2 KB; nothing else does.
    const legit = new Set(['ok1', ...Array.from({ length: N }, (_, i) => `c${i}`)]);
    const overs = lines
      .slice(linesBefore)
      .filter((l) => l.bytes > KB2 && !(l.value && !Array.isArray(l.value) && legit.has(String(l.value.id)) && !l.value.error));
    expect(overs.map((l) => JSON.stringify(l.value).slice(0, 200))).toEqual([]);

    // Still serving: a valid call after all of it, and the process alive.
    send(call('after', 'predict_score', { tool: 'ToolB', task: 'count the apples' }));
    await until(() => byId('after').length === 1);
    expect(byId('after')[0]!.result!.isError).toBeUndefined();
    expect(server.exitCode).toBeNull();
    console.info(
      `mcp fuzz: ${cases.length + NULL_ID.length + 4 + N} lines sent, ${lines.length - linesBefore} reply lines (${replies().length} replies), ${seconds.toFixed(1)} s`,
    );

    // Closing stdin ends the server with exit code 0.
    const exited = new Promise<number | null>((r) => server.once('exit', (code) => r(code)));
    server.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/TypeError|RangeError|Unhandled|at .*\.ts:\d+/);
  });
});
