/**
 * The Evaluate page's run configuration and labels, as plain functions (the page and its tests read
 * the same): what the form sends, how a stored run is named, which method a one-method chart shows.
 */
import type { EvalConfig } from '../app/evaluate/api';
import { formatEngineSpec, type EngineSpec } from '../core/llm';
import { isLlmMethod } from '../core/predict/registry';
import type { EvalRun } from '../core/records';
import { formatDate } from './format';

/** What the New evaluation form holds. */
export interface EvalForm {
  datasetId: string;
  methods: readonly string[];
  /** A stored memory to evaluate ('' = one induced per seed). */
  memoryId: string;
  engine: EngineSpec;
  hasEngine: boolean;
  llmMaxTest: number;
  seeds: number;
  train: number | null;
  test: number | null;
  ablation: boolean;
}

/**
 * The configuration the form asks for: the LLM methods only with a language model (then the engine
 * and the test cap go with them); a stored memory has one split, its own (the service refuses other
 * seeds and a train size).
 */
export function evalConfigOf(f: EvalForm): EvalConfig {
  const chosen = f.methods.filter((m) => f.hasEngine || !isLlmMethod(m));
  return {
    datasetId: f.datasetId,
    methods: chosen,
    ablation: f.ablation,
    ...(f.test ? { test: f.test } : {}),
    ...(chosen.some(isLlmMethod) ? { engine: formatEngineSpec(f.engine), llmMaxTest: f.llmMaxTest } : {}),
    ...(f.memoryId ? { memoryId: f.memoryId, seeds: 1 } : { seeds: f.seeds, ...(f.train ? { train: f.train } : {}) }),
  };
}

/** A run's dataset, the stored memory it scored (its name as it was; the id for unfinished runs) and when it started. */
export function runLabel(r: Pick<EvalRun, 'config' | 'metrics' | 'startedAt'>, datasetName: string): string {
  const mem = r.metrics?.memory?.name ?? r.config.memoryId;
  return `${datasetName}${mem ? ` · memory ${mem}` : ''} · ${formatDate(r.startedAt)}`;
}

/** The method a one-method chart shows: the one chosen while the run has it, else the best, else `fallback`; '' when none. */
export function shownMethod(chosen: string, available: readonly string[], best: string, fallback: string | undefined): string {
  return (available.includes(chosen) ? chosen : best || fallback) || '';
}
