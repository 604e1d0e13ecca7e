/**
 * The parse worker of `toolmem serve` (a worker thread, started by memory-parser.ts): reads,
 * hashes, parses and validates a memory file off the thread that answers requests, and posts
 * back the parsed file or why it was refused. A file that needs more memory than the worker may
 * use kills the worker, not the server (its heap is capped by the parent's resourceLimits). It runs
 * at the lowest CPU priority (set by its entry, memory-worker.mjs).
 */
import { parentPort } from 'node:worker_threads';
import { MemoryLoadError, readMemoryFile } from './memory-read';

export interface ParseJob {
  id: number;
  path: string;
  maxBytes: number;
}

export type ParseReply = { id: number; ok: true; sha: string; bytes: number; file: unknown } | { id: number; ok: false; why: string };

parentPort?.on('message', (job: ParseJob) => {
  void readMemoryFile(job.path, job.maxBytes).then(
    (read) => parentPort!.postMessage({ id: job.id, ok: true, sha: read.sha, bytes: read.bytes, file: read.file } satisfies ParseReply),
    (err: unknown) => {
      const why = err instanceof MemoryLoadError ? err.message : `the file could not be read (${(err as Error)?.name ?? 'error'})`;
      parentPort!.postMessage({ id: job.id, ok: false, why } satisfies ParseReply);
    },
  );
});
