/// <reference lib="webworker" />
// Baseline for the import benchmark: raw Papa Parse streaming + Dexie bulkPut, no validation,
// no presets, no idempotency checks — the floor our import pipeline is compared against.
import Papa from 'papaparse';
import Dexie, { type EntityTable } from 'dexie';

interface Row { id: string; [k: string]: unknown }
class BaselineDB extends Dexie {
  rows!: EntityTable<Row, 'id'>;
  constructor() {
    super('bench-baseline');
    this.version(1).stores({ rows: 'id' });
  }
}

self.onmessage = async (e: MessageEvent<{ file: File }>) => {
  const db = new BaselineDB();
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
      const rows = results.data.map((r, i) => ({ ...r, id: `${r.id}|${r.model}|${n + i}` }));
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
