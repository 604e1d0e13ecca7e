/** The memory worker's protocol: build jobs (resumable Runs), undo, and hand edits of entries. */
import type { EngineSpec } from '../../core/llm/spec';
import type { EntryPatch } from '../edit/entry';
import type { BuildRun, MemoryEntry } from '../../core/records';
import type { MemoryShareApi } from './share-api';

export interface BuildRequest {
  datasetId: string;
  name?: string;
  /** Training tasks (the rest are held out for evaluation); all tasks when absent. */
  trainSize?: number;
  seed?: number;
  tools?: string[];
  /** The engine, parsed (core/llm/spec): none (the capability analysis only), an endpoint, wllama or WebLLM. The Run stores its canonical string. */
  engine: EngineSpec;
  /** Entries retrieved per level for each update (paper: 6). */
  k?: number;
  clusters?: boolean;
  critiques?: boolean;
}

/** Memory import, drift and test cases (memory-share-api.ts; handlers in memory-share.ts). */
export interface MemoryApi extends MemoryShareApi {
  /** Creates the memory and its build Run (queued); `runBuild` does the work. */
  createBuild: { req: BuildRequest; res: BuildRun; progress: never };
  /**
   * Creates the build the page names (`runId`: build-…) and runs it until it completes, fails, or is
   * cancelled (then `paused`), reading the dataset once; its progress is the Run row, read live.
   */
  build: { req: BuildRequest & { runId: string }; res: BuildRun; progress: never };
  /** Runs (or resumes) a build until it completes, fails, or is cancelled (then `paused`). */
  runBuild: { req: { runId: string }; res: BuildRun; progress: BuildRun };
  /** The memory as a `toolmem-memory` JSON file (canonical text; agents load it with `toolmem mcp`). */
  exportMemory: { req: { memoryId: string; history?: boolean }; res: { fileName: string; text: string }; progress: never };
  /** A channel to the llm worker, for in-browser engines (wllama, WebLLM); sent when the worker starts. */
  attachLlm: { req: { port: MessagePort }; res: null; progress: never };
  /** Reverts the latest change of a memory (optionally of one tool). */
  undoMemory: { req: { memoryId: string; toolId?: string }; res: { undone: boolean; entries: number }; progress: never };
  /** A hand edit (text, level, pin) as a new version of the entry (src/app/edit/entry.ts); returns it. */
  reviseEntry: { req: { entry: MemoryEntry; patch: EntryPatch }; res: MemoryEntry; progress: never };
  /** Retires an entry by hand; `reason` is kept with it. */
  retireEntry: { req: { entry: MemoryEntry; reason: string }; res: null; progress: never };
}
