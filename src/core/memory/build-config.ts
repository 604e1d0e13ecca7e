/**
 * The shapes a build Run stores (its configuration, settings and metrics), types only. They sit
 * below records.ts, which names them in `BuildRun`, and import nothing that reads Run rows, so the
 * records module can depend on them without an import cycle (issue #29).
 */
import type { EvidenceSource } from '../capability/templates';
import type { CapabilitySnapshot } from '../capability/types';
import type { ScoreScale } from '../types';
import type { ClusterSettings } from './clusters';
import type { Operation } from './operations';
import type { SplitSpec } from './training';

export interface InduceSettings {
  /** Entries retrieved per level (paper: 6). */
  k: number;
  /** Write feedback for experiences that have none. */
  feedback: boolean;
  /** Distil critiques from experiences whose normalised score (0 worst … 1 best) is ≤ this; null = never. */
  critiqueBelow: number | null;
  maxTokens: { update: number; critique: number };
}

export interface BuildSettings extends InduceSettings {
  /** Seed each tool's memory with evidence clusters (works without an LLM). */
  clusters: boolean;
  cluster: ClusterSettings;
  /** Largest local false sign rate of a claim (capability/claims.ts; default 0.05). */
  maxLfsr?: number;
}

export interface BuildConfig {
  memoryId: string;
  memoryName: string;
  datasetId: string;
  scale: ScoreScale;
  split: SplitSpec;
  /** Tools in build order. */
  tools: string[];
  /** Engine id; `none` = evidence clusters only. */
  engine: string;
  embeddingModel: string;
  settings: BuildSettings;
  /** `pairwise`: the dataset's scores are derived from pairwise judgements (entries say so). */
  evidence?: EvidenceSource;
}

export interface ClusterStat {
  tier: string;
  size: number;
  mean: number;
  overall: number;
  d: number;
  p: number;
  q: number;
}

export interface BuildMetrics {
  done: number;
  total: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  applied: number;
  skipped: { experienceId: string; error: string }[];
  generatedFeedback: number;
  critiques: number;
  operations: Record<Operation['op'], number>;
  /** Prompt tokens of each experience's first update request. */
  updatePrompt: { count: number; min: number; max: number; sum: number };
  entriesAdded: number;
  elapsedMs: number;
  etaMs: number | null;
  clusterStats: Record<string, ClusterStat>;
  /** The capability step's counters (facets tested, entries, facets below the minimum n, notes). */
  capability?: CapabilitySnapshot['report'];
  /**
   * Operations of applied replies that were not applied, and critiques that failed without
   * discarding their update: at most REPORT_MAX kept (with their reason), all counted.
   */
  rejectedOps?: { count: number; items: { experienceId: string; index: number; reason: string }[] };
  critiqueErrors?: { count: number; items: { experienceId: string; error: string }[] };
}
