/**
 * Report shapes: the JSON contract of `toolmem eval --json` (means over seeds; NaN — e.g. the
 * Pearson r of a constant predictor — becomes null) and plain-text tables.
 */
import { dict, own } from '../data-keys';
import { meanSd } from './metrics';
import type { EvalReport, SeedResult } from './evaluate';

export interface JsonToolMetrics {
  mae: number | null;
  rmse: number | null;
  pearson: number | null;
  n: number | null;
}

export interface JsonPair {
  a: string;
  b: string;
  nUnequal: number | null;
  acc: number | null;
  f1Less: number | null;
  f1Greater: number | null;
}

export interface JsonReport {
  methods: Record<string, { tools: Record<string, JsonToolMetrics>; mean: { mae: number | null; rmse: number | null; pearson: number | null } }>;
  pairs: Record<string, JsonPair[]>;
  baselines: {
    alwaysStronger: { a: string; b: string; acc: number | null }[];
    oracleGapCaptured: Record<string, number | null>;
  };
}

/** Rounded to 6 decimals; NaN / infinite → null. */
export function num(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x * 1e6) / 1e6 : null;
}

const avg = (seeds: readonly SeedResult[], pick: (s: SeedResult) => number | undefined): number => meanSd(seeds.map((s) => pick(s) ?? NaN)).mean;

export function toJsonReport(report: EvalReport): JsonReport {
  const { seeds } = report;
  const out: JsonReport = { methods: {}, pairs: {}, baselines: { alwaysStronger: [], oracleGapCaptured: {} } };
  for (const m of report.methods) {
    // Tool ids are data (`toString`, `__proto__`, …): a null-prototype object, read with `own`.
    const tools = dict<JsonToolMetrics>();
    for (const tool of report.tools) {
      const of = (s: SeedResult) => own(s.methods[m]?.tools, tool);
      if (!seeds.some(of)) continue;
      tools[tool] = {
        mae: num(avg(seeds, (s) => of(s)?.mae)),
        rmse: num(avg(seeds, (s) => of(s)?.rmse)),
        pearson: num(avg(seeds, (s) => of(s)?.pearson)),
        n: num(avg(seeds, (s) => of(s)?.n)),
      };
    }
    out.methods[m] = {
      tools,
      mean: {
        mae: num(avg(seeds, (s) => s.methods[m]?.mean.mae)),
        rmse: num(avg(seeds, (s) => s.methods[m]?.mean.rmse)),
        pearson: num(avg(seeds, (s) => s.methods[m]?.mean.pearson)),
      },
    };
    out.pairs[m] = report.toolPairs.map(([a, b], i) => ({
      a,
      b,
      nUnequal: num(avg(seeds, (s) => s.methods[m]?.pairs[i]?.nUnequal)),
      acc: num(avg(seeds, (s) => s.methods[m]?.pairs[i]?.acc)),
      f1Less: num(avg(seeds, (s) => s.methods[m]?.pairs[i]?.f1Less)),
      f1Greater: num(avg(seeds, (s) => s.methods[m]?.pairs[i]?.f1Greater)),
    }));
    out.baselines.oracleGapCaptured[m] = num(avg(seeds, (s) => s.methods[m]?.selection.gapCaptured));
  }
  out.baselines.alwaysStronger = report.toolPairs.map(([a, b], i) => ({ a, b, acc: num(avg(seeds, (s) => s.baselines.alwaysStronger[i]?.acc)) }));
  return out;
}

/** "0.912 ± 0.011" (sd omitted for one seed; "—" for NaN). */
export function fmt(values: readonly number[], digits = 3): string {
  const { mean, sd, n } = meanSd(values);
  if (!Number.isFinite(mean)) return '—';
  return n > 1 ? `${mean.toFixed(digits)} ± ${sd.toFixed(digits)}` : mean.toFixed(digits);
}

/** Left-aligned first column, right-aligned others. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: readonly string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The CLI's text report: per-method means, per-tool metrics, pairs and selection baselines. */
export function formatReport(report: EvalReport): string {
  const { seeds } = report;
  const parts: string[] = [];
  const seedNote =
    `${seeds.length} seed${seeds.length === 1 ? '' : 's'} (${seeds.map((s) => s.seed).join(', ')}), ${report.sizes.train} train ` +
    `/ ${report.sizes.test} test tasks; mean ± sd over seeds`;
  parts.push(`Score prediction, mean over tools — ${seedNote}`);
  parts.push(
    table(
      ['method', 'MAE', 'RMSE', 'Pearson', 'Spearman', 'pair acc', 'gap captured', 'clamped'],
      report.methods.map((m) => [
        m,
        fmt(seeds.map((s) => s.methods[m]!.mean.mae)),
        fmt(seeds.map((s) => s.methods[m]!.mean.rmse)),
        fmt(seeds.map((s) => s.methods[m]!.mean.pearson)),
        fmt(seeds.map((s) => s.methods[m]!.mean.spearman)),
        fmt(seeds.map((s) => meanSd(s.methods[m]!.pairs.map((p) => p.acc)).mean)),
        fmt(seeds.map((s) => s.methods[m]!.selection.gapCaptured)),
        String(seeds.reduce((a, s) => a + s.methods[m]!.clamped, 0)),
      ]),
    ),
  );
  parts.push('');
  parts.push('Per tool (MAE / RMSE / Pearson)');
  parts.push(
    table(
      ['tool', ...report.methods],
      report.tools.map((tool) => [
        tool,
        ...report.methods.map((m) => {
          const v = (k: 'mae' | 'rmse' | 'pearson') => fmt(seeds.map((s) => own(s.methods[m]!.tools, tool)?.[k] ?? NaN)).split(' ')[0]!;
          return `${v('mae')} / ${v('rmse')} / ${v('pearson')}`;
        }),
      ]),
    ),
  );
  parts.push('');
  parts.push('Pair accuracy on tasks whose true scores differ (a predicted tie counts as wrong)');
  parts.push(
    table(
      ['pair', '|D|', 'always-stronger', ...report.methods],
      report.toolPairs.map(([a, b], i) => [
        `${a} – ${b}`,
        fmt(
          seeds.map((s) => s.baselines.alwaysStronger[i]!.nUnequal),
          0,
        ),
        fmt(seeds.map((s) => s.baselines.alwaysStronger[i]!.acc)),
        ...report.methods.map((m) => fmt(seeds.map((s) => s.methods[m]!.pairs[i]!.acc))),
      ]),
    ),
  );
  parts.push('');
  const base = seeds.map((s) => s.baselines.alwaysStrongerSelection);
  parts.push(
    `Selection (mean true score of the chosen tool): random ${fmt(base.map((b) => b.random))}, oracle ${fmt(base.map((b) => b.oracle))}, ` +
      `always-stronger ${fmt(base.map((b) => b.selected))} (gap captured ${fmt(base.map((b) => b.gapCaptured))})`,
  );
  for (const m of report.methods) {
    const sel = seeds.map((s) => s.methods[m]!.selection);
    parts.push(`  ${m}: ${fmt(sel.map((x) => x.selected))} (gap captured ${fmt(sel.map((x) => x.gapCaptured))})`);
  }
  return parts.join('\n');
}
