/** The memory worker's protocol: build jobs (resumable Runs) and undo. Entry edits happen in the UI thread. */
import type { Run } from '../core/types';

export interface BuildRequest {
  datasetId: string;
  name?: string;
  /** Training tasks (the rest are held out for evaluation); all tasks when absent. */
  trainSize?: number;
  seed?: number;
  tools?: string[];
  /** `none` (evidence clusters only) or `openai:URL#MODEL` (an OpenAI-compatible endpoint). */
  engine: string;
  /** Entries retrieved per level for each update (paper: 6). */
  k?: number;
  clusters?: boolean;
  critiques?: boolean;
}

export interface MemoryApi {
  /** Creates the memory and its build Run (queued); `runBuild` does the work. */
  createBuild: { req: BuildRequest; res: Run; progress: never };
  /** Runs (or resumes) a build until it completes, fails, or is cancelled (then `paused`). */
  runBuild: { req: { runId: string }; res: Run; progress: Run };
  /** The memory as a `toolmem-memory` JSON file (canonical text; agents load it with `toolmem mcp`). */
  exportMemory: { req: { memoryId: string; history?: boolean }; res: { fileName: string; text: string }; progress: never };
  /** Reverts the latest change of a memory (optionally of one tool). */
  undo: { req: { memoryId: string; toolId?: string }; res: { undone: boolean; entries: number }; progress: never };
}
