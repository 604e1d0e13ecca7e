import { withDb } from '../../helpers/db';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInThreadClient } from '../../../../src/rpc';
import { createImportHandlers } from '../../../../src/app/import/handlers';
import { readOnce } from '../../../../src/platform/blob';

const REPO = resolve(import.meta.dirname, '../../../..');

/** A File that counts how it is read: whole-file streams, slices (random access) and whole-file reads. */
class CountingFile extends File {
  readonly reads = { stream: 0, slice: 0, text: 0, arrayBuffer: 0 };
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    this.reads.stream++;
    return super.stream();
  }
  override slice(start?: number, end?: number, type?: string): Blob {
    this.reads.slice++;
    return super.slice(start, end, type);
  }
  override text(): Promise<string> {
    this.reads.text++;
    return super.text();
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    this.reads.arrayBuffer++;
    return super.arrayBuffer();
  }
}

const counting = (rel: string, name = rel.split('/').pop()!) => new CountingFile([readFileSync(resolve(REPO, rel))], name);
const LOG = 'tests/fixtures/e2e/team-eval-log.csv';
const SCALE = { min: 1, max: 5, direction: 'higher-better', integer: true } as const;

const ctx = withDb('reads-once', ({ repos }) => ({ client: createInThreadClient(createImportHandlers(repos, undefined, { locks: null })) }));

describe('an import call reads its file once', () => {
  it('CSV with a known scale: one stream, no slice, no whole-file read', async () => {
    const file = counting(LOG);
    const out = await ctx.client.call('import', { file, datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic', scale: SCALE });
    expect(out.summary).toMatchObject({ accepted: 9, rejected: 1, rowsRead: 10 });
    expect(file.reads).toEqual({ stream: 1, slice: 0, text: 0, arrayBuffer: 0 });
  });

  it('JSONL and JSON arrays: one stream each', async () => {
    const rows = [
      { id: 'a', prompt: 'p1', tool: 'x', score: 3 },
      { id: 'b', prompt: 'p2', tool: 'y', score: 4 },
    ];
    for (const [name, text] of [
      ['rows.jsonl', rows.map((r) => JSON.stringify(r)).join('\n')],
      ['rows.json', JSON.stringify(rows)],
    ] as const) {
      const file = new CountingFile([text], name);
      const out = await ctx.client.call('import', { file, datasetName: `Rows ${name}`, preset: 'generic', scale: SCALE });
      expect(out.summary).toMatchObject({ accepted: 2, rejected: 0 });
      expect(file.reads).toEqual({ stream: 1, slice: 0, text: 0, arrayBuffer: 0 });
    }
  });

  it('the preview, the samples and the row count open the file once per call', async () => {
    const req = { datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' as const };
    const previewed = counting(LOG);
    await ctx.client.call('preview', { file: previewed, ...req });
    expect(previewed.reads).toEqual({ stream: 1, slice: 0, text: 0, arrayBuffer: 0 });
    const sampled = counting(LOG);
    expect((await ctx.client.call('samples', { file: sampled, ...req })).samples.length).toBe(5);
    expect(sampled.reads).toEqual({ stream: 1, slice: 0, text: 0, arrayBuffer: 0 });
    const counted = counting(LOG);
    expect(await ctx.client.call('countRows', { file: counted, ...req })).toMatchObject({ rowsRead: 10, rejected: 1 });
    expect(counted.reads).toEqual({ stream: 1, slice: 0, text: 0, arrayBuffer: 0 });
  });

  it('a scale to infer is the one second pass: the scores are read before a row is written', async () => {
    const file = counting(LOG);
    const out = await ctx.client.call('import', { file, datasetName: 'Team log', mapping: { id: 'case' }, preset: 'generic' });
    expect(out.summary.scaleInferred).toBe(true);
    expect(file.reads).toEqual({ stream: 2, slice: 0, text: 0, arrayBuffer: 0 });
  });
});

describe('readOnce', () => {
  it('gives the head and then the whole file from one stream, and answers reads inside the head from memory', async () => {
    const bytes = new Uint8Array(200_000).map((_, i) => 97 + (i % 26));
    // Twenty parts: Node's Blob streams one chunk per part (a browser's File streams chunks of 64 KiB).
    const file = new CountingFile(
      Array.from({ length: 20 }, (_, k) => bytes.subarray(k * 10_000, (k + 1) * 10_000)),
      'big.csv',
    );
    const read = await readOnce(file, 1000);
    expect(read.head).toBe(new TextDecoder().decode(bytes.subarray(0, 1000)));
    expect(await read.randomAccess.read(0, 4)).toEqual(bytes.subarray(0, 4));
    expect(file.reads.slice).toBe(0);
    const parts: Uint8Array[] = [];
    for await (const c of read.bytes) parts.push(c);
    expect(Buffer.concat(parts)).toEqual(Buffer.from(bytes));
    expect(file.reads.stream).toBe(1);
    // Past the chunks kept for the head: a slice of the file (Parquet's footer, an `.eval` directory).
    expect(await read.randomAccess.read(199_990, 200_000)).toEqual(bytes.subarray(199_990));
    expect(file.reads.slice).toBe(1);
  });

  it('a file shorter than the head is read whole into the head, once', async () => {
    const file = new CountingFile(['id,score\n1,2\n'], 'small.csv');
    const read = await readOnce(file);
    expect(read.head).toBe('id,score\n1,2\n');
    let text = '';
    for await (const c of read.bytes) text += new TextDecoder().decode(c);
    expect(text).toBe('id,score\n1,2\n');
    expect(file.reads).toEqual({ stream: 1, slice: 0, text: 0, arrayBuffer: 0 });
  });
});
