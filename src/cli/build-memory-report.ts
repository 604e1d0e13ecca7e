/**
 * What `toolmem build-memory` prints: the build summary as JSON (a fixed shape, a contract for
 * scripts) or as text lines. Only formatting: the build is the app's use case (src/app/memory/build.ts).
 */
import { dictFrom } from '../core/data-keys';
import type { BuildMetrics } from '../core/memory';
import type { MemoryFile } from '../core/memory-format';
import { LEVELS } from '../core/types';
import type { VerdictCounts } from '../core/capability/types';

type Verification = NonNullable<NonNullable<MemoryFile['build']['capability']>['report']['verification']>;

function verificationLine(v: Verification): string {
  return (
    `Checked on the held-out ` +
    `tasks: ${verdictSummary({ ...v, direction: v.direction ?? v.precision, confirmed: v.confirmed ?? null, calibration: v.calibration ?? null })}`
  );
}

/** One line for a check's figures: direction, confirmed, calibration and the counts behind them. */
export function verdictSummary(v: {
  tested: number;
  counts: VerdictCounts;
  direction: number | null;
  confirmed: number | null;
  calibration: number | null;
}): string {
  const c = v.counts;
  if (v.tested === 0) return `no claim could be tested (${c.untested} untested: fewer than 15 unseen tasks their rule applies to).`;
  const share = (x: number | null) => (x === null ? '—' : x.toFixed(2));
  const inconclusive = (c.inconclusive ?? 0) + (c.weaker ?? 0);
  return (
    `direction ${share(v.direction)} (unseen sign agrees), confirmed ${share(v.confirmed)} (${c.holds} of ${v.tested} tested claims hold), ` +
    `calibration ${share(v.calibration)}; ${c.holds} hold, ${inconclusive} inconclusive, ${c.contradicted} contradicted, ${c.untested} ` +
    `untested.`
  );
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
    claims: cap?.report.claims ?? null,
    tentative: cap?.report.tentative ?? null,
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
    ...(cap
      ? [
          `Capability analysis: ${cap.report.facetsTested} facets tested on ${cap.tools.length} tools; ${cap.report.claims ?? cap.report.entries} ` +
            `claims, ${cap.report.tentative ?? 0} tentative entries and one profile per ` +
            `tool; ${cap.report.belowMinN} ${cap.report.belowMinN === 1 ? 'facet' : 'facets'} below the minimum number of tasks (no entry).`,
          ...cap.report.notes.map((n) => `  ${n}`),
        ]
      : []),
    ...(cap?.report.verification ? [verificationLine(cap.report.verification)] : []),
    ...(cap?.note ? [cap.note.text] : []),
    ...lines,
    metrics.llmCalls
      ? `LLM: ${metrics.llmCalls} calls, ${metrics.promptTokens} prompt + ${metrics.completionTokens} completion tokens, ${metrics.skipped.length} ` +
        `experiences skipped (invalid replies).`
      : 'No LLM used: the capability analysis only.',
  ].join('\n');
}
