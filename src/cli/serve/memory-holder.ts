/**
 * The memory `toolmem serve` answers from, and its hot reload. A change of the file (watched
 * through its folder, so an editor's or `mv`'s replace is seen too, with a slow stat poll as a
 * backstop) is checked by size first (stat: a file over `maxBytes` is refused unread), then read,
 * hashed, parsed and validated in the parse worker (memory-parser.ts) — off the thread that
 * answers requests, whose only share is to receive the parsed file — then prepared (handlers
 * built, checked against the embedder and the routes); only then is the one `current` reference
 * swapped. A request takes `current` once when it starts, so requests in flight finish on the old
 * memory and the next ones get the new; a file that fails any step is refused with a log line and
 * the old memory keeps serving. Bytes identical to the served ones (same SHA-256) are not
 * reloaded. Reloads run one at a time; a change during one queues another.
 */
import { watch, watchFile, unwatchFile, type FSWatcher, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { formatIssues, MemoryFileError, type MemoryFile } from '../../core/memory-format';
import { MemoryParser, parserOptionsFor } from './memory-parser';
import { checkMemorySize, DEFAULT_MAX_MEMORY_BYTES, MemoryLoadError, readMemoryFile, statIdentity, type ReadMemory } from './memory-read';

export { MemoryLoadError } from './memory-read';

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

export interface HolderOptions {
  /** Largest memory file read (bytes); a larger one is refused from its size. */
  maxBytes?: number;
}

async function prepared<T>(read: ReadMemory, prepare: Prepare<T>): Promise<{ file: MemoryFile; sha: string; prepared: T }> {
  try {
    return { file: read.file, sha: read.sha, prepared: await prepare(read.file) };
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
  private readonly parser: MemoryParser;
  /** statIdentity of the file the last reload looked at (read, refused or unchanged). */
  private lastSeen = '';

  private constructor(
    readonly path: string,
    private readonly prepare: Prepare<T>,
    first: { file: MemoryFile; sha: string; prepared: T },
    private readonly log: (line: string) => void,
    readonly maxBytes: number,
  ) {
    this.loaded = { ...first, generation: 1, loadedAt: Date.now() };
    this.parser = new MemoryParser(parserOptionsFor(maxBytes));
  }

  /**
   * The first load, on this thread (no client is waiting yet), with the same size limit and
   * parser as a reload: throws MemoryLoadError (the command exits 2 with it).
   */
  static async open<T>(path: string, prepare: Prepare<T>, log: (line: string) => void, opts: HolderOptions = {}): Promise<MemoryHolder<T>> {
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_MEMORY_BYTES;
    await checkMemorySize(path, maxBytes);
    const first = await prepared(await readMemoryFile(path, maxBytes), prepare);
    return new MemoryHolder(path, prepare, first, log, maxBytes);
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
      this.lastSeen = '';
      await checkMemorySize(this.path, this.maxBytes, (info) => (this.lastSeen = statIdentity(info)));
      const read = await this.parser.read(this.path, this.maxBytes);
      if (read.sha === this.loaded.sha) return { status: 'unchanged', sha: read.sha };
      next = await prepared(read, this.prepare);
    } catch (err) {
      const why = err instanceof MemoryLoadError ? err.message : 'the file could not be prepared';
      this.log(`reload refused, still serving ${this.loaded.sha} (generation ${this.loaded.generation}): ${why.split('\n').slice(0, 6).join('; ')}`);
      return { status: 'refused', why };
    }
    this.loaded = { ...next, generation: this.loaded.generation + 1, loadedAt: Date.now() };
    this.log(
      `reloaded: ${next.file.memory.name} (${next.file.tools.length} tools), ${next.sha} (generation ${this.loaded.generation}) ` +
        `in ${Math.round(performance.now() - t0)} ms`,
    );
    return { status: 'reloaded', sha: next.sha };
  }

  /**
   * Watches the file: changes within `debounceMs` of each other make one reload. The poll, a
   * backstop for a missed folder event, skips a file whose stat is the one the last reload looked
   * at (the folder event already brought it: a 75 MB file refused once is not parsed twice).
   */
  watch(debounceMs = 30, pollMs = 2000): void {
    this.parser.warm();
    const name = basename(this.path);
    const later = (action: () => void) => {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        action();
      }, debounceMs);
    };
    const reload = () => void this.reload();
    this.watcher = watch(dirname(this.path), { persistent: false }, (_event, file) => {
      if (file === null || file === name) later(reload);
    });
    this.watcher.on('error', () => this.log('watching the memory folder failed; changes are still seen by polling'));
    watchFile(this.path, { interval: pollMs, persistent: false }, (curr: Stats) => {
      if (statIdentity(curr) !== this.lastSeen) later(() => void this.reloadIfUnseen());
    });
  }

  /**
   * The poll's reload: a poll can see a replace while the folder event's reload of it is still
   * running (on a loaded machine the reload has not yet stat-ed the file), so it waits for that
   * reload and looks again: a version it has already looked at is not read (or refused) twice.
   */
  private async reloadIfUnseen(): Promise<void> {
    if (this.running) await this.running;
    const seen = await stat(this.path).then(statIdentity, () => null);
    if (seen === null || seen !== this.lastSeen) await this.reload();
  }

  close(): void {
    this.watcher?.close();
    unwatchFile(this.path);
    if (this.timer) clearTimeout(this.timer);
    this.parser.stop();
  }
}
