/**
 * The main thread's side of the parse worker (memory-worker.ts): one worker thread per memory
 * holder, started when the server starts watching (or on the first reload) and kept (it loads the
 * parser once), unref'd so it never
 * keeps the process alive. Jobs run one at a time (the holder reloads one at a time). The worker's
 * heap is capped (`heapMb`): a file that would need more kills the worker — the job is refused,
 * the next job starts a fresh worker — and the server, whose heap was never touched, keeps serving.
 * A job that takes longer than `timeoutMs` is refused the same way.
 */
import { Worker } from 'node:worker_threads';
import type { MemoryFile } from '../../core/memory-format';
import { MemoryLoadError, type ReadMemory } from './memory-read';
import type { ParseJob, ParseReply } from './memory-worker';

export interface ParserOptions {
  /** Old-generation heap of the worker in MB. */
  heapMb: number;
  timeoutMs: number;
}

/** A heap that parses any file under `maxBytes`: JSON in V8 takes a few times its text. */
export function parserOptionsFor(maxBytes: number): ParserOptions {
  return { heapMb: Math.max(256, Math.ceil((16 * maxBytes) / (1024 * 1024))), timeoutMs: 120_000 };
}

export class MemoryParser {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending: { id: number; resolve(r: ReadMemory): void; reject(e: Error): void; timer: NodeJS.Timeout } | null = null;

  constructor(private readonly opts: ParserOptions) {}

  private start(): Worker {
    const worker = new Worker(new URL('./memory-worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb, maxYoungGenerationSizeMb: 64 },
    });
    worker.unref();
    worker.on('message', (reply: ParseReply) => {
      const job = this.pending;
      if (!job || job.id !== reply.id) return;
      this.settle();
      if (reply.ok) job.resolve({ file: reply.file as MemoryFile, sha: reply.sha, bytes: reply.bytes });
      else job.reject(new MemoryLoadError(reply.why));
    });
    const died = (why: string) => {
      if (this.worker === worker) this.worker = null;
      const job = this.pending;
      if (!job) return;
      this.settle();
      job.reject(new MemoryLoadError(why));
    };
    worker.on('error', (err: NodeJS.ErrnoException) =>
      died(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `parsing it needs more memory than the parser may use (${this.opts.heapMb} MB); refused`
          : `the parser failed (${err.code ?? err.name})`,
      ),
    );
    worker.on('exit', () => died('the parser stopped'));
    return worker;
  }

  private settle(): void {
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = null;
  }

  /**
   * Starts the worker ahead of the first reload (the server calls it when it starts watching), so
   * a reload's time is the parse alone, not the worker's start (its loader and modules compiled).
   */
  warm(): void {
    this.worker ??= this.start();
  }

  /** The file read, hashed, parsed and validated in the worker; MemoryLoadError for a refusal. */
  read(path: string, maxBytes: number): Promise<ReadMemory> {
    if (this.pending) return Promise.reject(new Error('MemoryParser: one job at a time'));
    const worker = (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.settle();
        reject(new MemoryLoadError(`parsing took longer than ${this.opts.timeoutMs / 1000} s; refused`));
        this.stop();
      }, this.opts.timeoutMs);
      timer.unref();
      this.pending = { id, resolve, reject, timer };
      worker.postMessage({ id, path, maxBytes } satisfies ParseJob);
    });
  }

  /** Ends the worker (a later read starts a new one). */
  stop(): void {
    const w = this.worker;
    this.worker = null;
    if (w) void w.terminate();
  }
}
