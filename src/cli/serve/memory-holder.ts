/**
 * The memory `toolmem serve` answers from, and its hot reload. A change of the file (watched
 * through its folder, so an editor's or `mv`'s replace is seen too, with a slow stat poll as a
 * backstop) is read whole, hashed, parsed and validated with the memory-format parser, then
 * prepared (handlers built, checked against the embedder and the routes) — only then is the one
 * `current` reference swapped. A request takes `current` once when it starts, so requests in
 * flight finish on the old memory and the next ones get the new; a file that fails any step is
 * refused with a log line and the old memory keeps serving. Bytes identical to the served ones
 * (same SHA-256) are not reloaded. Reloads run one at a time; a change during one queues another.
 */
import { createHash } from 'node:crypto';
import { watch, watchFile, unwatchFile, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { formatIssues, MemoryFileError, parseMemoryFile, type MemoryFile } from '../../core/memory-format';

export interface Loaded<T> {
  file: MemoryFile;
  /** SHA-256 of the bytes parsed (hex, first 16 characters): names the version in every answer. */
  sha: string;
  /** 1 for the file served at start, +1 at each reload. */
  generation: number;
  loadedAt: number;
  prepared: T;
}

export type ReloadResult = { status: 'reloaded' | 'unchanged'; sha: string } | { status: 'refused'; why: string };

/** Turns a parsed file into what requests use; throws (MemoryFileError or another Error) to refuse it. */
export type Prepare<T> = (file: MemoryFile) => Promise<T>;

export class MemoryLoadError extends Error {
  override name = 'MemoryLoadError';
}

async function readAndPrepare<T>(path: string, prepare: Prepare<T>): Promise<{ file: MemoryFile; sha: string; prepared: T }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new MemoryLoadError(`cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const sha = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const parsed = parseMemoryFile(bytes.toString('utf8'));
  if (!parsed.ok) throw new MemoryLoadError(formatIssues(parsed.issues));
  // Parsing and preparing each hold the event loop (tens of ms for a large file): let the
  // requests that queued meanwhile through between the two.
  await new Promise((r) => setImmediate(r));
  try {
    return { file: parsed.file, sha, prepared: await prepare(parsed.file) };
  } catch (err) {
    throw new MemoryLoadError(err instanceof MemoryFileError ? formatIssues(err.issues) : (err as Error).message);
  }
}

export class MemoryHolder<T> {
  private loaded: Loaded<T>;
  private running: Promise<ReloadResult> | null = null;
  private queued = false;
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;

  private constructor(
    readonly path: string,
    private readonly prepare: Prepare<T>,
    first: { file: MemoryFile; sha: string; prepared: T },
    private readonly log: (line: string) => void,
  ) {
    this.loaded = { ...first, generation: 1, loadedAt: Date.now() };
  }

  /** The first load: throws MemoryLoadError (the command exits 2 with it). */
  static async open<T>(path: string, prepare: Prepare<T>, log: (line: string) => void): Promise<MemoryHolder<T>> {
    return new MemoryHolder(path, prepare, await readAndPrepare(path, prepare), log);
  }

  get current(): Loaded<T> {
    return this.loaded;
  }

  /** Reads the file again; resolves with what happened (never rejects). */
  reload(): Promise<ReloadResult> {
    if (this.running) {
      this.queued = true;
      return this.running;
    }
    this.running = this.reloadOnce().finally(() => {
      this.running = null;
      if (this.queued) {
        this.queued = false;
        void this.reload();
      }
    });
    return this.running;
  }

  private async reloadOnce(): Promise<ReloadResult> {
    let next;
    const t0 = performance.now();
    try {
      next = await readAndPrepare(this.path, this.prepare);
    } catch (err) {
      const why = err instanceof MemoryLoadError ? err.message : 'the file could not be prepared';
      this.log(`reload refused, still serving ${this.loaded.sha} (generation ${this.loaded.generation}): ${why.split('\n').slice(0, 6).join('; ')}`);
      return { status: 'refused', why };
    }
    if (next.sha === this.loaded.sha) return { status: 'unchanged', sha: next.sha };
    this.loaded = { ...next, generation: this.loaded.generation + 1, loadedAt: Date.now() };
    this.log(`reloaded: ${next.file.memory.name} (${next.file.tools.length} tools), ${next.sha} (generation ${this.loaded.generation}) in ${Math.round(performance.now() - t0)} ms`);
    return { status: 'reloaded', sha: next.sha };
  }

  /** Watches the file: changes within `debounceMs` of each other make one reload. */
  watch(debounceMs = 30, pollMs = 2000): void {
    const name = basename(this.path);
    const later = () => {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.reload();
      }, debounceMs);
    };
    this.watcher = watch(dirname(this.path), { persistent: false }, (_event, file) => {
      if (file === null || file === name) later();
    });
    this.watcher.on('error', () => this.log('watching the memory folder failed; changes are still seen by polling'));
    watchFile(this.path, { interval: pollMs, persistent: false }, later);
  }

  close(): void {
    this.watcher?.close();
    unwatchFile(this.path);
    if (this.timer) clearTimeout(this.timer);
  }
}
