/**
 * Stored rows whose shape ties several features together: a Memory (its capability snapshot and
 * build settings), its entries (facet, effect, verdict, profile) and the Runs (build, eval and
 * test-case configs and metrics). They sit above the features they name, so that the ground floor
 * (types.ts) imports nothing and no feature module has to import a record type back (issue #29:
 * this is what broke the 45-file import cycle).
 * Constraint: type-only imports; pure TypeScript like the rest of src/core.
 */
import type { CapabilitySnapshot, Effect, Facet, ToolProfile, Verdict } from './capability/types';
import type { EvalConfig, EvalResult } from './eval/run-record';
import type { BuildConfig, BuildMetrics, BuildSettings } from './memory/build-config';
import type { TestCaseConfig, TestCaseMetrics } from './memory/test-cases';
import type { SplitSpec } from './memory/training';
import type { ImportedBuild } from './memory-format/imported';
import type { EntryOrigin, Level, RunState } from './types';

/**
 * How a memory came to be. A built one: `build` (its Run's id), the split, the engine and (builds
 * by the job runner) the build settings. An imported one: `imported` (what the file carried that
 * the rows do not). A file merged into a built memory has both.
 */
export interface MemorySettings extends Partial<BuildSettings> {
  build?: string;
  split?: SplitSpec;
  engine?: string;
  imported?: ImportedBuild;
}

export interface Memory {
  id: string;
  name: string;
  datasetIds: string[];
  /** Embedding model the entries were embedded with (retrieval needs the same one). */
  embeddingModel: string;
  settings: MemorySettings;
  /** Facets, the tested tool × facet matrix and the shared note of the last capability build. */
  capability?: CapabilitySnapshot;
  createdAt: number;
  updatedAt: number;
}

export interface MemoryEntry {
  id: string;
  memoryId: string;
  toolId: string;
  level: Level;
  value: 2 | 1 | -1 | -2;
  text: string;
  /** Experience ids that support this entry. */
  evidence: string[];
  support: number;
  origin: EntryOrigin;
  pinned: boolean;
  /** Valid from this time (ms since epoch). */
  validFrom: number;
  /** Set when the entry was superseded or retired; only entries with validTo === null are retrieved. */
  validTo: number | null;
  supersededBy: string | null;
  retiredReason?: string;
  /** Capability entries: what the claim is about (its applicability rule) and the claimed effect. */
  facet?: Facet;
  effect?: Effect;
  /** Set once the claim was checked on tasks the memory never saw. */
  verdict?: Verdict;
  /** The tool's overall entry of a capability build (issue #25): a description, not a facet claim. */
  profile?: ToolProfile;
  createdAt: number;
  updatedAt: number;
}

/** What every kind of Run row holds; `config` and `metrics` are typed per kind (see {@link Run}). */
interface RunFields {
  id: string;
  state: RunState;
  /** Resumable jobs keep their position here (a build: core/memory/job.ts `BuildCursor`). */
  cursor?: unknown;
  error?: string;
  startedAt: number;
  finishedAt?: number;
}

/** A memory build (core/memory/job.ts): resumable, its cursor a `BuildCursor`. */
export interface BuildRun extends RunFields {
  kind: 'build';
  /** Full configuration, so a run can be repeated or compared. */
  config: BuildConfig;
  metrics?: BuildMetrics;
}

/** An evaluation of predictors on a dataset (app/evaluate/evaluate.ts, `toolmem eval`). */
export interface EvalRun extends RunFields {
  kind: 'eval';
  config: EvalConfig;
  /** Set once the run completed. */
  metrics?: EvalResult;
}

/** A tool's test cases predicted with a memory (app/memory/checks.ts). */
export interface TestCaseRun extends RunFields {
  kind: 'test-cases';
  config: TestCaseConfig;
  metrics?: TestCaseMetrics;
}

/** A job's row in the `runs` table, told apart by `kind`. */
export type Run = BuildRun | EvalRun | TestCaseRun;
export type RunKind = Run['kind'];
/** The Run of one kind: `RunOf<'eval'>` is {@link EvalRun}. */
export type RunOf<K extends RunKind> = Extract<Run, { kind: K }>;
