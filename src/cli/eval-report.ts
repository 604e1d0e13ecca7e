/**
 * What `toolmem eval` prints: the JSON summary (a fixed shape, an exact contract for scripts) and
 * the text report — tables of the metrics, the bootstrap intervals, the model usage, the top-k
 * ablation. Only formatting: the numbers come from the shared use case (src/app).
 */
import { formatIntervals, formatReport, table, toJsonReport, withIntervals, type EvalIntervals, type EvalReport } from '../core/eval';
import type { AblationRow } from '../core/eval/ablation';
import type { Dataset } from '../core/types';
import { formatLlmStats, withLlmStats } from './eval-llm';
import { writeFile } from 'node:fs/promises';
import type { EvaluationOutcome } from '../app/evaluate/run-evaluation';
import { EXIT, type Io } from './io';
import type { ParsedArgs } from './eval-args';
import { EXIT_INTERRUPTED } from './llm-progress';

/** The JSON summary: means over seeds, the intervals when computed, the LLM stats, `partial` when stopped, and the top-k ablation's rows with --ablation. */
export function evalJson(report: EvalReport, intervals: EvalIntervals | null, partial: string | undefined, ablation?: readonly AblationRow[]): object {
  const json = withLlmStats(intervals ? withIntervals(toJsonReport(report), intervals) : toJsonReport(report), report);
  if (partial) Object.assign(json, { partial: { interrupted: true, finished: partial } });
  if (ablation) Object.assign(json, { ablation });
  return json;
}

function policyText(p: { kind: string; rater?: string }): string {
  return p.kind === 'rater' ? `rater ${p.rater}` : `${p.kind} of the raters`;
}

/** The text report up to (not including) the ablation. */
export function printEvalText(
  io: Io,
  r: {
    dataset: Pick<Dataset, 'name' | 'preset' | 'scale' | 'raterPolicy'>;
    report: EvalReport;
    intervals: EvalIntervals | null;
    partial?: string | undefined;
    memorySummary?: string | undefined;
  },
): void {
  const { dataset, report } = r;
  if (r.partial) io.out(`PARTIAL RESULTS (stopped by Ctrl-C): ${r.partial}.\n`);
  if (r.memorySummary) io.out(r.memorySummary);
  io.out(`Dataset ${dataset.name} (${dataset.preset}), scale ${dataset.scale.min}–${dataset.scale.max}, ground truth: ${policyText(dataset.raterPolicy)}`);
  io.out(formatReport(report));
  if (r.intervals) io.out(`\n${formatIntervals(r.intervals, report.methods)}`);
  const llmTable = formatLlmStats(report);
  if (llmTable) io.out(`\n${llmTable}`);
}

/** The top-k ablation table (mean over seeds). */
export function ablationText(rows: readonly AblationRow[]): string {
  return `\nTop-k ablation (mean over seeds)\n${table(
    ['method', 'cut', 'k', 'MAE', 'RMSE', 'Pearson', 'pair acc'],
    rows.map((r) => [
      r.method,
      r.cut,
      String(r.k),
      r.mae.toFixed(3),
      r.rmse.toFixed(3),
      Number.isFinite(r.pearson) ? r.pearson.toFixed(3) : '—',
      r.pairAcc.toFixed(3),
    ]),
  )}`;
}

/** Prints (or writes) an outcome, complete or stopped part-way, and gives the exit code. */
export async function printOutcome(
  outcome: EvaluationOutcome,
  opts: ParsedArgs,
  io: Io,
  about: Omit<Parameters<typeof printEvalText>[1], 'report' | 'intervals' | 'partial'>,
): Promise<number> {
  const { report, partial, intervals, ablation } = outcome;
  if (!report) {
    io.err('toolmem eval: stopped by Ctrl-C before any method finished a seed; nothing to report.');
    return EXIT_INTERRUPTED;
  }
  if (partial) io.err(`toolmem eval: stopped by Ctrl-C; reporting ${partial}.`);
  if (!partial && !intervals) io.err('toolmem eval: Ctrl-C during the bootstrap intervals: printing the complete results without them.');
  const json = evalJson(report, intervals, partial, ablation);
  if (opts.json && opts.json !== '-') {
    try {
      await writeFile(opts.json, `${JSON.stringify(json, null, 2)}\n`);
    } catch (err) {
      io.err(`toolmem eval: cannot write ${opts.json}: ${(err as Error).message}`);
      return EXIT.unreadable;
    }
  }
  const exit = partial ? EXIT_INTERRUPTED : EXIT.ok;
  if (opts.json === '-') {
    io.out(JSON.stringify(json, null, 2));
    return exit;
  }
  printEvalText(io, { ...about, report, intervals, partial });
  if (partial) {
    if (opts.json) io.out(`\nPartial JSON summary written to ${opts.json}`);
    return exit;
  }
  if (opts.ablation) io.out(ablation ? ablationText(ablation) : '\n(no neighbour method selected: no top-k ablation)');
  if (opts.json) io.out(`\nJSON summary written to ${opts.json}`);
  return EXIT.ok;
}
