/** The memory worker's protocol: build jobs (resumable Runs) and undo. Entry edits happen in the UI thread. */
import type { BuildRun } from '../core/types';
import type { MemoryShareApi } from './memory-share-api';

export interface BuildRequest {
  datasetId: string;
  name?: string;
  /** Training tasks (the rest are held out for evaluation); all tasks when absent. */
  trainSize?: number;
  seed?: number;
  tools?: string[];
  /** An engine spec (core/llm/spec): `none` (the capability analysis only, no model), `openai:URL#MODEL`, `wllama:…`, `webllm:…`. */
  engine: string;
  /** Entries retrieved per level for each update (paper: 6). */
  k?: number;
  clusters?: boolean;
  critiques?: boolean;
}

/** Memory import, drift and test cases (memory-share-api.ts; handlers in memory-share.ts). */
export interface MemoryApi extends MemoryShareApi {
  /** Creates the memory and its build Run (queued); `runBuild` does the work. */
  createBuild: { req: BuildRequest; res: BuildRun; progress: never };
  /** Runs (or resumes) a build until it completes, fails, or is cancelled (then `paused`). */
  runBuild: { req: { runId: string }; res: BuildRun; progress: BuildRun };
  /** The memory as a `toolmem-memory` JSON file (canonical text; agents load it with `toolmem mcp`). */
  exportMemory: { req: { memoryId: string; history?: boolean }; res: { fileName: string; text: string }; progress: never };
  /** A channel to the llm worker, for in-browser engines (wllama, WebLLM); sent when the worker starts. */
  attachLlm: { req: { port: MessagePort }; res: null; progress: never };
  /** Reverts the latest change of a memory (optionally of one tool). */
  undo: { req: { memoryId: string; toolId?: string }; res: { undone: boolean; entries: number }; progress: never };
}
