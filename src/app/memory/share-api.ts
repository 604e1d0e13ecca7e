/** Protocol of sharing a memory (import, new or merged) and of checking it (drift, test cases). */
import type { StaleFlag } from '../../core/memory/drift';
import type { TestCaseRun } from '../../core/records';
import type { MemoryFileIssue, MergePreview } from '../../core/memory-format';

export interface ImportMemoryRequest {
  /** The file's text (a `toolmem-memory` JSON file). */
  text: string;
  mode: 'new' | 'merge';
  /** The memory to merge into (mode `merge`). */
  memoryId?: string;
  /** Validate and plan only: nothing is written (the preview before confirming). */
  dryRun?: boolean;
}

export type ImportMemoryResponse =
  | { ok: false; issues: MemoryFileIssue[] }
  | {
      ok: true;
      /** False for a dry run. */
      written: boolean;
      mode: 'new' | 'merge';
      memoryId: string;
      name: string;
      tools: { id: string; counts: Record<'proficient' | 'good' | 'bad' | 'weak', number> }[];
      entries: number;
      /** Ids were in use here, so the memory got a new id and its entries prefixed ids. */
      renamedIds: boolean;
      merge: MergePreview | null;
      /** Entry vectors of the file: stored in the embedding cache, skipped (other model), or none. */
      vectors: 'stored' | 'skipped' | 'none';
    };

/** A contradicting experience, with what the UI shows and links to. */
export interface DriftExperienceInfo {
  id: string;
  datasetId: string;
  taskId: string;
  prompt: string;
  score: number;
  rater: string;
}

export interface DriftReport {
  memoryId: string;
  flags: StaleFlag[];
  experiences: Record<string, DriftExperienceInfo>;
  threshold: number;
}

export interface MemoryShareApi {
  /** Imports a memory file as a new memory or merges it into one (one transaction); `dryRun` previews. */
  importMemory: { req: ImportMemoryRequest; res: ImportMemoryResponse; progress: never };
  /** Entries of a memory contradicted by experiences that arrived after them (core/memory/drift). */
  drift: { req: { memoryId: string; threshold?: number }; res: DriftReport; progress: never };
  /** Predicts a tool's pinned tasks with its memory and records a `test-cases` Run. */
  runTestCases: { req: { toolId: string }; res: TestCaseRun; progress: never };
}
