/// <reference lib="webworker" />
// Baseline for the import benchmark: raw Papa Parse streaming + Dexie bulkPut, no validation,
// no presets, no idempotency checks — the floor our import pipeline is compared against.
import Papa from 'papaparse';
import Dexie, { type EntityTable } from 'dexie';

interface Row {
  id: string;
  [k: string]: unknown;
}
class BaselineDB extends Dexie {
  rows!: EntityTable<Row, 'id'>;
  constructor(schema: 'key' | 'app') {
    super(`bench-baseline-${schema}`);
    // Both a primary key only: since schema v7 the app's experiences table has no index either (by
    // dataset, tool and task it reads key ranges, by import its key lists: db/import-keys.ts), so
    // 'app' differs from 'key' only in the rows' shape and keys.
    this.version(1).stores({ rows: 'id' });
  }
}

/**
 * `schema: 'key'` (the baseline): Papa's rows as they come, a primary key only. `schema: 'app'`
 * (for information): the same parse, rows shaped as the Experience we store (13 fields) into a table
 * with the app's indexes: the floor for any import into this schema.
 */
self.onmessage = async (e: MessageEvent<{ file: File; schema?: 'key' | 'app' }>) => {
  const schema = e.data.schema ?? 'key';
  const db = new BaselineDB(schema);
  await db.rows.clear();
  const t0 = performance.now();
  let n = 0;
  let pending: Promise<unknown> = Promise.resolve();
  Papa.parse<Record<string, string>>(e.data.file, {
    header: true,
    skipEmptyLines: true,
    chunkSize: 4 * 1024 * 1024,
    chunk(results, parser) {
      parser.pause();
      const rows = results.data.map((r, i) => {
        const id = `${r.id}|${r.model}|${n + i}`;
        return schema === 'key'
          ? { ...r, id }
          : // Keyed as the app keys experiences (core/ids: dataset, tool, task, rater), row number last.
            {
              id: `bench|${r.model}|${r.id}|default|${n + i}`,
              datasetId: 'bench',
              taskId: r.id,
              prompt: r.prompt,
              toolId: r.model,
              score: Number(r.score),
              rater: 'default',
              scoreSource: 'human',
              categories: [],
              importId: 'imp-bench',
              createdAt: 1,
              response: r.response,
              feedback: r.feedback,
            };
      });
      n += rows.length;
      pending = db.rows.bulkPut(rows).then(() => parser.resume());
    },
    complete() {
      void pending.then(async () => {
        const ms = performance.now() - t0;
        self.postMessage({ rows: n, ms, stored: await db.rows.count() });
      });
    },
  });
};
