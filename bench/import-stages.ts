// Stage breakdown for `npm run bench:import -- --stages` (in a worker, where the app imports) and
// `--profile` (one stage on the bench page's main thread, under the CDP CPU profiler): the same file
// through more and more of the real import path (parse → validate → Experience objects → indexed
// table → counts middleware → the import service's bookkeeping) and through the baseline with more
// and more of what we store, each stage in its own fresh database. Bench only; the app never loads it.
import Papa from 'papaparse';
import Dexie from 'dexie';
import { runImport } from '../src/core/import';
import type { Experience } from '../src/core/types';
import { ToolMemDB, createRepositories } from '../src/db';
import { blobBytes } from '../src/platform/blob';
import { createImportHandlers } from '../src/app/import/handlers';

export interface StageResult {
  stage: string;
  ms: number;
  rows: number;
}

const MAPPING = { id: 'id', prompt: 'prompt', tool: 'model', score: 'score', response: 'response', feedback: 'feedback' };
const SCALE = { min: 1, max: 5, direction: 'higher-better' as const, integer: true };

function importOpts(file: File, datasetId: string) {
  return {
    fileName: file.name,
    totalBytes: file.size,
    datasetId,
    importId: 'imp-stage',
    now: Date.now(),
    knownTools: [],
    sidecars: {},
    preset: 'generic' as const,
    mapping: MAPPING,
    scale: SCALE,
  };
}

/** The experiences table's schema without the app's middleware (what indexes alone cost). */
class PlainDB extends Dexie {
  constructor(name: string, indexes = APP_INDEXES) {
    super(name);
    this.version(1).stores({ experiences: indexes });
  }
}
/** The experiences table's indexes in src/db/schema.ts (v7: none), those of v6 (`importId`) and v2 (two more): what each costs. */
const APP_INDEXES = 'id';
const V6_INDEXES = 'id, importId';
const V2_INDEXES = 'id, importId, [datasetId+toolId], [datasetId+taskId]';

async function fresh<T extends Dexie>(db: T): Promise<T> {
  await db.delete();
  await db.open();
  return db;
}

export const stages: Record<string, (file: File) => Promise<number>> = {
  /** Papa's own streaming parse of the File, nothing stored. */
  'papa parse only': async (file) => {
    let n = 0;
    await new Promise<void>((resolve) =>
      Papa.parse<Record<string, string>>(file, {
        header: true,
        skipEmptyLines: true,
        chunkSize: 4 * 1024 * 1024,
        chunk: (r) => void (n += r.data.length),
        complete: () => resolve(),
      }),
    );
    return n;
  },
  /** Our reader + preset mapping + validation + dedupe: runImport with a sink that stores nothing. */
  'runImport, no-op sink': async (file) => {
    const s = await runImport(blobBytes(file), importOpts(file, 'stage'), { writeBatch: async (rows) => ({ added: rows.length, updated: 0, unchanged: 0 }) });
    return s.rowsRead;
  },
  /** The bench's baseline as it is: Papa chunks of 4 MB → bulkPut into a table with a primary key only. */
  'baseline (papa → bulkPut, no index)': async (file) => papaInto(file, await fresh(new KeyOnlyDB('bench-stage-key')), 'rows', (r, id) => ({ ...r, id })),
  /** The baseline storing what we store: the 13 fields of an Experience (a categories array, numbers) instead of Papa's 6 strings. */
  'baseline, rows shaped as experiences': async (file) =>
    papaInto(file, await fresh(new KeyOnlyDB('bench-stage-key-exp')), 'rows', (r, id) => ({
      id,
      datasetId: 'stage',
      taskId: r.id,
      prompt: r.prompt,
      toolId: r.model,
      score: Number(r.score),
      rater: 'default',
      scoreSource: 'human',
      categories: [],
      importId: 'imp-stage',
      createdAt: 1,
      response: r.response,
      feedback: r.feedback,
    })),
  /** The same into v6's one index (4 MB chunks ≈ 9,000 rows per transaction). */
  "papa → bulkPut, v6's index (importId)": async (file) =>
    papaInto(file, await fresh(new PlainDB('bench-stage-papa-idx', V6_INDEXES)), 'experiences', (r, id) => ({
      ...r,
      id,
      datasetId: 'stage',
      toolId: r.model,
      taskId: r.id,
      importId: 'imp-stage',
    })),
  /** runImport → bulkAdd per 2,000-row batch into the app's table (v7: primary key only), no middleware. */
  "runImport → the app's table (no middleware)": async (file) => plainSink(file, 2000),
  "runImport → the app's table, batches of 10,000": async (file) => plainSink(file, 10_000),
  "runImport → v6's importId index, batches of 10,000": async (file) => plainSink(file, 10_000, V6_INDEXES),
  /** Before schema v3: the three indexes of v2 (with [datasetId+taskId]). */
  'papa → bulkPut, the 3 indexes of v2': async (file) =>
    papaInto(file, await fresh(new PlainDB('bench-stage-papa-idx3', V2_INDEXES)), 'experiences', (r, id) => ({
      ...r,
      id,
      datasetId: 'stage',
      toolId: r.model,
      taskId: r.id,
      importId: 'imp-stage',
    })),
  'runImport → the 3 indexes of v2, batches of 10,000': async (file) => plainSink(file, 10_000, V2_INDEXES),
  /** `put` instead of `add` (the baseline's request): what the fresh dataset's no-overwrite guarantee costs. */
  "runImport → the app's table with bulkPut, batches of 10,000": async (file) => plainSink(file, 10_000, APP_INDEXES, 'bulkPut'),
};

class KeyOnlyDB extends Dexie {
  constructor(name: string) {
    super(name);
    this.version(1).stores({ rows: 'id' });
  }
}

/** Papa's streaming parse, one bulkPut per 4 MB chunk (baseline.worker.ts), rows shaped for `table`'s indexes. */
async function papaInto(file: File, db: Dexie, table: string, shape: (r: Record<string, string>, id: string) => object): Promise<number> {
  let n = 0;
  let pending: Promise<unknown> = Promise.resolve();
  await new Promise<void>((resolve) =>
    Papa.parse<Record<string, string>>(file, {
      header: true,
      skipEmptyLines: true,
      chunkSize: 4 * 1024 * 1024,
      chunk(results, parser) {
        parser.pause();
        const rows = results.data.map((r, i) => shape(r, `${r.id}|${r.model}|${n + i}`));
        n += rows.length;
        pending = db
          .table(table)
          .bulkPut(rows)
          .then(() => parser.resume());
      },
      complete: () => void pending.then(() => resolve()),
    }),
  );
  db.close();
  return n;
}

async function plainSink(file: File, batchSize: number, indexes?: string, write: 'bulkAdd' | 'bulkPut' = 'bulkAdd'): Promise<number> {
  {
    const db = await fresh(new PlainDB(`bench-stage-plain-${batchSize}`, indexes));
    const s = await runImport(
      blobBytes(file),
      { ...importOpts(file, 'stage'), batchSize },
      {
        writeBatch: async (rows) => {
          await db.table<Experience, string>('experiences')[write](rows);
          return { added: rows.length, updated: 0, unchanged: 0 };
        },
      },
    );
    db.close();
    return s.rowsRead;
  }
}

/** runImport → the repository's fresh-dataset write (counts middleware, copies, quota check). */
async function repoSink(file: File, batchSize: number): Promise<number> {
  const db = await fresh(new ToolMemDB(`bench-stage-app-${batchSize}`));
  const repos = createRepositories(db);
  const s = await runImport(
    blobBytes(file),
    { ...importOpts(file, 'stage'), batchSize },
    { writeBatch: (rows) => repos.experiences.writeImportBatch('imp-stage', rows, { fresh: true }) },
  );
  db.close();
  return s.rowsRead;
}

const later: Record<string, (file: File) => Promise<number>> = {
  'runImport → writeImportBatch (counts middleware)': (file) => repoSink(file, 2000),
  'runImport → writeImportBatch, batches of 5,000': (file) => repoSink(file, 5000),
  'runImport → writeImportBatch, batches of 10,000': (file) => repoSink(file, 10_000),
  'runImport → writeImportBatch, batches of 20,000': (file) => repoSink(file, 20_000),
  /** The import service's `import` handler, as the app's worker runs it (record, lock, dataset, tools). */
  'import service (the app path)': async (file) => {
    const db = await fresh(new ToolMemDB('bench-stage-service'));
    const handlers = createImportHandlers(createRepositories(db), undefined, { locks: null });
    const ctx = { signal: new AbortController().signal, progress: () => {} } as unknown as Parameters<typeof handlers.import>[1];
    const out = await handlers.import({ file, datasetName: 'bench', preset: 'generic', mapping: MAPPING, scale: SCALE }, ctx);
    db.close();
    return out.summary.rowsRead;
  },
};

Object.assign(stages, later);

/** Runs the named stages in order; after each, drops what it wrote (outside the timing), so the next one does not pay for its compaction. */
export async function runStages(file: File, only?: string[]): Promise<StageResult[]> {
  const out: StageResult[] = [];
  for (const stage of only ?? Object.keys(stages)) {
    const run = stages[stage];
    if (!run) throw new Error(`no stage '${stage}'; stages: ${Object.keys(stages).join(' | ')}`);
    const t0 = performance.now();
    const rows = await run(file);
    out.push({ stage, ms: performance.now() - t0, rows });
    for (const { name } of await indexedDB.databases()) if (name?.startsWith('bench-stage-')) await Dexie.delete(name);
  }
  return out;
}
