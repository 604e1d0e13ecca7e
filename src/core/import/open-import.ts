/**
 * Shared start of an import and of a preview: peek at the head, pick the format, read up to the first
 * record (so detection sees real headers and a real record), choose and prepare the preset. Records
 * read during this step are replayed, so nothing is read twice and nothing is lost.
 */
import { ParseError } from '../errors';
import type { PresetId, ScoreScale } from '../types';
import { PRESETS, getPreset, scorePresets } from './presets';
import { looksLikeParquet, openParquet } from './parquet-reader';
import { evalSampleItems, looksLikeZip, openEvalArchive } from './eval-archive';
import { looksLikeLmEvalResults, refuseResultsFile } from './presets/lm-eval-results';
import { sampleRecord } from './record-sample';
import { assertTextFile } from './sniff';
import { createReader, detectFormat, readItems } from './readers';
import { TextSource, type ImportInput } from './text-source';
import type { DetectSample, HeaderIssues, ImportOptions, InputFormat, PreparedPreset, Preset, PresetGuess, ReadItem, SourceRecord } from './types';

/** Enough text to see a header line or a first record in practically every file. */
const PEEK_CHARS = 64 * 1024;

export type OpenOptions = Pick<
  ImportOptions,
  'fileName' | 'preset' | 'mapping' | 'scale' | 'judgeColumn' | 'sidecars' | 'delimiter' | 'scoreSource' | 'defaultTool' | 'randomAccess' | 'signal'
>;

const CONTAINER_SAMPLES = ['samples'] as const;

export interface OpenedImport {
  /** Bytes read so far (progress, the summary). */
  source: { readonly bytesRead: number };
  format: InputFormat;
  headers: string[];
  preset: Preset;
  detected: PresetId;
  confidence: number;
  prepared: PreparedPreset;
  /** Preset or caller scale; null when it must be inferred (generic without a scale). */
  scale: ScoreScale | null;
  items: AsyncIterable<ReadItem>;
  close(): Promise<void>;
}

function sampleFrom(
  fileName: string,
  format: InputFormat,
  headers: string[] | null,
  first: SourceRecord | undefined,
  container?: readonly string[],
  document?: Record<string, unknown>,
): DetectSample {
  const sample: DetectSample = { fileName, format, headers: headers ?? Object.keys(first?.data ?? {}), first };
  if (container?.length) sample.container = container.join('.');
  if (document) sample.document = document;
  return sample;
}

/**
 * Where the records of a JSON document are: the chosen preset's container, else the container of
 * the first preset whose sniff recognises the head (so the generic mapping of a promptfoo file also
 * maps its results), else the top level.
 */
export function containerFor(head: string, preset?: PresetId): readonly string[] | undefined {
  const chosen = preset ? getPreset(preset).container : undefined;
  if (chosen) return chosen.path;
  return PRESETS.find((p) => p.container?.sniff(head))?.container?.path;
}

interface Opening {
  format: InputFormat;
  headers: string[] | null;
  delimiter?: string | undefined;
  headerIssues?: HeaderIssues | undefined;
  container?: readonly string[] | undefined;
  /** The document around the records (json-container.ts; `.eval`: header.json), once the reader reached them. */
  readonly document?: Record<string, unknown> | undefined;
  stream: AsyncGenerator<ReadItem>;
  source: { readonly bytesRead: number };
}

export async function openImport(input: ImportInput, opts: OpenOptions, onChunk?: (bytesRead: number) => void): Promise<OpenedImport> {
  return choosePreset(opts, await openRecords(input, opts, onChunk));
}

/**
 * The first records of a file as read, before any preset or mapping: what the dialog's path picker
 * lists even while the mapping is still incomplete (and the preview refuses it). Bounded copies
 * (record-sample.ts); reading stops after `n` records.
 */
export async function readSamples(
  input: ImportInput,
  opts: OpenOptions,
  n: number,
): Promise<{ format: InputFormat; headers: string[]; samples: unknown[]; preset: PresetId }> {
  const opening = await openRecords(input, opts);
  const samples: unknown[] = [];
  let first: SourceRecord | undefined;
  try {
    for (;;) {
      if (samples.length >= n) break;
      const next = await opening.stream.next();
      if (next.done) break;
      if (next.value.record) {
        first ??= next.value.record;
        samples.push(sampleRecord(next.value.record.data));
      }
    }
  } catch {
    // An unreadable record ends the sample; the preview says what is wrong with the file.
  } finally {
    await opening.stream.return(undefined);
  }
  const sample = sampleFrom(opts.fileName, opening.format, opening.headers, first, opening.container, opening.document);
  // The preset detection would pick (the dialog adopts it when the first preview is refused).
  const preset = scorePresets(sample)[0]?.preset ?? 'generic';
  return { format: opening.format, headers: sample.headers, samples, preset };
}

/** Peeks, picks the format (Parquet, CSV, JSON with its container, JSONL) and starts its reader. */
async function openRecords(input: ImportInput, opts: OpenOptions, onChunk?: (bytesRead: number) => void): Promise<Opening> {
  // A ZIP archive with random access: an Inspect `.eval` log when it holds a header and samples.
  if (opts.randomAccess && opts.randomAccess.size >= 22 && looksLikeZip(await opts.randomAccess.read(0, 4))) {
    const opened = await openEvalRecords(input, { ...opts, randomAccess: opts.randomAccess }, onChunk);
    if (opened) return opened;
  }
  const source = new TextSource(input, opts.signal, onChunk);
  const head = await source.peek(PEEK_CHARS);
  if (looksLikeParquet(source.headBytes ?? head)) {
    await source.close();
    return openParquetRecords(opts, onChunk);
  }
  if (head.trim() === '') {
    await source.close();
    // Whitespace only: say so, because the user can see that the file has a size.
    const lines = head === '' ? 0 : head.split('\n').length - (head.endsWith('\n') ? 1 : 0);
    throw new ParseError(
      lines === 0
        ? 'The file is empty: there is nothing to import.'
        : `The file holds only blank lines (${lines} lines of whitespace, no header): there is nothing to import.`,
      opts.fileName,
    );
  }
  try {
    // The bytes when the input is bytes: exact signatures (a decoded head loses which bytes were invalid).
    assertTextFile(source.headBytes ?? head, opts.fileName);
  } catch (err) {
    await source.close();
    throw err;
  }
  if (looksLikeLmEvalResults(head.startsWith('\uFEFF') ? head.slice(1) : head)) await refuseResultsFile(source.chunks(), opts.fileName);
  const format = detectFormat(opts.fileName, head);
  const container = format === 'json' ? containerFor(head.startsWith('\uFEFF') ? head.slice(1) : head, opts.preset) : undefined;
  const reader = createReader(format, opts.fileName, opts.delimiter, container);
  const stream = readItems(source.chunks(), reader);
  return {
    format,
    get headers() {
      return reader.headers;
    },
    get document() {
      return reader.document;
    },
    delimiter: reader.delimiter,
    get headerIssues() {
      return reader.headerIssues;
    },
    container,
    stream,
    source,
  };
}

/**
 * An Inspect `.eval` archive (eval-archive.ts): the header by random access, then the sample entries
 * streamed from the input's bytes. Undefined when the ZIP archive is not an Inspect log (the text
 * path then names it a ZIP archive to extract).
 */
async function openEvalRecords(
  input: ImportInput,
  opts: OpenOptions & { randomAccess: NonNullable<OpenOptions['randomAccess']> },
  onChunk?: (bytesRead: number) => void,
): Promise<Opening | undefined> {
  const archive = await openEvalArchive(opts.randomAccess, opts.fileName);
  if (!archive.header && archive.samples === 0) return undefined;
  let bytesRead = 0;
  const stream = evalSampleItems(input, opts.fileName, opts.signal, (n) => {
    bytesRead = n;
    onChunk?.(n);
  });
  return {
    format: 'eval',
    headers: null,
    container: CONTAINER_SAMPLES,
    ...(archive.header ? { document: archive.header } : {}),
    stream,
    source: {
      get bytesRead() {
        return bytesRead;
      },
    },
  };
}

/** A Parquet file: records from row groups (parquet-reader.ts), then the same preset choice. */
async function openParquetRecords(opts: OpenOptions, onChunk?: (bytesRead: number) => void): Promise<Opening> {
  if (!opts.randomAccess) {
    throw new ParseError(
      'This is a Parquet file, which is read from its end (the footer holds the index): import it from a file, not from a stream.',
      opts.fileName,
    );
  }
  let bytesRead = 0;
  const parquet = await openParquet(opts.randomAccess, opts.fileName, {
    signal: opts.signal,
    onBytes: (n) => {
      bytesRead = n;
      onChunk?.(n);
    },
  });
  if (parquet.rows === 0) throw new ParseError('The Parquet file holds no rows: there is nothing to import.', opts.fileName);
  return {
    format: 'parquet',
    headers: parquet.headers,
    stream: parquet.items,
    source: {
      get bytesRead() {
        return bytesRead;
      },
    },
  };
}

/** Reads up to the first record, detects and prepares the preset, and replays what it read. */
async function choosePreset(opts: OpenOptions, opening: Opening): Promise<OpenedImport> {
  const { format, stream } = opening;
  // Read until the first good record (row errors before it are kept for replay).
  const buffered: ReadItem[] = [];
  let first: SourceRecord | undefined;
  for (;;) {
    const next = await stream.next();
    if (next.done) break;
    buffered.push(next.value);
    if (next.value.record) {
      first = next.value.record;
      break;
    }
  }
  // JSON records carry the field names: when none could be read there is nothing to map, and the
  // first record's problem says more than "no column looks like prompt".
  const firstError = buffered.find((item) => item.error)?.error;
  if (!first && format !== 'csv' && firstError) {
    await stream.return(undefined);
    throw new ParseError(
      `Not one record in the file could be read, so there is nothing to import. The first problem: ${firstError.reason}.`,
      opts.fileName,
      firstError.row,
    );
  }
  const document = opening.document;
  const sample = sampleFrom(opts.fileName, format, opening.headers, first, opening.container, document);
  const scores = scorePresets(sample);
  const detected = scores[0]?.preset ?? 'generic';
  const preset = getPreset(opts.preset ?? detected);
  const confidence = scores.find((s) => s.preset === preset.id)?.score ?? 0;
  let prepared: PreparedPreset;
  try {
    prepared = await preset.prepare({
      fileName: opts.fileName,
      format,
      headers: sample.headers,
      delimiter: opening.delimiter,
      ...(opening.headerIssues ? { headerIssues: opening.headerIssues } : {}),
      mapping: opts.mapping,
      judgeColumn: opts.judgeColumn,
      sidecars: opts.sidecars,
      scoreSource: opts.scoreSource,
      ...(opts.defaultTool ? { defaultTool: opts.defaultTool } : {}),
      ...(document ? { document } : {}),
    });
  } catch (err) {
    await stream.return(undefined);
    throw err;
  }

  async function* items(): AsyncGenerator<ReadItem> {
    yield* buffered;
    buffered.length = 0;
    yield* stream;
  }

  return {
    source: opening.source,
    format,
    headers: sample.headers,
    preset,
    detected,
    confidence,
    prepared,
    scale: opts.scale ?? preset.defaults.scale,
    items: items(),
    close: async () => {
      await stream.return(undefined);
    },
  };
}

/** Best preset for a first chunk of a file (for the UI before the import starts). Never throws. */
export function detectPreset(fileName: string, firstChunk: string): PresetGuess {
  const text = firstChunk.startsWith('\uFEFF') ? firstChunk.slice(1) : firstChunk;
  if (looksLikeParquet(text)) {
    // The schema is in the footer, not in the head: the generic mapping, decided when the file is opened.
    const scores = PRESETS.map((p) => ({ preset: p.id, score: p.id === 'generic' ? 0.3 : 0 })).sort((a, b) => b.score - a.score);
    return { format: 'parquet', preset: 'generic', confidence: 0.3, scores, headers: [] };
  }
  const format = detectFormat(fileName, text);
  const container = format === 'json' ? containerFor(text) : undefined;
  const reader = createReader(format, fileName, undefined, container);
  let first: SourceRecord | undefined;
  try {
    const items = reader.push(text);
    first = items.find((i) => i.record)?.record;
    // The chunk may be the whole file, with no line break after its only line.
    if (!first && !reader.headers) first = reader.end().find((i) => i.record)?.record;
  } catch {
    // An unreadable head still gets a (generic, low-confidence) answer; the import will say why.
  }
  const sample = sampleFrom(fileName, format, reader.headers, first, container);
  const scores = scorePresets(sample);
  const best = scores[0] ?? { preset: 'generic' as const, score: 0 };
  return { format, preset: best.preset, confidence: best.score, scores, headers: sample.headers };
}
