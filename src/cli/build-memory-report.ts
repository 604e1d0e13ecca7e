/**
 * What `toolmem build-memory` prints: the build summary as JSON (a fixed shape, a contract for
 * scripts) or as text lines. Only formatting: the build is the app's use case (src/app/build-memory.ts).
 */
import { dictFrom } from '../core/data-keys';
import type { BuildMetrics } from '../core/memory';
import type { MemoryFile } from '../core/memory-format';
import { LEVELS } from '../core/types';

type Verification = NonNullable<NonNullable<MemoryFile['build']['capability']>['report']['verification']>;

function verificationLine(v: Verification): string {
  const c = v.counts;
  const p = v.precision === null ? 'no entry could be tested' : `precision ${v.precision.toFixed(2)} (${c.holds + c.weaker} of ${v.tested} tested entries held their direction)`;
  return `Checked on the held-out tasks: ${p}; ${c.holds} hold, ${c.weaker} weaker, ${c.contradicted} contradicted, ${c.untested} untested.`;
}

export interface BuildSummaryInput {
  out: string;
  datasetId: string;
  trainTasks: number;
  engine: string;
  embeddingModel: string;
  file: MemoryFile;
  metrics: Pick<BuildMetrics, 'llmCalls' | 'promptTokens' | 'completionTokens' | 'skipped'>;
}

/** The `--json` summary. */
export function buildSummaryJson(r: BuildSummaryInput): object {
  const cap = r.file.build.capability;
  return {
    out: r.out,
    dataset: r.datasetId,
    trainTasks: r.trainTasks,
    engine: r.engine,
    embeddingModel: r.embeddingModel,
    tools: dictFrom(r.file.tools.map((t) => [t.id, t.counts] as const)),
    facets: cap?.report.facetsTested ?? 0,
    belowMinN: cap?.report.belowMinN ?? 0,
    note: cap?.note?.text ?? null,
    verification: cap?.report.verification ?? null,
    llmCalls: r.metrics.llmCalls,
    promptTokens: r.metrics.promptTokens,
    completionTokens: r.metrics.completionTokens,
    skipped: r.metrics.skipped.length,
  };
}

/** The text summary. */
export function buildSummaryText(r: BuildSummaryInput): string {
  const { file, metrics } = r;
  const cap = file.build.capability;
  const lines = file.tools.map((t) => `  ${t.id.padEnd(24)} ${LEVELS.map((l) => `${l} ${t.counts[l]}`).join('  ')}`);
  return [
    `Memory written to ${r.out} (${r.trainTasks} training tasks, engine ${r.engine}, embeddings ${r.embeddingModel}).`,
    ...(cap ? [`Capability analysis: ${cap.report.facetsTested} facets tested on ${cap.tools.length} tools, ${cap.report.entries} entries; ${cap.report.belowMinN} facets below the minimum number of tasks (no entry).`, ...cap.report.notes.map((n) => `  ${n}`)] : []),
    ...(cap?.report.verification ? [verificationLine(cap.report.verification)] : []),
    ...(cap?.note ? [cap.note.text] : []),
    ...lines,
    metrics.llmCalls ? `LLM: ${metrics.llmCalls} calls, ${metrics.promptTokens} prompt + ${metrics.completionTokens} completion tokens, ${metrics.skipped.length} experiences skipped (invalid replies).` : 'No LLM used: the capability analysis only.',
  ].join('\n');
}
