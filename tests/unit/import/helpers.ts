/** Test helpers: chunked string sources, file sources and an in-memory sink. */
import { createReadStream, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runImport } from '../../../src/core/import';
import type { ImportOptions, ImportSink, ImportSummary } from '../../../src/core/import/types';
import type { ImportInput } from '../../../src/core/import/text-source';
import type { Experience, LabelItem } from '../../../src/core/types';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const FIXTURES = resolve(REPO, 'tests/fixtures/import');
export const BAD = resolve(REPO, 'tests/fixtures/bad-inputs');
export const SHARED_DATA = resolve(REPO, '../shared/data');

/** Yields `text` in pieces of `size` characters (whole text when size is 0). */
export async function* chunked(text: string, size = 0): AsyncGenerator<string> {
  if (size <= 0) {
    yield text;
    return;
  }
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** A file as byte chunks, the way the CLI reads it (the import decodes and checks the UTF-8). */
export function fileSource(path: string, highWaterMark = 64 * 1024): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark }) as AsyncIterable<Uint8Array>;
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

export class MemorySink implements ImportSink {
  readonly rows: Experience[] = [];
  /** Rows without a score (outputs awaiting labels). */
  readonly items: LabelItem[] = [];
  batches = 0;
  async writeItems(items: LabelItem[]) {
    this.items.push(...items);
  }
  async writeBatch(rows: Experience[]) {
    this.batches += 1;
    this.rows.push(...rows);
    return { added: rows.length, updated: 0, unchanged: 0 };
  }
}

export function options(fileName: string, extra: Partial<ImportOptions> = {}): ImportOptions {
  return { fileName, datasetId: 'test', importId: 'imp-test', now: 1_700_000_000_000, ...extra };
}

export async function importSource(
  input: ImportInput,
  fileName: string,
  extra: Partial<ImportOptions> = {},
): Promise<{ summary: ImportSummary; sink: MemorySink }> {
  const sink = new MemorySink();
  const summary = await runImport(input, options(fileName, extra), sink);
  return { summary, sink };
}

export function importFile(path: string, extra: Partial<ImportOptions> = {}) {
  return importSource(fileSource(path), path.split('/').pop() ?? path, extra);
}

/** Mean of numbers, for checking reported means. */
export function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
