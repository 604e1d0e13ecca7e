/**
 * npm run bench:parquet — a 1M-row Parquet file (Hugging Face style: text columns, a struct, a
 * JSON list; 10,000-row groups) read twice:
 *
 *  1. the reader alone (parquet-reader.ts, every record turned into plain values): it must stream,
 *     so its peak heap stays under BENCH_READER_MB (default 150) — the whole table as objects
 *     needs several times that;
 *  2. the full import (`runImport` as in the worker: generic mapping over nested paths, validation,
 *     a sink that counts), whose memory is one batch plus the duplicate-key index the validator
 *     keeps for every row (about 150 bytes a row): under BENCH_IMPORT_MB (default 700).
 *
 *   BENCH_ROWS (default 1,000,000)   BENCH_GROUP (default 10,000)   --smoke: 20,000 rows in 2,000-row groups
 *
 * The file is written in a child step (`write`) so that the import step measures its own memory only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { runImport } from '../../src/core/import';
import { openParquet } from '../../src/core/import/parquet-reader';
import { byteChunks, fileRange } from '../../src/cli/node-files';
import { parquetSchema } from '../../tests/unit/helpers/parquet-schema';
import { loadLine, SMOKE } from './bench-env';

const ROWS = Number(process.env.BENCH_ROWS ?? (SMOKE ? 20_000 : 1_000_000));
const GROUP = Number(process.env.BENCH_GROUP ?? (SMOKE ? 2_000 : 10_000));
const READER_MB = Number(process.env.BENCH_READER_MB ?? 150);
const IMPORT_MB = Number(process.env.BENCH_IMPORT_MB ?? 700);
const FILE = `.bench/hf-${ROWS}-${GROUP}.parquet`;

function write(): void {
  const tools = ['llama-3-8b', 'mistral-7b', 'qwen2-7b', 'gemma-7b'];
  const question: string[] = [];
  const meta: { model: string; score: number }[] = [];
  const answers: string[][] = [];
  for (let i = 0; i < ROWS; i++) {
    question.push(`Question ${i}: what is ${i % 97} plus ${i % 89}? Explain the steps briefly.`);
    meta.push({ model: tools[i % tools.length] as string, score: 1 + ((i * 7) % 5) });
    answers.push([`${(i % 97) + (i % 89)}`, `the sum is ${(i % 97) + (i % 89)}`]);
  }
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'question', data: question },
      { name: 'meta', data: meta },
      { name: 'answers', data: answers },
    ],
    schema: parquetSchema({ question: 'text', meta: { model: 'text', score: 'double' }, answers: 'json' }),
    rowGroupSize: GROUP,
  });
  mkdirSync('.bench', { recursive: true });
  writeFileSync(FILE, new Uint8Array(buffer));
}

/** Peak heap while `run` runs (sampled every 20 ms and whenever `sample` is called). */
async function peakHeap(run: (sample: () => void) => Promise<void>): Promise<number> {
  let peak = 0;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(sample, 20);
  try {
    await run(sample);
  } finally {
    clearInterval(timer);
  }
  return peak / 2 ** 20;
}

async function readOnly(): Promise<void> {
  const size = statSync(FILE).size;
  let rows = 0;
  const started = Date.now();
  const peakMb = await peakHeap(async (sample) => {
    const opened = await openParquet(fileRange(FILE, size), FILE);
    for await (const item of opened.items) {
      if (item.record) rows += 1;
      if (rows % 10_000 === 0) sample();
    }
  });
  const seconds = (Date.now() - started) / 1000;
  console.log(`reader: ${rows.toLocaleString()} records in ${seconds.toFixed(1)} s; peak heap ${peakMb.toFixed(0)} MB (limit ${READER_MB} MB)`);
  if (rows !== ROWS) throw new Error(`expected ${ROWS} records, read ${rows}`);
  if (peakMb > READER_MB) throw new Error(`reader peak heap ${peakMb.toFixed(0)} MB is over ${READER_MB} MB: it did not stream`);
}

async function importIt(): Promise<void> {
  const size = statSync(FILE).size;
  let rows = 0;
  let sample = (): void => {};
  const started = Date.now();
  const sink = {
    async writeBatch(batch: unknown[]) {
      rows += batch.length;
      sample();
      return { added: batch.length, updated: 0, unchanged: 0 };
    },
  };
  let summary!: Awaited<ReturnType<typeof runImport>>;
  const peakMb = await peakHeap(async (s) => {
    sample = s;
    summary = await runImport(
      byteChunks(FILE),
      {
        fileName: FILE,
        datasetId: 'bench',
        importId: 'bench',
        now: 0,
        totalBytes: size,
        randomAccess: fileRange(FILE, size),
        mapping: { prompt: 'question', tool: 'meta.model', score: 'meta.score', response: 'answers[1]' },
        batchSize: 10_000,
      },
      sink,
    );
  });
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `${FILE}: ${(size / 1e6).toFixed(1)} MB, ${summary.rowsRead.toLocaleString()} rows read, ${summary.accepted.toLocaleString()} accepted, ` +
      `${summary.rejected} rejected in ${seconds.toFixed(1)} s (${Math.round(summary.rowsRead / seconds).toLocaleString()} rows/s); peak heap ${peakMb.toFixed(0)} MB (limit ${IMPORT_MB} MB)`,
  );
  if (rows !== ROWS || summary.accepted !== ROWS) throw new Error(`expected ${ROWS} rows, stored ${rows}`);
  if (peakMb > IMPORT_MB) throw new Error(`import peak heap ${peakMb.toFixed(0)} MB is over ${IMPORT_MB} MB`);
}

const step = process.argv[2];
if (step === 'write') write();
else if (step === 'import') await importIt();
else if (step === 'read') await readOnly();
else {
  if (!existsSync(FILE)) {
    const self = fileURLToPath(import.meta.url);
    const res = spawnSync(process.execPath, ['--import', 'tsx', self, 'write', ...(SMOKE ? ['--smoke'] : [])], { stdio: 'inherit', env: process.env });
    if (res.status !== 0) process.exit(res.status ?? 1);
  }
  await readOnly();
  await importIt();
  console.log(loadLine());
}
