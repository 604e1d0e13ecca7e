// Runs inside Chromium (driven by bench/drivers/memory-bench.mjs); issue #4's "must reach" figures:
// 1. update-prompt tokens as one tool's memory grows from 10 to 5,000 entries (same core calls as
//    tests/unit/memory/prompt-size.test.ts: EntryIndex + induceExperience + ScriptedEngine);
// 2. 1,000 scripted update operations applied to IndexedDB the way a build applies them: per
//    experience, reply → parseOperations (validation) → planOperations → afterStep (the Run cursor)
//    → DexieMemoryRepository.applyUpdate (entries + Run in ONE transaction); raw Dexie baselines on
//    the same database schema in the same run;
// 3. 100 malformed model replies through runBuild against the real Dexie repository: every entry is
//    hashed (SHA-256) before and after → corrupted / lost / added counts.
import { ScriptedEngine } from '../src/core/llm';
import {
  afterStep,
  buildMetrics,
  createBuildRun,
  DEFAULT_INDUCE_SETTINGS,
  emptyUsage,
  EntryIndex,
  induceExperience,
  newEntry,
  nextStep,
  parseOperations,
  planOperations,
  runBuild,
  type BuildStep,
} from '../src/core/memory';
import { mulberry32 as seededRandom } from '../src/core/eval/rng';
import { LEVELS, type Level } from '../src/core/types';
import type { MemoryEntry, Run } from '../src/core/records';
import { ToolMemDB } from '../src/db';
import { DexieMemoryRepository } from '../src/db/memory-repo';
import { buildConfigFor, entry, experience, hashEmbedder, SCALE } from '../tests/unit/memory/helpers';
import { malformedBuild, SEED } from '../tests/unit/memory/malformed-replies';

const WORDS =
  'fox cat dog tree river city night light shadow count three text sign face hand crowd glass water snow fire red blue small large left right above below behind style photo painting sketch'.split(
    ' ',
  );
const words = (r: () => number, n: number) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');

async function freshDb(name: string): Promise<ToolMemDB> {
  const old = new ToolMemDB(name);
  await old.delete();
  const db = new ToolMemDB(name);
  await db.open();
  return db;
}

// ---- 1. prompt size -----------------------------------------------------------------------------

export interface PromptSizeRow {
  entries: number;
  tokens: number;
  shown: number;
}

async function promptSize(): Promise<PromptSizeRow[]> {
  const rows: PromptSizeRow[] = [];
  for (const n of [10, 24, 100, 1000, 5000]) {
    const r = seededRandom(n);
    const memory = Array.from({ length: n }, (_, i) => entry(`e${i}`, LEVELS[i % 4]!, words(r, 8 + Math.floor(r() * 20))));
    const index = new EntryIndex(hashEmbedder());
    await index.add(memory);
    const engine = new ScriptedEngine(['{"operations": []}']);
    const long = experience(1, {
      prompt: 'a red fox and three dogs under a blue night sky by the river '.repeat(20),
      feedback: 'The count was wrong. '.repeat(50),
      rubric: 'Judge the alignment. '.repeat(60),
    });
    const out = await induceExperience(
      engine,
      index,
      {
        memoryId: 'm1',
        tool: { id: 'ToolA' },
        scale: SCALE,
        experience: long,
        at: 1,
        newId: () => 'x',
        settings: { ...DEFAULT_INDUCE_SETTINGS, critiqueBelow: null },
      },
      emptyUsage(),
    );
    rows.push({ entries: n, tokens: engine.calls[0]!.promptTokens, shown: out.contextSize });
  }
  return rows;
}

// ---- 2. applying 1,000 operations -----------------------------------------------------------------

const TOOLS = ['ToolA', 'ToolB', 'ToolC', 'ToolD'];
const SEED_PER_TOOL = 500;
const CONTEXT = 4 * DEFAULT_INDUCE_SETTINGS.k; // entries shown per update (k per level)

export interface ApplyResult {
  label: string;
  operations: number;
  experiences: number;
  rowsWritten: number;
  byKind: Record<'add' | 'update' | 'merge' | 'retire', number>;
  /** validate + plan + cursor + applyUpdate, summed over experiences (what a build spends on it). */
  pipelineMs: number;
  /** applyUpdate alone (the IndexedDB transactions). */
  applyMs: number;
  /** Wall time of the loop, including the bench's own reply scripting and bookkeeping. */
  wallMs: number;
  validEntries: { expected: number; stored: number };
  cursorOk: boolean;
}

function seedEntries(memoryId: string): MemoryEntry[] {
  const r = seededRandom(11);
  return TOOLS.flatMap((tool) =>
    Array.from({ length: SEED_PER_TOOL }, (_, i) =>
      newEntry({
        id: `seed:${tool}:${i}`,
        memoryId,
        toolId: tool,
        level: LEVELS[i % 4]!,
        text: words(r, 8 + Math.floor(r() * 20)),
        evidence: [`ev:${tool}:${i}`],
        origin: 'llm',
        at: 1,
      }),
    ),
  );
}

/** Operations per experience, summing to `total` (1…maxPer each, seeded). */
function schedule(total: number, maxPer: number, seed: number): number[] {
  const r = seededRandom(seed);
  const out: number[] = [];
  let left = total;
  while (left > 0) {
    const n = Math.min(left, 1 + Math.floor(r() * maxPer));
    out.push(n);
    left -= n;
  }
  return out;
}

/** A scripted model reply with `n` operations on the shown entries (aliases E1…). */
function scriptedReply(n: number, shown: number, r: () => number, kinds: ApplyResult['byKind']): string {
  const free = Array.from({ length: shown }, (_, i) => `E${i + 1}`);
  const take = () => free.splice(Math.floor(r() * free.length), 1)[0]!;
  const level = (): Level => LEVELS[Math.floor(r() * 4)]!;
  const ops: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.4 || free.length < 3) {
      ops.push({ op: 'add', level: level(), text: `New insight ${words(r, 6 + Math.floor(r() * 10))}` });
      kinds.add++;
    } else if (x < 0.7) {
      ops.push({ op: 'update', id: take(), level: level(), text: `Refined: ${words(r, 8 + Math.floor(r() * 12))}` });
      kinds.update++;
    } else if (x < 0.85) {
      ops.push({ op: 'merge', ids: [take(), take()], level: level(), text: `Merged: ${words(r, 10 + Math.floor(r() * 10))}` });
      kinds.merge++;
    } else {
      ops.push({ op: 'retire', id: take(), reason: 'contradicted by the new experience' });
      kinds.retire++;
    }
  }
  return JSON.stringify({ operations: ops });
}

async function applyOperations(label: string, total: number, maxPer: number): Promise<ApplyResult> {
  const db = await freshDb(`bench-memory-apply-${maxPer}`);
  const repo = new DexieMemoryRepository(db);
  const memoryId = 'bench';
  const seed = seedEntries(memoryId);
  await repo.put({ id: memoryId, name: 'bench', datasetIds: ['ds'], embeddingModel: 'hash-64', settings: {}, createdAt: 1, updatedAt: 1 });
  await repo.applyUpdate([], seed, 1);
  // The model's view of each tool's valid entries (what retrieval would pick from).
  const valid = new Map(TOOLS.map((t) => [t, seed.filter((e) => e.toolId === t)]));
  const plan = schedule(total, maxPer, 5);
  const perTool = Math.ceil(plan.length / TOOLS.length);
  const data = new Map(TOOLS.map((t, ti) => [t, plan.slice(ti * perTool, (ti + 1) * perTool).map((_, i) => ({ id: `ds|${t}|${i}` }))]));
  let run: Run = createBuildRun('bench-run', buildConfigFor(TOOLS, { memoryId }), data, 1);
  const r = seededRandom(3);
  const byKind = { add: 0, update: 0, merge: 0, retire: 0 };
  let applyMs = 0;
  let pipelineMs = 0;
  let rowsWritten = 0;
  let at = 10;
  let x = 0;
  const t0 = performance.now();
  for (let step: BuildStep | null = nextStep(run); step && step.kind === 'experience'; step = nextStep(run), x++) {
    const toolId = step.toolId;
    const pool = valid.get(toolId)!;
    // Context: up to 4k shown entries (retrieval itself is benchmarked in bench:embed).
    const shown = new Map<string, MemoryEntry>();
    const start = Math.floor(r() * Math.max(1, pool.length - CONTEXT));
    pool.slice(start, start + CONTEXT).forEach((e, i) => shown.set(`E${i + 1}`, e));
    const reply = scriptedReply(plan[x]!, shown.size, r, byKind);
    const p0 = performance.now();
    const parsed = parseOperations(reply, { aliases: new Set(shown.keys()), pinned: new Set() });
    if (!parsed.ok) throw new Error(`scripted reply rejected: ${parsed.error}`);
    let n = 0;
    const experienceId = data.get(toolId)![step.index]!.id;
    const p = planOperations(parsed.operations, {
      memoryId,
      toolId,
      at,
      experienceId,
      entries: shown,
      newId: () => `bench-run:${toolId}:x${step!.index}.${n++}`,
    });
    const next = afterStep(
      run,
      step,
      { experienceId, added: p.added.length, operations: parsed.operations, llm: { calls: 1, promptTokens: 0, completionTokens: 0 } },
      at,
      0,
    );
    const a0 = performance.now();
    await repo.applyUpdate(p.superseded, p.added, at, { run: next });
    const a1 = performance.now();
    applyMs += a1 - a0;
    pipelineMs += a1 - p0;
    rowsWritten += p.superseded.length + p.added.length + 1; // + the Run row
    run = next;
    const gone = new Set(p.superseded.map((s) => s.id));
    valid.set(toolId, [...pool.filter((e) => !gone.has(e.id)), ...p.added]);
    at++;
  }
  const wallMs = performance.now() - t0;
  let expected = 0;
  let stored = 0;
  for (const t of TOOLS) {
    expected += valid.get(t)!.length;
    stored += (await repo.validEntries(memoryId, t)).length;
  }
  const saved = await repo.getRun('bench-run');
  const cursorOk = JSON.stringify(saved?.cursor) === JSON.stringify(run.cursor);
  db.close();
  return { label, operations: total, experiences: plan.length, rowsWritten, byKind, pipelineMs, applyMs, wallMs, validEntries: { expected, stored }, cursorOk };
}

export interface BaselineResult {
  label: string;
  rows: number;
  transactions: number;
  ms: number;
}

function filler(n: number, prefix: string): MemoryEntry[] {
  const r = seededRandom(17);
  return Array.from({ length: n }, (_, i) =>
    newEntry({
      id: `${prefix}:${i}`,
      memoryId: 'bench',
      toolId: TOOLS[i % 4]!,
      level: LEVELS[i % 4]!,
      text: words(r, 8 + Math.floor(r() * 20)),
      evidence: [`ev:${i}`],
      origin: 'llm',
      at: 2,
    }),
  );
}

/** `singles`: how many single-row put transactions the last baseline times (one per operation of the pipeline). */
async function baselines(rows: number, experiences: number, singles: number): Promise<BaselineResult[]> {
  const out: BaselineResult[] = [];
  const seeded = async (name: string) => {
    const db = await freshDb(name);
    await db.entries.bulkAdd(seedEntries('bench'));
    return db;
  };
  {
    const db = await seeded('bench-memory-base-bulk');
    const list = filler(rows, 'bulk');
    const t0 = performance.now();
    await db.transaction('rw', db.entries, () => db.entries.bulkPut(list));
    out.push({ label: `raw Dexie: ${rows} rows, one bulkPut in one transaction`, rows, transactions: 1, ms: performance.now() - t0 });
    db.close();
  }
  {
    const db = await seeded('bench-memory-base-perexp');
    const list = filler(rows, 'perexp');
    const per = Math.ceil(rows / experiences);
    const t0 = performance.now();
    for (let i = 0; i < rows; i += per) {
      const chunk = list.slice(i, i + per);
      await db.transaction('rw', db.entries, () => db.entries.bulkPut(chunk));
    }
    out.push({
      label: `raw Dexie: the same rows, one bulkPut transaction per experience (${experiences})`,
      rows,
      transactions: Math.ceil(rows / per),
      ms: performance.now() - t0,
    });
    db.close();
  }
  {
    const db = await seeded('bench-memory-base-single');
    const list = filler(singles, 'single');
    const t0 = performance.now();
    for (const e of list) await db.entries.put(e);
    out.push({
      label: `raw Dexie: ${singles.toLocaleString('en')} single-row put transactions`,
      rows: singles,
      transactions: singles,
      ms: performance.now() - t0,
    });
    db.close();
  }
  return out;
}

// ---- 3. malformed replies --------------------------------------------------------------------------

export interface MalformedResult {
  replies: number;
  modelCalls: number;
  state: string;
  applied: number;
  skipped: number;
  entriesBefore: number;
  entriesAfter: number;
  corrupted: number;
  lost: number;
  added: number;
  hashBefore: string;
  hashAfter: string;
  ms: number;
}

async function sha256(text: string): Promise<string> {
  const buf = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** JSON with keys sorted at every level, so equal entries hash equally whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

async function hashAll(db: ToolMemDB): Promise<{ all: string; byId: Map<string, string> }> {
  const rows = await db.entries.toArray();
  rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byId = new Map<string, string>();
  for (const e of rows) byId.set(e.id, await sha256(canonical(e)));
  return { all: await sha256([...byId].map(([id, h]) => `${id}:${h}`).join('\n')), byId };
}

async function malformed(): Promise<MalformedResult> {
  const db = await freshDb('bench-memory-malformed');
  const repo = new DexieMemoryRepository(db);
  // The entries the replies aim at (ToolA), plus a larger memory of another tool and some history.
  const r0 = seededRandom(23);
  const others = Array.from({ length: 1000 }, (_, i) => entry(`other${i}`, LEVELS[i % 4]!, words(r0, 10), { toolId: 'ToolB' }));
  await repo.applyUpdate([], [...SEED, ...others], 1);
  await repo.applyUpdate([{ id: 'other0', supersededBy: 'other0b' }], [entry('other0b', 'proficient', 'rewritten', { toolId: 'ToolB' })], 2);
  const before = await hashAll(db);

  // One malformed reply per experience (and again on its retry).
  const { engine, data, exps } = malformedBuild(seededRandom(7));
  const t0 = performance.now();
  const run = await runBuild(createBuildRun('fuzz', buildConfigFor(['ToolA']), data, 0), {
    repo,
    engine,
    embedder: hashEmbedder(),
    experiences: data,
    now: () => 10,
  });
  const ms = performance.now() - t0;
  const after = await hashAll(db);
  let corrupted = 0;
  let lost = 0;
  for (const [id, h] of before.byId) {
    const now = after.byId.get(id);
    if (now === undefined) lost++;
    else if (now !== h) corrupted++;
  }
  const added = [...after.byId.keys()].filter((id) => !before.byId.has(id)).length;
  const m = buildMetrics(run);
  db.close();
  return {
    replies: exps.length,
    modelCalls: engine.calls.length,
    state: run.state,
    applied: m.applied,
    skipped: m.skipped.length,
    entriesBefore: before.byId.size,
    entriesAfter: after.byId.size,
    corrupted,
    lost,
    added,
    hashBefore: before.all,
    hashAfter: after.all,
    ms,
  };
}

export interface MemoryBenchResult {
  promptSize: PromptSizeRow[];
  apply: ApplyResult[];
  baselines: BaselineResult[];
  malformed: MalformedResult;
}

(window as unknown as { runBench: (ops?: number) => Promise<MemoryBenchResult> }).runBench = async (ops = 1000) => {
  const prompt = await promptSize();
  const buildLike = await applyOperations('build-like: 1–4 operations per experience', ops, 4);
  const worst = await applyOperations('worst case: 1 operation per experience', ops, 1);
  const base = await baselines(buildLike.rowsWritten, buildLike.experiences, ops);
  const bad = await malformed();
  return { promptSize: prompt, apply: [buildLike, worst], baselines: base, malformed: bad };
};
