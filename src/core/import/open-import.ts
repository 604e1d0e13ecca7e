/**
 * Shared start of an import and of a preview: peek at the head, pick the format, read up to the first
 * record (so detection sees real headers and a real record), choose and prepare the preset. Records
 * read during this step are replayed, so nothing is read twice and nothing is lost.
 */
import { ParseError } from '../errors';
import type { PresetId, ScoreScale } from '../types';
import { getPreset, scorePresets } from './presets';
import { assertTextFile } from './sniff';
import { createReader, detectFormat, readItems } from './readers';
import { TextSource, type ImportInput } from './text-source';
import type { DetectSample, ImportOptions, InputFormat, PreparedPreset, Preset, PresetGuess, ReadItem, SourceRecord } from './types';

/** Enough text to see a header line or a first record in practically every file. */
const PEEK_CHARS = 64 * 1024;

export type OpenOptions = Pick<
  ImportOptions,
  'fileName' | 'preset' | 'mapping' | 'scale' | 'judgeColumn' | 'sidecars' | 'delimiter' | 'scoreSource' | 'signal'
>;

export interface OpenedImport {
  source: TextSource;
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

function sampleFrom(fileName: string, format: InputFormat, headers: string[] | null, first: SourceRecord | undefined): DetectSample {
  return { fileName, format, headers: headers ?? Object.keys(first?.data ?? {}), first };
}

export async function openImport(input: ImportInput, opts: OpenOptions, onChunk?: (bytesRead: number) => void): Promise<OpenedImport> {
  const source = new TextSource(input, opts.signal, onChunk);
  const head = await source.peek(PEEK_CHARS);
  if (head.trim() === '') {
    await source.close();
    // Whitespace only: say so, because the user can see that the file has a size.
    const lines = head === '' ? 0 : head.split('\n').length - (head.endsWith('\n') ? 1 : 0);
    throw new ParseError(
      lines === 0 ? 'The file is empty: there is nothing to import.' : `The file holds only blank lines (${lines} lines of whitespace, no header): there is nothing to import.`,
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
  const format = detectFormat(opts.fileName, head);
  const reader = createReader(format, opts.fileName, opts.delimiter);
  const stream = readItems(source.chunks(), reader);

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
  const sample = sampleFrom(opts.fileName, format, reader.headers, first);
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
      delimiter: reader.delimiter,
      ...(reader.headerIssues ? { headerIssues: reader.headerIssues } : {}),
      mapping: opts.mapping,
      judgeColumn: opts.judgeColumn,
      sidecars: opts.sidecars,
      scoreSource: opts.scoreSource,
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
    source,
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
  const format = detectFormat(fileName, text);
  const reader = createReader(format, fileName);
  let first: SourceRecord | undefined;
  try {
    const items = reader.push(text);
    first = items.find((i) => i.record)?.record;
    // The chunk may be the whole file, with no line break after its only line.
    if (!first && !reader.headers) first = reader.end().find((i) => i.record)?.record;
  } catch {
    // An unreadable head still gets a (generic, low-confidence) answer; the import will say why.
  }
  const sample = sampleFrom(fileName, format, reader.headers, first);
  const scores = scorePresets(sample);
  const best = scores[0] ?? { preset: 'generic' as const, score: 0 };
  return { format, preset: best.preset, confidence: best.score, scores, headers: sample.headers };
}
